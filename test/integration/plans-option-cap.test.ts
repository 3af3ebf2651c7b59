/**
 * An option plan's `maxValue` end to end on loopback (functions/plans/option-entry.ts, docs/reference/plans.md,
 * "Option entry"): the real Plans function and watcher against the emulator and dynalite, as
 * plans-option-entry.test.ts runs them. A plan whose entry is worth more than its cap when the index crosses fails
 * naming both numbers and sends nothing (the emulator's request log is the proof); one with a cap above it enters.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { loadChains, moveNifty } from '../support/option-market.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';

let stack: LocalStack;
let keys = 0;
type Body = Record<string, unknown> & { error?: { code: string; message: string } };
const api = localApi<Body>(() => stack.api.url);
const index = (ltp: number) => moveNifty(stack, ltp);
const OPTION = (above: number, maxValue: number) => ({
  kind: 'option-entry',
  underlying: 'NIFTY',
  when: { above: String(above) },
  pick: { expiry: 'nearest', strike: 'ATM', type: 'CE' },
  lots: 1,
  exit: { stop: '30%', target: '40' },
  maxValue,
});
interface OptionRecord {
  planId: string;
  state: string;
  tsym: string;
  reason?: string;
  option: { maxValue?: number; resolved?: { qty: number } };
}
const plan = async (planId: string) => (await api('GET', `/plans/${planId}`)).body as unknown as OptionRecord;
const create = async (above: number, maxValue: number) => {
  const res = await api('POST', '/plans', OPTION(above, maxValue), { 'Idempotency-Key': `cap-${++keys}` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as unknown as OptionRecord;
};
const placeOrders = async () =>
  (await emulatorControl(stack.emulator.url).requests()).filter((r) => r.operation === 'PlaceOrder');

beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE, market: { prices: 'start', market: 'still' } });
  await loadChains(stack);
});
afterAll(() => stack.close());
beforeEach(async () => {
  await index(25_000);
  expect(await stack.watch()).toMatchObject({ status: expect.stringMatching(/ok|baseline/) });
});

describe("an option plan's maxValue through the API", () => {
  it('the dry run shows the value now beside the cap; creation keeps the cap in the record', async () => {
    const dry = await api('POST', '/plans?dryRun=true', OPTION(25_100, 1000));
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    const { entry, value } = dry.body as { entry: { qty: number; prc: string }; value: number };
    expect(value).toBeCloseTo(entry.qty * Number(entry.prc), 2);
    expect(dry.body).toMatchObject({ maxValue: 1000 });
    expect(dry.body.note).toMatch(/is above the plan's maxValue ₹1,000: at this price the plan would send nothing/);
    const bad = await api('POST', '/plans', OPTION(25_100, -1), { 'Idempotency-Key': `cap-${++keys}` });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toMatch(/maxValue must be a number of rupees greater than 0/);
  });

  it('a low cap: the plan fails at the crossing naming both numbers, and NO order is sent; a high cap enters', async () => {
    const low = await create(25_100, 1000);
    const high = await create(25_200, 10_000_000);
    expect(low.option.maxValue).toBe(1000);
    const before = (await placeOrders()).length;

    await index(25_130);
    await stack.watch();
    const failed = await plan(low.planId);
    expect(failed.state).toBe('failed');
    expect(failed.reason).toMatch(
      /^NIFTY was at 25130, at or above 25100, but the entry's value ₹[\d,.]+ \(\d+ × [\d.]+\) is above the plan's maxValue ₹1,000 \(NIFTY\w+C25150\): nothing was sent$/,
    );
    expect(await placeOrders()).toHaveLength(before);
    await stack.watch();
    expect(await placeOrders()).toHaveLength(before);
    await stack.eventsForwarded();
    expect(
      stack.eventBridge.events.filter((e) => e.detail.planId === low.planId && e['detail-type'] === 'Plan Failed'),
    ).toEqual([expect.objectContaining({ detail: expect.objectContaining({ reason: failed.reason }) })]);

    await index(25_230);
    await stack.watch();
    const entered = await plan(high.planId);
    expect(entered.state, entered.reason).toBe('exit-armed');
    const sent = (await placeOrders()).slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.jData).toMatchObject({ tsym: entered.tsym, prctyp: 'LMT', ret: 'IOC' });
  });
});
