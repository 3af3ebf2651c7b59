/**
 * Safe defaults over the local API: a deployment that sets no guardrail still refuses a ₹150 crore order before the
 * broker sees it, and `GET /session` answers the guardrails in force (the defaults, or the deployment's own, `off`
 * included).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let plain: LocalStack;
let own: LocalStack;

beforeAll(async () => {
  [plain, own] = await Promise.all([
    startLocalStack({}),
    startLocalStack({ settings: { GUARDRAIL_MAX_QTY: 'off', GUARDRAIL_MAX_ORDER_VALUE: '500000' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), own?.close()]);
});

const place = (stack: LocalStack, body: unknown, key: string) =>
  fetch(`${stack.api.url}/gtt-orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify(body),
  });
const guardrailsOf = async (stack: LocalStack) =>
  ((await (await fetch(`${stack.api.url}/session`)).json()) as { guardrails?: unknown }).guardrails;

describe('safe defaults', () => {
  it('`--qty 1000000 --price 1500` is refused with no setting at all, and nothing reaches the broker', async () => {
    const control = emulatorControl(plain.emulator.url);
    await control.clearRequests();
    const res = await place(plain, { ...SAMPLE_ORDER, qty: 1_000_000, prc: '1500' }, 'fat-1');
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      error: { code: 'GUARDRAIL_REJECTED', details: { rule: 'maxQty', limit: '10000', actual: '1000000' } },
    });
    const byValue = await place(plain, { ...SAMPLE_ORDER, qty: 2_000, prc: '1500' }, 'fat-2');
    expect(await byValue.json()).toMatchObject({
      error: { code: 'GUARDRAIL_REJECTED', details: { rule: 'maxOrderValue', limit: '2500000', actual: '3000000' } },
    });
    const placed = async () => (await control.requests()).filter((r) => r.operation === 'PlaceGTTOrder').length;
    expect(await placed()).toBe(0);
    // An ordinary order still goes through (and is seen by the same count).
    expect((await place(plain, SAMPLE_ORDER, 'ok-1')).status).toBe(201);
    expect(await placed()).toBe(1);
  });

  it("GET /session answers the defaults in force, and the governor's limits", async () => {
    expect(await guardrailsOf(plain)).toEqual({ readOnly: false, maxQty: '10000', maxOrderValue: '2500000' });
    const session = (await (await fetch(`${plain.api.url}/session`)).json()) as { orderRate?: unknown };
    expect(session.orderRate).toEqual({ perSecond: 8, perMinute: 120 });
  });

  it("a deployment's own limits replace them, off included, and GET /session says so", async () => {
    expect(await guardrailsOf(own)).toEqual({ readOnly: false, maxQty: 'off', maxOrderValue: '500000' });
    const big = await place(own, { ...SAMPLE_ORDER, qty: 20_000, prc: '20' }, 'big-1');
    expect(big.status).toBe(201);
    const dear = await place(own, { ...SAMPLE_ORDER, qty: 400, prc: '1500' }, 'dear-1');
    expect(await dear.json()).toMatchObject({ error: { details: { rule: 'maxOrderValue', limit: '500000' } } });
  });
});
