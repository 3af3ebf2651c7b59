/**
 * An assistant's limits over the real remote server (`POST /mcp` on the local stack, the broker emulator behind it),
 * as a hostile assistant would try them (issue 52, defects 5 and 6):
 *
 * - a change (`change_gtt`, `change_oco`) is held to the per-order limits as the order after the change, an OCO's
 *   legs each, and what is confirmed is the order that was checked (bound to its version: an order changed meanwhile
 *   is not changed);
 * - the orders per day cannot be passed: a confirm refused for a wrong `requestHash` spends nothing, a later confirm
 *   of an id replays the first's answer and sends nothing, and confirms at once never place past the limit.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAssistantRegistry } from '../../functions/assistants/registry.js';
import { LOCAL_EVENTS_TABLE } from '../../local/dynamodb.js';
import type { LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { callTool, PLACE, remoteMcpClient } from '../support/mcp-tools.js';

let stack: LocalStack;
let control: EmulatorControl;
useLocalStack({}, (s, c) => {
  stack = s;
  control = c;
});
const clients: Client[] = [];
afterAll(async () => {
  for (const client of clients) await client.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies read field by field
type Json = Record<string, any>;
let keys = 0;
const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${stack.api.url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(method === 'GET' ? {} : { 'Idempotency-Key': `mcp-limits-${++keys}-${Date.now()}` }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Json };
};

/** A trading assistant with these limits, and an MCP client presenting its token. */
const assistant = async (name: string, limits: Json) => {
  const created = await api('POST', '/assistants', { name, scopes: ['read', 'trade'], limits });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const client = await remoteMcpClient(stack.api.url, created.body.token as string);
  clients.push(client);
  return { client, assistantId: created.body.assistantId as string, token: created.body.token as string };
};

const pending = async () => (await control.orders(stack.emulator.uid)).filter((o) => o.state === 'pending');
/** The GTT places that reached the broker. */
const placesAtBroker = async () => (await control.requests()).filter((r) => r.operation === 'PlaceGTTOrder').length;
const order = async (alId: string) => (await api('GET', `/gtt-orders/${alId}?fresh=true`)).body;

const CAPPED = { maxQtyPerOrder: 5, maxValuePerOrder: 10_000, exchanges: ['NSE'] };
const GTT = { ...PLACE, qty: 5, prc: '1500', d: '1490' };
const OCO = {
  exch: 'NSE',
  tsym: 'INFY-EQ',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 5, prc: '1600', prd: 'C' } },
  stopLoss: {
    trigger: '1400',
    order: { trantype: 'S', prctyp: 'SL-LMT', qty: 5, prc: '1395', prd: 'C', trgprc: '1398' },
  },
};

describe('defect 5: a change is held to the limits as the order after it', () => {
  let capped: Client;
  beforeAll(async () => {
    ({ client: capped } = await assistant('capped-changer', CAPPED));
  });

  it('refuses change_gtt to qty 500 or a price over the value, and change_oco legs to 400: nothing sent', async () => {
    const gtt = await api('POST', '/gtt-orders', GTT);
    const oco = await api('POST', '/gtt-orders/oco', OCO);
    expect([gtt.status, oco.status], JSON.stringify([gtt.body, oco.body])).toEqual([201, 201]);
    const [gttId, ocoId] = [gtt.body.al_id as string, oco.body.al_id as string];
    const before = [await order(gttId), await order(ocoId)];

    const raised = await callTool(capped, 'change_gtt', { alId: gttId, qty: 500 });
    expect(raised.structuredContent).toMatchObject({
      refused: true,
      reason: "the order after the change: quantity 500 is over this assistant's most per order (5)",
    });
    // Only the price: the order's own quantity (5) × 2,500 is ₹12,500.
    const repriced = await callTool(capped, 'change_gtt', { alId: gttId, prc: '2500' });
    expect(repriced.structuredContent?.reason).toMatch(
      /^the order after the change: value ₹12,500 \(quantity 5 × 2500\)/,
    );
    const legs = await callTool(capped, 'change_oco', {
      alId: ocoId,
      target: { order: { qty: 400 } },
      stopLoss: { order: { qty: 400 } },
    });
    expect(legs.structuredContent).toMatchObject({
      refused: true,
      reason: "the target leg after the change: quantity 400 is over this assistant's most per order (5)",
    });
    const stopOnly = await callTool(capped, 'change_oco', { alId: ocoId, stopLoss: { order: { qty: 400 } } });
    expect(stopOnly.structuredContent?.reason).toMatch(/^the stopLoss leg after the change: quantity 400/);
    expect([await order(gttId), await order(ocoId)]).toEqual(before);
  });

  it('confirms a change within the limits as previewed; an order changed since its preview is not changed', async () => {
    const gtt = await api('POST', '/gtt-orders', GTT);
    const alId = gtt.body.al_id as string;
    const preview = (await callTool(capped, 'change_gtt', { alId, d: '1480', prc: '1490' })).structuredContent!;
    expect(preview.summary).toContain('After it, on NSE:INFY-EQ: when the price falls below 1480, buy 5 limit 1490');
    expect((preview.request as Json).ifMatch).toMatch(/^"s\.[0-9a-f]+"$/);
    const done = await callTool(capped, 'confirm', { confirmationId: preview.confirmationId });
    expect(done.structuredContent, JSON.stringify(done.structuredContent)).toMatchObject({ confirmed: true });
    expect(await order(alId)).toMatchObject({ d: '1480', qty: 5 });

    // Previewed at qty 5; the trader then raises the order to 50 itself: the assistant's change is not sent.
    const stale = (await callTool(capped, 'change_gtt', { alId, prc: '1900' })).structuredContent!;
    expect(stale.refused).toBeUndefined();
    expect((await api('PATCH', `/gtt-orders/${alId}`, { qty: 50 })).status).toBe(200);
    const refused = await callTool(capped, 'confirm', { confirmationId: stale.confirmationId });
    expect(refused.structuredContent?.error).toMatchObject({ code: 'ORDER_CHANGED', outcome: 'not_executed' });
    expect(await order(alId)).toMatchObject({ qty: 50, prc: '1490' });
  });
});

