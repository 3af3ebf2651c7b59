/**
 * close_position over the real remote server (`POST /mcp` on the local stack, the broker emulator behind it): an
 * exit-only assistant (`scopes: ["read", "exit"]`) previews the close of a long (the preview says the side, the
 * quantity and the protected price, and sends nothing to the broker), confirms it (one PlaceOrder), and a second confirm
 * of the same preview places nothing more; a close past the long is refused at its preview, nothing sent.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { callTool, remoteMcpClient } from '../support/mcp-tools.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
useLocalStack(
  { settings: HIGH_ORDER_RATE },
  (s, c) => {
    stack = s;
    control = c;
  },
  { clearFaults: true },
);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies read field by field
type Json = Record<string, any>;
let keys = 0;
const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${stack.api.url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(method === 'GET' ? {} : { 'Idempotency-Key': `mcp-close-${++keys}-${Date.now()}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Json };
};
const netQty = async (): Promise<number> =>
  ((await api('GET', '/positions')).body.positions as Json[])
    .filter((p) => p.tsym === 'INFY-EQ')
    .reduce((sum, p) => sum + (p.netQty as number), 0);
const plainOrders = async () => (await control.requests()).filter((r) => r.operation === 'PlaceOrder');

let exit: Client;
beforeAll(async () => {
  const created = await api('POST', '/assistants', { name: 'exit-closer', scopes: ['read', 'exit'] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  exit = await remoteMcpClient(stack.api.url, created.body.token as string);
});
afterAll(async () => {
  await exit?.close();
});

describe('close_position', () => {
  it('an exit-only assistant previews (nothing sent), confirms once and again: one sell of the long', async () => {
    const buy = await api('POST', '/gtt-orders', { ...SAMPLE_ORDER, tsym: 'INFY-EQ', qty: 5 });
    expect(buy.status, JSON.stringify(buy.body)).toBe(201);
    await control.ltp('NSE', 'INFY-EQ', 1489);
    expect(await netQty()).toBe(5);
    await control.clearRequests();

    const preview = (await callTool(exit, 'close_position', { exch: 'NSE', tsym: 'INFY-EQ', prd: 'C' }))
      .structuredContent!;
    expect(preview.refused, JSON.stringify(preview)).toBeUndefined();
    expect(preview.summary).toMatch(
      /^Sell 5 INFY-EQ \(NSE, C\) at a protected limit about ₹1,481\.60 to close a long of 5\./,
    );
    expect(preview.rulesChecked).toContain(
      'exit-only: a close only reduces (the gateway refuses one past the position or its exits)',
    );
    expect(await plainOrders()).toEqual([]);

    const done = (await callTool(exit, 'confirm', { confirmationId: preview.confirmationId })).structuredContent!;
    expect(done, JSON.stringify(done)).toMatchObject({
      confirmed: true,
      result: { trantype: 'S', qty: 5, outcome: 'placed' },
    });
    const again = (await callTool(exit, 'confirm', { confirmationId: preview.confirmationId })).structuredContent!;
    expect(JSON.stringify(again)).toContain((done.result as Json).norenordno as string);
    expect(await plainOrders()).toHaveLength(1);
    expect(await netQty()).toBe(0);
  });

  it('a close past the position is refused at its preview, with the reason; nothing sent', async () => {
    const buy = await api('POST', '/gtt-orders', { ...SAMPLE_ORDER, tsym: 'INFY-EQ', qty: 2 });
    expect(buy.status).toBe(201);
    await control.ltp('NSE', 'INFY-EQ', 1489);
    await control.clearRequests();
    const preview = await callTool(exit, 'close_position', { exch: 'NSE', tsym: 'INFY-EQ', prd: 'C', qty: 3 });
    expect(JSON.stringify(preview.structuredContent)).toContain('qty 3 is more than the long of 2');
    expect(preview.structuredContent!.confirmationId).toBeUndefined();
    expect(await plainOrders()).toEqual([]);
  });
});
