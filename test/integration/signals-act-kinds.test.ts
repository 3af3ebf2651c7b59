/**
 * The other kinds of a signal's action (functions/signals/orders.ts) and how a signal ends when the broker does not
 * answer plainly (functions/signals/act-on-signal.ts), against the emulator and dynalite: an OCO, a bracket and a trailing
 * stop made from one alert; an unknown outcome reported and never placed again; "not now" thrown for the queue.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { clearInstrumentCache } from '../../functions/base/broker/instruments.js';
import type { Alert } from '../../functions/base/schemas/signals.js';
import { createSignalActor, SignalRetryError } from '../../functions/signals/actor-wiring.js';
import type { SignalActor } from '../../functions/signals/signal-actor.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';
import { captureLogger } from '../support/logs.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { testSignal as signal, testStrategy } from '../support/signals.js';

let stack: LocalStack;
let act: SignalActor;

const kindsStrategy = (action: Record<string, unknown>) => testStrategy({ name: 'kinds', action });
const deadline = () => Date.now() + 20_000;
const control = () => emulatorControl(stack.emulator.url);
const placesAtBroker = async () =>
  (await control().requests()).filter((r) => r.operation === 'PlaceGTTOrder' || r.operation === 'PlaceOCOOrder');
const get = async (path: string) => (await (await fetch(`${stack.api.url}${path}`)).json()) as Record<string, unknown>;

const ORDER = { exch: 'NSE', prd: 'C', prctyp: 'LMT', ret: 'DAY', qty: 2 };
const off = (offset: string) => ({ offset });
const SELL_INFY: Alert = { side: 'S', ticker: 'INFY', exchange: 'NSE', price: '1500' };
const BUY_INFY: Alert = { side: 'B', ticker: 'INFY', exchange: 'NSE', price: '1500' };

beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE });
  act = createSignalActor(stack.config, captureLogger().logger);
});
afterAll(() => stack.close());
beforeEach(async () => {
  await control().reset();
  clearInstrumentCache();
});

describe('oco, bracket, trailing stop', () => {
  it("oco: a sell alert's two legs sell at the target above and the stop below, rounded up", async () => {
    const s = kindsStrategy({
      kind: 'oco',
      order: ORDER,
      target: { trigger: off('+2%'), price: off('+2%') },
      stopLoss: { trigger: off('-1%'), price: off('-1.01%') },
    });
    const outcome = await act(signal(s, [SELL_INFY]), s, deadline());
    expect(outcome).toMatchObject({ state: 'acted', results: [{ tsym: 'INFY-EQ', alId: expect.any(String) }] });
    const [oco] = await placesAtBroker();
    expect(oco!.operation).toBe('PlaceOCOOrder');
    // 1500 at -1.01% is exactly 1484.85, on the tick; +2% 1530.
    expect(JSON.stringify(oco!.jData)).toMatch(/1530\.00/);
    expect(JSON.stringify(oco!.jData)).toMatch(/1484\.85/);
  });

  it('bracket: a plan under the signal key, its entry GTT placed; acting again answers the same plan', async () => {
    const s = kindsStrategy({
      kind: 'bracket',
      order: ORDER,
      entry: { trigger: off('-1%'), price: off('-1%') },
      target: { trigger: off('+3%'), price: off('+3%') },
      stopLoss: { trigger: off('-3%'), price: off('-3%') },
    });
    const sig = signal(s, [BUY_INFY]);
    const outcome = await act(sig, s, deadline());
    expect(outcome).toMatchObject({ state: 'acted', results: [{ planId: expect.stringMatching(/^pl/) }] });
    const planId = outcome.results![0]!.planId!;
    expect(await get(`/plans/${planId}`)).toMatchObject({
      kind: 'bracket',
      state: 'armed',
      tsym: 'INFY-EQ',
      entry: { trantype: 'B', d: '1485.00', prc: '1485.00', qty: 2 },
      target: { trigger: '1545.00', price: '1545.00' },
      stopLoss: { trigger: '1455.00', price: '1455.00' },
    });
    const again = await act(sig, s, deadline());
    expect(again).toMatchObject({ state: 'acted', results: [{ planId, detail: expect.stringMatching(/replayed/) }] });
    expect(await placesAtBroker()).toHaveLength(1);
  });

  it('trailing-stop: a sell stop below the alert price, its plan trailing by the points given', async () => {
    const s = kindsStrategy({
      kind: 'trailing-stop',
      order: ORDER,
      trigger: off('-2%'),
      price: off('-2.5%'),
      trailBy: '10',
    });
    const outcome = await act(signal(s, [SELL_INFY]), s, deadline());
    expect(outcome).toMatchObject({
      state: 'acted',
      results: [{ planId: expect.any(String), alId: expect.any(String) }],
    });
    expect((await placesAtBroker())[0]!.jData).toMatchObject({
      trantype: 'S',
      ai_t: 'LTP_B_O',
      d: '1470.00',
      prc: '1462.50',
    });
    expect(await get(`/plans/${outcome.results![0]!.planId!}`)).toMatchObject({ kind: 'trailing-stop', trailBy: '10' });
  });
});

describe('when the broker does not answer plainly', () => {
  const GTT = { kind: 'gtt', order: { ...ORDER, qty: 1 }, trigger: off('-0.5%'), price: off('-0.5%') };

  it('an unknown outcome is reported with the way to check, not thrown, and never placed again', async () => {
    const s = kindsStrategy(GTT);
    const sig = signal(s, [BUY_INFY]);
    await control().fault({ operation: 'PlaceGTTOrder', kind: 'serverTimeout', times: 1 });
    const outcome = await act(sig, s, deadline());
    expect(outcome).toMatchObject({ state: 'refused', code: 'BROKER_TIMEOUT' });
    expect((outcome as { reason: string }).reason).toMatch(
      /^outcome unknown \(BROKER_TIMEOUT\).*GET \/gtt-orders\?tsym=INFY-EQ/,
    );
    // The same message again: the key keeps the unknown outcome; nothing is sent a second time.
    expect(await act(sig, s, deadline())).toMatchObject({ state: 'refused', code: 'BROKER_TIMEOUT' });
    expect(await placesAtBroker()).toHaveLength(1);
  });

  it('"not now" (RATE_LIMITED) is thrown for the queue; the next delivery places it, once', async () => {
    const s = kindsStrategy(GTT);
    const sig = signal(s, [BUY_INFY, { ...BUY_INFY, ticker: 'TCS', price: '4000' }]);
    await control().fault({ operation: 'PlaceGTTOrder', kind: 'rateLimit', times: 1 });
    const thrown = await act(sig, s, deadline()).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(SignalRetryError);
    expect(thrown).toMatchObject({ code: 'RATE_LIMITED' });
    const redelivered = await act(sig, s, deadline());
    expect(redelivered).toMatchObject({ state: 'acted', results: [{ tsym: 'INFY-EQ' }, { tsym: 'TCS-EQ' }] });
    expect(redelivered.results![1]!.detail).toMatch(/replayed/);
    const placed = (await placesAtBroker()).filter((r) => (r.reply as { stat?: string }).stat === 'OI created');
    expect(placed.map((r) => r.jData!.tsym)).toEqual(['TCS-EQ', 'INFY-EQ']);
  });
});