describe('defect 6: the orders per day cannot be passed', () => {
  const registry = () => createAssistantRegistry({ tableName: LOCAL_EVENTS_TABLE, endpoint: stack.dynamo.url });

  it('limit 1: four previews each confirmed with a wrong hash, then plainly: one order, the day counted 1', async () => {
    const { client, assistantId } = await assistant('one-a-day', { maxOrdersPerDay: 1 });
    const before = (await pending()).length;
    const previews = [];
    for (let n = 1; n <= 4; n++)
      previews.push((await callTool(client, 'place_gtt', { ...GTT, qty: n })).structuredContent!);
    for (const preview of previews) {
      const wrong = await callTool(client, 'confirm', {
        confirmationId: preview.confirmationId,
        requestHash: 'f'.repeat(64),
      });
      expect(wrong.structuredContent).toMatchObject({ refused: true, reason: expect.stringContaining('changed') });
    }
    const plain = [];
    for (const preview of previews)
      plain.push((await callTool(client, 'confirm', { confirmationId: preview.confirmationId })).structuredContent!);
    // The first is placed (the wrong-hash confirm before it spent nothing); the others meet the day's limit.
    expect(plain[0]).toMatchObject({ confirmed: true, replayed: false });
    for (const answer of plain.slice(1))
      expect(answer).toMatchObject({ refused: true, reason: expect.stringContaining('most orders for today (1)') });
    // Confirmed again, each replays its first answer and sends nothing.
    const places = await placesAtBroker();
    expect(places).toBe(1);
    const again = await callTool(client, 'confirm', { confirmationId: previews[0]!.confirmationId });
    expect(again.structuredContent).toMatchObject({ confirmed: true, replayed: true, result: plain[0]!.result });
    const spent = await callTool(client, 'confirm', { confirmationId: previews[1]!.confirmationId });
    expect(spent.structuredContent).toMatchObject({ refused: true, reason: expect.stringContaining('most orders') });
    expect(await placesAtBroker()).toBe(places);
    expect((await pending()).length).toBe(before + 1);
    expect(await registry().ordersToday(assistantId)).toBe(1);
  });

  it('limit 2: six previews each confirmed twice, all at once: two orders, never more, the day counted 2', async () => {
    const { client, assistantId, token } = await assistant('two-a-day', { maxOrdersPerDay: 2 });
    const other = await remoteMcpClient(stack.api.url, token);
    clients.push(other);
    const before = (await pending()).length;
    const previews = [];
    for (let n = 1; n <= 6; n++)
      previews.push((await callTool(client, 'place_gtt', { ...GTT, qty: n })).structuredContent!);
    const answers = await Promise.all(
      previews.flatMap((p) => [client, other].map((c) => callTool(c, 'confirm', { confirmationId: p.confirmationId }))),
    );
    const placed = answers.filter(
      (a) => a.structuredContent?.confirmed === true && a.structuredContent.replayed === false,
    );
    expect(placed).toHaveLength(2);
    expect((await pending()).length).toBe(before + 2);
    expect(await registry().ordersToday(assistantId)).toBe(2);
    // Every answer is a place, its replay, the day's limit, or "the first confirm has not answered yet".
    for (const a of answers)
      expect(JSON.stringify(a.structuredContent)).toMatch(
        /"confirmed":true|most orders for today|has not answered yet/,
      );
    // Later confirms of all six send nothing.
    const places = await placesAtBroker();
    expect(places).toBe(2);
    await Promise.all(previews.map((p) => callTool(client, 'confirm', { confirmationId: p.confirmationId })));
    expect(await placesAtBroker()).toBe(places);
    expect((await pending()).length).toBe(before + 2);
  });
});
