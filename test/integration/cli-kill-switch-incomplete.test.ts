/**
 * `gtt kill-switch on` when the sweep cannot make sure nothing is left: an order sent before the switch may still land
 * after the sweep's function must answer (a late window longer than its time left). The command line says so, when
 * it may land until and what to do, and exits 4 (issue 58: it exited 4 printing only the cancelled ids). The real
 * KillSwitch function behind the local API, the emulator's delay fault holding a place at the broker.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { EXIT_CODES } from '../../client/exit-codes.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;

beforeAll(async () => {
  // A place may land until its deadline plus this late window: longer than the sweep's 90 s function can wait.
  // The broker's answer (1.5 s late) well within its timeout, even on a loaded machine: the place lands, then is undone.
  stack = await startLocalStack({ brokerTimeoutMs: 10_000, settings: { ORDER_LATE_WINDOW_MS: 200_000 } });
  control = emulatorControl(stack.emulator.url);
});
afterAll(async () => {
  await fetch(`${stack.api.url}/kill-switch`, { method: 'DELETE' }).catch(() => undefined);
  await stack?.close();
});

it('kill-switch on with an order in flight: NOT complete, until when, what to do; exit 4', async () => {
  await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 1_500 });
  const place = fetch(`${stack.api.url}/gtt-orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': `cli-incomplete-${Date.now()}` },
    body: JSON.stringify(SAMPLE_ORDER),
  });
  for (let i = 0; i < 1_000 && !(await control.requests()).some((r) => r.operation === 'PlaceGTTOrder'); i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  expect((await control.requests()).some((r) => r.operation === 'PlaceGTTOrder')).toBe(true);
  const out: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
  const code = await main(['kill-switch', 'on', '--url', stack.api.url], {}, io);
  const text = out.join('\n');
  expect(code).toBe(EXIT_CODES.REJECTED);
  expect(text).toContain('kill switch ON');
  expect(text).toContain('NOT complete');
  expect(text).toMatch(/may still land until [\d-]+ \d{2}:\d{2}:\d{2}/);
  expect(text).toContain('run `kill-switch on` again after then');
  // The order landed while the switch was on: the order core cancelled it at once.
  const placed = await place;
  expect(placed.status).toBe(423);
  expect(await placed.json()).toMatchObject({ error: { code: 'TRADING_HALTED', details: { cancelled: true } } });
});
