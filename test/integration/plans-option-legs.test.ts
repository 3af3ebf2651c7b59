/**
 * Legs as one end to end on loopback (functions/plans/legs*.ts, docs/how-to/option-legs.md): the real Plans function
 * and watcher against the emulator (NIFTY's options priced from the index, moved with /_emulator/ltp). The emulator's
 * request log is the proof of what was sent: each leg's entry once, even after a lost reply, and a leg rejected by
 * the exchange leaves no other leg open.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { loadChains, moveNifty } from '../support/option-market.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';

let stack: LocalStack;
let keys = 0;
let CE = '';
let PE = '';
type Body = Record<string, unknown> & { error?: { code: string; message: string } };
const api = localApi<Body>(() => stack.api.url);
const control = () => emulatorControl(stack.emulator.url);
const index = (ltp: number) => moveNifty(stack, ltp);
const nextOrder = (outcome: Record<string, unknown>) =>
  fetch(`${stack.emulator.url}/_emulator/next-order`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(outcome),
  });
const STRADDLE = (over: Record<string, unknown> = {}) => ({
  kind: 'option-legs',
  legs: [
    { exch: 'NFO', tsym: CE, trantype: 'S', lots: 1 },
    { exch: 'NFO', tsym: PE, trantype: 'S', lots: 1 },
  ],
  exit: { stop: '5', target: '60' },
  tag: 'short-straddle',
  ...over,
});
interface LegsRecord {
  planId: string;
  state: string;
  reason?: string;
  history: { action: string }[];
  legs: { entryNet?: number; legs: { tsym: string; entryOrder?: string; open?: number; filledQty?: number }[] };
}
const plan = async (planId: string) => (await api('GET', `/plans/${planId}`)).body as unknown as LegsRecord;
/** The PlaceOrder requests the emulator received for a contract, as [trantype, qty] pairs. */
const placed = async (tsym: string) =>
  (await control().requests())
    .filter((r) => r.operation === 'PlaceOrder' && r.jData?.tsym === tsym)
    .map((r) => [r.jData?.trantype, Number(r.jData?.qty)]);

beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE, market: { prices: 'start', market: 'still' } });
  await loadChains(stack);
  await index(25_000);
  // The at-the-money call of the nearest expiry, as an option-entry plan's dry run names it; its put beside it.
  const dry = await api('POST', '/plans?dryRun=true', {
    kind: 'option-entry',
    underlying: 'NIFTY',
    when: { above: '26000' },
    pick: { expiry: 'nearest', strike: 'ATM', type: 'CE' },
    lots: 1,
    exit: { stop: '20', target: '40' },
  });
  expect(dry.body, JSON.stringify(dry.body)).toMatchObject({ dryRun: true });
  CE = (dry.body.contract as { tsym: string }).tsym;
  PE = CE.replace(/C25000$/, 'P25000');
  expect(PE).not.toBe(CE);
});
afterAll(() => stack.close());
beforeEach(async () => {
  await control().clearFaults();
  await control().clearRequests();
  await index(25_000);
});

describe('a legs-as-one plan through the API', () => {
  it('dry run, entered together, watched; the net moves past the stop: both legs bought back, done', async () => {
    const dry = await api('POST', '/plans?dryRun=true', STRADDLE());
    expect(dry.body, JSON.stringify(dry.body)).toMatchObject({
      dryRun: true,
      kind: 'option-legs',
      legs: [{ tsym: CE, ret: 'IOC' }, { tsym: PE }],
    });
    expect(dry.body.net as number).toBeLessThan(0);
    expect(await placed(CE)).toEqual([]);

    const res = await api('POST', '/plans', STRADDLE(), { 'Idempotency-Key': `legs-${++keys}` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const created = res.body as unknown as LegsRecord;
    expect(created.state, created.reason).toBe('entry-filled');
    await stack.watch();
    expect((await plan(created.planId)).state).toBe('entry-filled');

    // The call gains more than the put loses (the model's gamma): the short straddle's net moves about -7, past -5.
    await index(25_050);
    const run = await stack.watch();
    expect(run).toMatchObject({ plans: { acted: [`${created.planId}:done`] } });
    expect(await placed(CE)).toEqual([
      ['S', 65],
      ['B', 65],
    ]);
    expect(await placed(PE)).toEqual([
      ['S', 65],
      ['B', 65],
    ]);
  });

  it('a lost reply on one leg and the other rejected: nothing sent twice, no leg left open alone', async () => {
    // The call's entry is carried out but its reply dropped; the put's is rejected by the exchange.
    await control().fault({ operation: 'PlaceOrder', kind: 'drop', executed: true, times: 1 });
    await nextOrder({ status: 'filled' });
    await nextOrder({ status: 'rejected', reason: 'RED:Margin Shortfall:INR 1,000.00 Available:INR 0.00' });
    const res = await api('POST', '/plans', STRADDLE(), { 'Idempotency-Key': `legs-${++keys}` });
    expect([201, 200]).toContain(res.status);
    const planId = (res.body as unknown as LegsRecord).planId;
    for (let run = 0; run < 4 && !['failed', 'done'].includes((await plan(planId)).state); run += 1)
      await stack.watch();
    const ended = await plan(planId);
    expect(ended.state, JSON.stringify(ended.history)).toBe('failed');
    expect(ended.reason).toMatch(/P25000's entry \d+ \(IOC\) filled 0 of 65 \(rejected.*Margin Shortfall/);
    // The dropped reply was settled by the order core from the OrderBook (its stamp): the order adopted.
    expect(ended.history.map((h) => h.action)).toEqual(expect.arrayContaining(['leg-adopted', 'closes-settled']));
    expect(ended.legs.legs.every((l) => (l.open ?? 0) === 0)).toBe(true);
    // The call sold once (its lost reply settled, never sent again) and bought back once; the put tried once.
    expect(await placed(CE)).toEqual([
      ['S', 65],
      ['B', 65],
    ]);
    expect(await placed(PE)).toEqual([['S', 65]]);
  });

  it('DELETE closes every leg and ends the plan cancelled', async () => {
    const res = await api('POST', '/plans', STRADDLE(), { 'Idempotency-Key': `legs-${++keys}` });
    const created = res.body as unknown as LegsRecord;
    expect(created.state).toBe('entry-filled');
    const ended = await api('DELETE', `/plans/${created.planId}`);
    expect(ended.body).toMatchObject({ state: 'cancelled' });
    expect(await placed(PE)).toEqual([
      ['S', 65],
      ['B', 65],
    ]);
  });
});
