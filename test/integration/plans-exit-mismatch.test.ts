/**
 * A bracket's exit OCO that the broker holds otherwise than asked (its legs swapped: the family's x/y trap) and whose
 * cancel fails is refused yet live at the broker (OCO_LEGS_MISMATCH, outcome `executed`). The plan must not place
 * another exit: two OCOs would be live, one of them wrong. End to end on the local stack against the emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

interface PlanView {
  planId: string;
  state: string;
  reason?: string;
  retrying?: boolean;
  alIds: { entry?: string; exit?: string };
}

let stack: LocalStack;
let control: EmulatorControl;
const api = localApi<PlanView>(() => stack.api.url);

beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE });
  control = emulatorControl(stack.emulator.url);
});
afterAll(() => stack.close());

describe("a plan's exit OCO held otherwise and still live", () => {
  it('is not placed again: one OCO reached the broker, and the plan says to cancel it by hand', async () => {
    await stack.watch();
    const created = await api(
      'POST',
      '/plans',
      {
        kind: 'bracket',
        entry: { ...SAMPLE_ORDER, tsym: 'SBIN-EQ', qty: 2 },
        target: { trigger: '1600', price: '1600' },
        stopLoss: { trigger: '1400', price: '1400' },
      },
      { 'Idempotency-Key': `exit-mismatch-${Date.now()}` },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await control.ltp('NSE', 'SBIN-EQ', 1480);
    await control.fault({ operation: 'PlaceOCOOrder', kind: 'swappedLegs', times: 1 });
    await control.fault({ operation: 'CancelGTTOrder', kind: 'notOk', message: 'Server busy', times: 1 });
    await stack.watch();
    await stack.watch();
    await stack.watch();
    const view = (await api('GET', `/plans/${created.body.planId}`)).body;
    expect(view.reason).toMatch(/STILL LIVE/);
    expect(view.retrying).not.toBe(true);
    const places = (await control.requests()).filter(
      (r) => r.operation === 'PlaceOCOOrder' && (r.jData?.tsym === 'SBIN-EQ' || r.body.includes('SBIN-EQ')),
    );
    expect(places).toHaveLength(1);
  });
});
