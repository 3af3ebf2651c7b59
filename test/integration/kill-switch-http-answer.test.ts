/**
 * The kill switch asked over HTTP answers within KILL_SWITCH_HTTP_ANSWER_MS (15 s), below API Gateway's 30 s and the
 * MCP server's client's 20 s, though the function itself has 90 s: a write in flight whose permit runs longer is
 * said (`complete: false`, `inFlightUntil`), not waited for, and the order core still cancels it when it lands. (With
 * the function's 90 s, the sweep slept until the permit ran out and the MCP's kill_switch_on timed out.) Real
 * handlers over the local API, the emulator's delay fault, dynalite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions on arbitrary JSON
const http = localApi<Record<string, any>>(() => stack.api.url);

beforeAll(async () => {
  // A place's permit runs to its broker deadline (2 s) plus the late window (12 s): 14 s, more than the 10 s an HTTP
  // sweep can wait (its 15 s less 5 s for the last pass).
  stack = await startLocalStack({ brokerTimeoutMs: 2_000, settings: { ORDER_LATE_WINDOW_MS: 12_000 } });
  control = emulatorControl(stack.emulator.url);
});
afterAll(async () => {
  await http('DELETE', '/kill-switch').catch(() => undefined);
  await stack?.close();
});

describe('the kill switch over HTTP', () => {
  it('answers within its 15 s: a write in flight for longer is said (inFlightUntil), not waited for', async () => {
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 1_500 });
    const place = http('POST', '/gtt-orders', { ...SAMPLE_ORDER, qty: 7 }, { 'Idempotency-Key': 'http-answer-1' });
    const end = Date.now() + 60_000;
    while (!(await control.requests()).some((r) => r.operation === 'PlaceGTTOrder')) {
      if (Date.now() > end) throw new Error('PlaceGTTOrder never reached the emulator');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const on = await http('POST', '/kill-switch', {});
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body.sweep.complete).toBe(false);
    expect(Date.parse(on.body.sweep.inFlightUntil)).toBeGreaterThan(Date.now());
    // The place landed with the switch on: the order core cancelled it and said so.
    expect((await place).status).toBe(423);
    const pending = (await control.orders(stack.emulator.uid)).filter((o) => o.state === 'pending');
    expect(pending).toEqual([]);
  });
});
