/**
 * The part that acts on a signal (functions/signals/actor-wiring.ts, docs/reference/signals.md) against the emulator over loopback HTTP
 * and dynalite: every order through the operation table's entries in-process, so the emulator's request log and
 * pending list are the proof. The alerts are as the webhook reads them from the documented bodies (example A: a
 * TradingView alert; example B: a ChartInk scan of two stocks).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { clearInstrumentCache } from '../../functions/base/broker/instruments.js';
import type { Alert } from '../../functions/base/schemas/signals.js';
import { createSignalActor } from '../../functions/signals/actor-wiring.js';
import type { SignalActor } from '../../functions/signals/signal-actor.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';
import { captureLogger } from '../support/logs.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { testSignal as signal, testStrategy } from '../support/signals.js';

let stack: LocalStack;
let act: SignalActor;

const strategy = testStrategy;
const deadline = () => Date.now() + 20_000;

const api = async (method: string, path: string) => {
  const res = await fetch(`${stack.api.url}${path}`, { method });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
type Pending = {
  al_id: string;
  tsym: string;
  exch: string;
  trantype: string;
  qty: number | string;
  ai_t: string;
  trigger: string;
  price: string;
};
const pending = async (tsym?: string) =>
  (await api('GET', `/gtt-orders?limit=1000${tsym ? `&tsym=${encodeURIComponent(tsym)}` : ''}`)).body
    .orders as Pending[];
const control = () => emulatorControl(stack.emulator.url);
const placesAtBroker = async () =>
  (await control().requests()).filter((r) => r.operation === 'PlaceGTTOrder' || r.operation === 'PlaceOCOOrder');

const EXAMPLE_A = {
  kind: 'gtt',
  order: { exch: 'NSE', prd: 'C', prctyp: 'LMT', ret: 'DAY', qty: 1 },
  trigger: { offset: '-0.5%' },
  price: { offset: '-0.5%' },
};
// {"action":"buy","ticker":"INFY","exchange":"NSE","price":1500}, as the webhook reads it.
const ALERT_A: Alert = { side: 'B', ticker: 'INFY', exchange: 'NSE', price: '1500' };
const EXAMPLE_B = {
  kind: 'gtt',
  order: { exch: 'NSE', prd: 'C', prctyp: 'LMT', ret: 'DAY', qty: 1, trantype: 'B' },
  trigger: { offset: '0' },
  price: { offset: '0.2%' },
};

beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE });
  act = createSignalActor(stack.config, captureLogger().logger);
});
afterAll(() => stack.close());
beforeEach(async () => {
  await control().reset();
  clearInstrumentCache();
});

describe('placing', () => {
  it('example A: a TradingView buy of INFY at 1500 is a BUY GTT of 1 NSE INFY-EQ, trigger and limit 1492.50', async () => {
    const s = strategy({ action: EXAMPLE_A });
    const outcome = await act(signal(s, [ALERT_A]), s, deadline());
    expect(outcome).toMatchObject({
      state: 'acted',
      results: [{ ticker: 'INFY', tsym: 'INFY-EQ', alId: expect.any(String) }],
    });
    const [place] = await placesAtBroker();
    expect(place!.jData).toMatchObject({
      exch: 'NSE',
      tsym: 'INFY-EQ',
      trantype: 'B',
      qty: '1',
      prctyp: 'LMT',
      prd: 'C',
      ret: 'DAY',
      ai_t: 'LTP_B_O',
      d: '1492.50',
      prc: '1492.50',
    });
    expect(await pending('INFY-EQ')).toMatchObject([{ tsym: 'INFY-EQ', trantype: 'B' }]);
  });

  it('example B: a ChartInk scan of SBIN and ITC is one GTT per stock, on the tick', async () => {
    const s = strategy({ source: 'chartink', action: EXAMPLE_B });
    const outcome = await act(
      signal(s, [
        { ticker: 'SBIN', price: '800.5' },
        { ticker: 'ITC', price: '410' },
      ]),
      s,
      deadline(),
    );
    expect(outcome).toMatchObject({ state: 'acted', results: [{ tsym: 'SBIN-EQ' }, { tsym: 'ITC-EQ' }] });
    const sent = (await placesAtBroker()).map((r) => r.jData);
    expect(sent).toMatchObject([
      { tsym: 'SBIN-EQ', trantype: 'B', qty: '1', d: '800.50', prc: '802.10', ai_t: 'LTP_A_O' },
      { tsym: 'ITC-EQ', trantype: 'B', qty: '1', d: '410.00', prc: '410.80', ai_t: 'LTP_A_O' },
    ]);
    expect((await pending()).map((o) => o.tsym).sort()).toEqual(['ITC-EQ', 'SBIN-EQ']);
  });

  it('acting twice on the same signal places once: the second replays under the same keys', async () => {
    const s = strategy({ action: EXAMPLE_A });
    const sig = signal(s, [ALERT_A]);
    const first = await act(sig, s, deadline());
    const second = await act(sig, s, deadline());
    expect(second).toMatchObject({
      state: 'acted',
      results: [{ alId: (first as { results: { alId: string }[] }).results[0]!.alId }],
    });
    expect(second.results![0]!.detail).toMatch(/\(replayed\)$/);
    expect(await placesAtBroker()).toHaveLength(1);
    expect(await pending('INFY-EQ')).toHaveLength(1);
  });

  it("NIFTY1! is the front month's future on NFO, in lots of 65", async () => {
    // The front month: the first last-Tuesday-of-a-month from today (India), computed here on its own.
    const india = new Date(Date.now() + 5.5 * 3_600_000);
    let day = Date.UTC(india.getUTCFullYear(), india.getUTCMonth(), india.getUTCDate());
    const isLastTuesday = (t: number) =>
      new Date(t).getUTCDay() === 2 && new Date(t + 7 * 86_400_000).getUTCMonth() !== new Date(t).getUTCMonth();
    while (!isLastTuesday(day)) day += 86_400_000;
    const d = new Date(day);
    const months = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
    const expected = `NIFTY${String(d.getUTCDate()).padStart(2, '0')}${months[d.getUTCMonth()]}${String(d.getUTCFullYear() % 100)}F`;

    const s = strategy({ action: { ...EXAMPLE_A, order: { ...EXAMPLE_A.order, qty: 65 } } });
    const outcome = await act(
      signal(s, [{ side: 'S', ticker: 'NIFTY1!', exchange: 'NSE', price: '24000' }]),
      s,
      deadline(),
    );
    expect(outcome).toMatchObject({ state: 'acted', results: [{ ticker: 'NIFTY1!', tsym: expected }] });
    // A sell rounds up: 24000 at -0.5% is exactly 23880.
    expect((await placesAtBroker())[0]!.jData).toMatchObject({
      exch: 'NFO',
      tsym: expected,
      trantype: 'S',
      qty: '65',
      d: '23880.00',
    });
    // 50 is not a lot of NIFTY: refused before anything is sent.
    const odd = await act(
      signal(s, [{ side: 'S', ticker: 'NIFTY1!', exchange: 'NSE', price: '24000', qty: 50 }]),
      s,
      deadline(),
    );
    expect(odd).toMatchObject({
      state: 'refused',
      code: 'VALIDATION_FAILED',
      reason: expect.stringMatching(/lots of 65: 50 is not a multiple; 65/),
    });
    expect(await placesAtBroker()).toHaveLength(1);
  });

  it('BSE:INFY (TradingView prefix) and NSE:M_M (its & written _) map to the listed symbols', async () => {
    const s = strategy({ action: EXAMPLE_A });
    const outcome = await act(
      signal(s, [
        { side: 'B', ticker: 'BSE:INFY', price: '1500' },
        { side: 'B', ticker: 'NSE:M_M', price: '3000' },
      ]),
      s,
      deadline(),
    );
    expect(outcome).toMatchObject({ state: 'acted', results: [{ tsym: 'INFY' }, { tsym: 'M&M-EQ' }] });
    expect((await placesAtBroker()).map((r) => [r.jData!.exch, r.jData!.tsym])).toEqual([
      ['BSE', 'INFY'],
      ['NSE', 'M%26M-EQ'], // the wire's encoding of & in a symbol
    ]);
  });
});

describe('refusals', () => {
  it('an unknown ticker is refused with the closest listed symbols, and nothing is placed', async () => {
    const s = strategy({ action: EXAMPLE_A });
    const outcome = await act(signal(s, [{ ...ALERT_A, ticker: 'INFYY' }]), s, deadline());
    expect(outcome).toMatchObject({ state: 'refused', code: 'VALIDATION_FAILED' });
    expect((outcome as { reason: string }).reason).toMatch(
      /NSE:INFYY-EQ is not a symbol the broker lists.*Did you mean INFY-EQ/,
    );
    expect(await placesAtBroker()).toEqual([]);
  });

  it('over maxQty is refused, never cut down; of two alerts, the one within it is placed and the other reported', async () => {
    const s = strategy({ action: EXAMPLE_A, maxQty: 5 });
    const over = await act(signal(s, [{ ...ALERT_A, qty: 6 }]), s, deadline());
    expect(over).toMatchObject({
      state: 'refused',
      code: 'VALIDATION_FAILED',
      reason: expect.stringMatching(/6 is over the strategy's maxQty 5/),
    });
    expect(await placesAtBroker()).toEqual([]);
    const mixed = await act(
      signal(s, [
        { ...ALERT_A, qty: 6 },
        { ...ALERT_A, qty: 5 },
      ]),
      s,
      deadline(),
    );
    expect(mixed).toMatchObject({
      state: 'acted',
      results: [
        { tsym: 'INFY-EQ', detail: expect.stringMatching(/^refused \(VALIDATION_FAILED\)/) },
        { tsym: 'INFY-EQ', alId: expect.any(String) },
      ],
    });
    expect((await placesAtBroker()).map((r) => r.jData!.qty)).toEqual(['5']);
  });

  it('paper mode sends nothing: every order a dry run, marked dryRun', async () => {
    const s = strategy({ source: 'chartink', action: EXAMPLE_B, mode: 'paper' });
    const outcome = await act(
      signal(s, [
        { ticker: 'SBIN', price: '800.5' },
        { ticker: 'ITC', price: '410' },
      ]),
      s,
      deadline(),
    );
    expect(outcome).toMatchObject({
      state: 'acted',
      results: [
        { tsym: 'SBIN-EQ', dryRun: true },
        { tsym: 'ITC-EQ', dryRun: true },
      ],
    });
    expect(await placesAtBroker()).toEqual([]);
    expect(await pending()).toEqual([]);
  });
});

describe('cancel and kill switch', () => {
  it('cancel: the pending GTTs of the alert symbol, and only those', async () => {
    const place = strategy({ source: 'chartink', action: EXAMPLE_B });
    await act(
      signal(place, [
        { ticker: 'SBIN', price: '800.5' },
        { ticker: 'ITC', price: '410' },
      ]),
      place,
      deadline(),
    );
    await act(signal(place, [{ ticker: 'SBIN', price: '790' }]), place, deadline());
    expect(await pending('SBIN-EQ')).toHaveLength(2);
    const s = strategy({ action: { kind: 'cancel' } });
    const outcome = await act(signal(s, [{ ticker: 'NSE:SBIN' }]), s, deadline());
    expect(outcome).toMatchObject({
      state: 'acted',
      results: [{ tsym: 'SBIN-EQ', detail: expect.stringMatching(/^cancelled/) }, { tsym: 'SBIN-EQ' }],
    });
    expect(await pending('SBIN-EQ')).toEqual([]);
    expect((await pending()).map((o) => o.tsym)).toEqual(['ITC-EQ']);
  });

  it('kill-switch: on, changed by signal:<strategyId>, every pending GTT cancelled, places refused', async () => {
    const place = strategy({ action: EXAMPLE_A });
    await act(signal(place, [ALERT_A]), place, deadline());
    const s = strategy({ action: { kind: 'kill-switch' } });
    try {
      const outcome = await act(signal(s, [{ side: 'S', ticker: 'NIFTY1!' }]), s, deadline());
      expect(outcome).toMatchObject({
        state: 'acted',
        results: [{ detail: 'kill switch on: 1 cancelled, 0 not cancelled' }],
      });
      expect((await api('GET', '/kill-switch')).body).toMatchObject({
        halted: true,
        changedBy: `signal:${s.strategyId}`,
      });
      expect(await pending()).toEqual([]);
      const refused = await act(signal(place, [ALERT_A]), place, deadline());
      expect(refused).toMatchObject({ state: 'refused', code: 'TRADING_HALTED' });
    } finally {
      expect((await api('DELETE', '/kill-switch')).status).toBe(200);
    }
  });
});
