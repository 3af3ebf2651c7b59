/**
 * An option plan end to end on loopback (functions/plans/option-*.ts, docs/how-to/option-entry.md): the real Plans
 * function and watcher against the emulator (NIFTY's index quoted, its options priced from it, listed in its NFO
 * master; SENSEX's on BFO) and dynalite (the day's chain loaded by the InstrumentRefresh). The index is moved with /_emulator/ltp;
 * the emulator's request log and order book are the proof of what was sent.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { loadChains, moveNifty } from '../support/option-market.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let keys = 0;
type Body = Record<string, unknown> & { error?: { code: string; message: string } };
const api = localApi<Body>(() => stack.api.url);
const index = (ltp: number) => moveNifty(stack, ltp);
const OPTION = (above: number, over: Record<string, unknown> = {}) => ({
  kind: 'option-entry',
  underlying: 'NIFTY',
  when: { above: String(above) },
  pick: { expiry: 'nearest', strike: 'ATM', type: 'CE' },
  lots: 1,
  exit: { stop: '30%', target: '40' },
  tag: 'nifty-breakout',
  ...over,
});
interface OptionRecord {
  planId: string;
  state: string;
  exch: string;
  tsym: string;
  reason?: string;
  alIds: Record<string, string>;
  position?: { side: string; qty: number };
  option: {
    entryOrder?: string;
    resolved?: { price: number; strike: number; atm: number; tsym: string; qty: number; lot: number };
  };
}
const plan = async (planId: string) => (await api('GET', `/plans/${planId}`)).body as unknown as OptionRecord;
const placeOrders = async (tsym: string) =>
  (await emulatorControl(stack.emulator.url).requests()).filter(
    (r) => r.operation === 'PlaceOrder' && (r.jData?.tsym === tsym || r.body.includes(encodeURIComponent(tsym))),
  );

beforeAll(async () => {
  // Prices from the start, still: the options are priced from the index's level when first named.
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE, market: { prices: 'start', market: 'still' } });
  await loadChains(stack);
});
afterAll(() => stack.close());
beforeEach(async () => {
  await emulatorControl(stack.emulator.url).clearFaults();
  await index(25_000);
  expect(await stack.watch()).toMatchObject({ status: expect.stringMatching(/ok|baseline/) });
});

describe('an option-entry plan through the API', () => {
  it('dry run, watching, the index crosses: the contract picked at that price, entered IOC, OCO exit armed', async () => {
    const dry = await api('POST', '/plans?dryRun=true', OPTION(25_100));
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      underlying: { name: 'NIFTY', price: 25_000 },
      contract: { strike: 25_000, atm: 25_000, strikeStep: 50, type: 'CE' },
      entry: { prctyp: 'LMT', ret: 'IOC', trantype: 'B' },
    });

    const res = await api('POST', '/plans', OPTION(25_100), { 'Idempotency-Key': `option-${++keys}` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const created = res.body as unknown as OptionRecord;
    expect(created).toMatchObject({ state: 'watching', exch: 'NSE', tsym: 'Nifty 50' });

    await index(25_080);
    await stack.watch();
    expect((await plan(created.planId)).state).toBe('watching');

    await index(25_130);
    const run = await stack.watch();
    expect(run).toMatchObject({ plans: { acted: [`${created.planId}:exit-armed`] } });
    const armed = await plan(created.planId);
    // 25130 is nearest the 25150 strike: the pick is made at the price seen when it crossed, not at creation.
    expect(armed).toMatchObject({
      state: 'exit-armed',
      exch: 'NFO',
      option: { resolved: { price: 25_130, strike: 25_150, atm: 25_150 } },
    });
    const { resolved } = armed.option;
    expect(armed.tsym).toBe(resolved!.tsym);
    expect(armed.tsym).toMatch(/^NIFTY\d{2}[A-Z]{3}\d{2}C25150$/);
    expect(armed.position).toEqual({ side: 'B', qty: resolved!.lot });
    const orders = await placeOrders(armed.tsym);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.jData).toMatchObject({ trantype: 'B', prctyp: 'LMT', ret: 'IOC', qty: String(resolved!.lot) });
    const pending = (await api('GET', '/gtt-orders?limit=1000')).body.orders as {
      al_id: string;
      tsym: string;
      type: string;
    }[];
    expect(pending.find((o) => o.al_id === armed.alIds.exit)).toMatchObject({ type: 'oco', tsym: armed.tsym });

    await stack.eventsForwarded();
    const steps = stack.eventBridge.events
      .filter((e) => e.detail.planId === created.planId && e['detail-type'] === 'Plan Step')
      .map((e) => e.detail);
    expect(steps[0]).toMatchObject({ step: 'crossed', underlyingPrice: 25_130, strike: 25_150, contract: armed.tsym });
  });

  it('refused before anything is stored: a level already crossed, a strike not listed', async () => {
    const crossed = await api('POST', '/plans', OPTION(24_900), { 'Idempotency-Key': `option-${++keys}` });
    expect(crossed.status).toBe(400);
    expect(crossed.body.error?.message).toMatch(/is at 25000, already at or above 24900.*plain order/);
    const strike = await api(
      'POST',
      '/plans',
      OPTION(25_100, { pick: { expiry: 'nearest', strike: 25_010, type: 'CE' } }),
      {
        'Idempotency-Key': `option-${++keys}`,
      },
    );
    expect(strike.status).toBe(400);
    expect(strike.body.error?.message).toMatch(/no CE at strike 25010 .*nearest listed are 25000 and 25050/);
    const listed = (await api('GET', '/plans?limit=100')).body.plans as { option?: { when: { above?: string } } }[];
    expect(listed.filter((p) => p.option?.when.above === '24900')).toEqual([]);
  });

  it("SENSEX: BFO's option picked from the BFO master's chain, at SENSEX's level, entered and protected on BFO", async () => {
    await emulatorControl(stack.emulator.url).ltp('BSE', 'SENSEX', 82_140);
    const body = OPTION(82_300, { underlying: 'SENSEX', tag: 'sensex-breakout' });
    const dry = await api('POST', '/plans?dryRun=true', body);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      underlying: { name: 'SENSEX', exch: 'BSE', tsym: 'SENSEX', price: 82_140 },
      contract: { exch: 'BFO', strike: 82_100, atm: 82_100, strikeStep: 100, lot: 20, type: 'CE' },
      entry: { exch: 'BFO', prctyp: 'LMT', ret: 'IOC', trantype: 'B' },
    });
    const contract = dry.body.contract as { tsym: string };
    expect(contract.tsym).toMatch(/^SENSEX\d{2}[A-Z]{3}82100CE$/);
    expect(dry.body.entry).toMatchObject({ tsym: contract.tsym });

    // Created, then SENSEX crosses: BFO's contract at the level seen, entered IOC on BFO, its OCO exit armed there.
    const res = await api('POST', '/plans', body, { 'Idempotency-Key': `option-${++keys}` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const created = res.body as unknown as OptionRecord;
    await emulatorControl(stack.emulator.url).ltp('BSE', 'SENSEX', 82_420);
    const run = await stack.watch();
    expect(run).toMatchObject({ plans: { acted: expect.arrayContaining([`${created.planId}:exit-armed`]) } });
    const armed = await plan(created.planId);
    expect(armed).toMatchObject({
      state: 'exit-armed',
      exch: 'BFO',
      position: { side: 'B', qty: 20 },
      option: { resolved: { price: 82_420, strike: 82_400, atm: 82_400, lot: 20, qty: 20 } },
    });
    expect(armed.tsym).toMatch(/^SENSEX\d{2}[A-Z]{3}82400CE$/);
    const orders = await placeOrders(armed.tsym);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.jData).toMatchObject({ exch: 'BFO', trantype: 'B', prctyp: 'LMT', ret: 'IOC', qty: '20' });
    const pending = (await api('GET', '/gtt-orders?limit=1000')).body.orders as { al_id: string; exch: string }[];
    expect(pending.find((o) => o.al_id === armed.alIds.exit)).toMatchObject({ exch: 'BFO' });
  });

  it('a lost reply of the entry is settled from the order book: one order, never a second', async () => {
    const res = await api('POST', '/plans', OPTION(25_200), { 'Idempotency-Key': `option-${++keys}` });
    const created = res.body as unknown as OptionRecord;
    await emulatorControl(stack.emulator.url).fault({
      operation: 'PlaceOrder',
      kind: 'drop',
      executed: true,
      times: 1,
    });
    await index(25_210);
    await stack.watch();
    for (let run = 0; run < 3 && (await plan(created.planId)).state !== 'exit-armed'; run += 1) await stack.watch();
    const armed = await plan(created.planId);
    expect(armed.state, armed.reason).toBe('exit-armed');
    expect(await placeOrders(armed.tsym)).toHaveLength(1);
    // The order the dropped reply named was found by its stamp (the journal's adoption), not sent again.
    expect(
      ((await plan(created.planId)) as unknown as { history: { action: string }[] }).history.map((h) => h.action),
    ).toContain('entry-adopted');
  });

  it("a bracket's dry run is its entry GTT's, nothing stored or sent", async () => {
    const bracket = {
      kind: 'bracket',
      entry: { ...SAMPLE_ORDER, tsym: 'M&M-EQ', qty: 2 },
      target: { trigger: '1600', price: '1600' },
      stopLoss: { trigger: '1400', price: '1400' },
    };
    const before = (await api('GET', '/gtt-orders?limit=1000')).body.orders as unknown[];
    const dry = await api('POST', '/plans?dryRun=true', bracket);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, kind: 'bracket' });
    expect((await api('GET', '/gtt-orders?limit=1000')).body.orders).toHaveLength(before.length);
  });

  it('DELETE of a watching plan ends it with nothing at the broker', async () => {
    const res = await api('POST', '/plans', OPTION(25_300), { 'Idempotency-Key': `option-${++keys}` });
    const created = res.body as unknown as OptionRecord;
    const ended = await api('DELETE', `/plans/${created.planId}`);
    expect(ended.body).toMatchObject({ state: 'cancelled', left: { cancelled: [] } });
    await index(25_310);
    await stack.watch();
    expect((await plan(created.planId)).state).toBe('cancelled');
  });
});
