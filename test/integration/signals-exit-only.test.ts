/**
 * An exit-only strategy (`scope: "exit"`) end to end on loopback: strategies through the local API, alerts posted to
 * the webhook, the signal queue handing them to the real SignalWorker, which checks each order on the positions and
 * pending orders it reads from the emulator. An alert that would open (or add to) a position is refused and the
 * signal read back says why; one that reduces the long acts; nothing opening reaches the broker. A trailing-stop
 * strategy with the exit scope starts a trailing stop on the long, held to the same rule; a bracket one is refused.
 * A live plan's stop not at the broker yet (its first place lost) counts like one that is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';
import { localApiReply } from '../support/local-api.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE, signals: { retryDelayMs: 20 } });
});
afterAll(() => stack.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies read field by field
const api = localApiReply<Record<string, any>>(() => stack.api.url);
const control = () => emulatorControl(stack.emulator.url);
let keys = 0;
const key = () => ({ 'Idempotency-Key': `signals-exit-${++keys}-${Date.now()}` });

const EXIT_STRATEGY = {
  name: 'exits',
  source: 'tradingview',
  scope: 'exit',
  action: {
    kind: 'gtt',
    order: { exch: 'NSE', prd: 'C', prctyp: 'LMT', ret: 'DAY', qty: 2 },
    trigger: { offset: '+2%' },
    price: { offset: '+2%' },
  },
};

const netQty = async (tsym: string): Promise<number> =>
  ((await api('GET', '/positions')).body.positions as { tsym: string; netQty: number }[])
    .filter((p) => p.tsym === tsym)
    .reduce((sum, p) => sum + p.netQty, 0);
const placesAtBroker = async () => (await control().requests()).filter((r) => r.operation === 'PlaceGTTOrder').length;

/** Posts one TradingView alert and waits for the worker: the signal as read back. */
const alert = async (webhookUrl: string, action: 'BUY' | 'SELL', ticker: string, price: number) => {
  const res = await fetch(webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action, ticker, exchange: 'NSE', price, id: `exit-${++keys}` }),
  });
  expect(res.status).toBe(202);
  const { signalId } = (await res.json()) as { signalId: string };
  await stack.signalQueue.drained();
  return (await api('GET', `/signals/${signalId}`)).body;
};

describe('a strategy with scope exit', () => {
  it('refuses a bracket action at creation, with the way forward', async () => {
    const { trigger, price, ...action } = EXIT_STRATEGY.action;
    const leg = { trigger, price };
    const res = await api(
      'POST',
      '/strategies',
      { ...EXIT_STRATEGY, action: { ...action, kind: 'bracket', entry: leg, target: leg, stopLoss: leg } },
      key(),
    );
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(
      'exit is for gtt, oco, trailing-stop, cancel or kill-switch actions: a bracket plan places an entry',
    );
  });

  it('refuses an alert that would open or add to a position, and acts on one that reduces the long', async () => {
    const created = await api('POST', '/strategies', EXIT_STRATEGY, key());
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.scope).toBe('exit');
    const url = created.body.webhookUrl as string;

    // The trader holds 3 INFY-EQ: a buy GTT of theirs, fired by the price.
    const bought = await api(
      'POST',
      '/gtt-orders',
      {
        exch: 'NSE',
        tsym: 'INFY-EQ',
        qty: 3,
        prd: 'C',
        trantype: 'B',
        prctyp: 'LMT',
        ret: 'DAY',
        ai_t: 'LTP_B_O',
        d: '1490',
        prc: '1490',
      },
      key(),
    );
    expect(bought.status).toBe(201);
    await control().ltp('NSE', 'INFY-EQ', 1489);
    await control().ltp('NSE', 'INFY-EQ', 1500);
    expect(await netQty('INFY-EQ')).toBe(3);
    const sent = await placesAtBroker();

    const flat = await alert(url, 'SELL', 'WIPRO', 1450);
    expect(flat.state).toBe('refused');
    expect(flat.reason).toMatch(
      /EXIT_ONLY: a sell of 2 NSE:WIPRO-EQ \(product C\) would open a position: none is held/,
    );
    const adding = await alert(url, 'BUY', 'INFY', 1500);
    expect(adding.state).toBe('refused');
    expect(adding.reason).toMatch(/EXIT_ONLY: a buy of 2 NSE:INFY-EQ \(product C\) would add to the long of 3/);
    expect(await placesAtBroker()).toBe(sent);

    const reducing = await alert(url, 'SELL', 'INFY', 1500);
    expect(reducing, JSON.stringify(reducing)).toMatchObject({ state: 'acted' });
    expect(await placesAtBroker()).toBe(sent + 1);
    // A second sell of 2 would take the long of 3 past flat with the first still pending: refused.
    const past = await alert(url, 'SELL', 'INFY', 1500);
    expect(past.state).toBe('refused');
    expect(past.reason).toMatch(/would exceed the long of 3 \(pending exits sell 2\): at most 1 more may be sold/);
    expect(await placesAtBroker()).toBe(sent + 1);
  });

  it('a trailing-stop strategy starts a stop within the long (its stop counted after), refuses a buy', async () => {
    const created = await api(
      'POST',
      '/strategies',
      {
        ...EXIT_STRATEGY,
        name: 'trailing-exits',
        action: {
          kind: 'trailing-stop',
          order: { exch: 'NSE', prd: 'C', prctyp: 'LMT', ret: 'DAY', qty: 1 },
          trigger: { offset: '-2%' },
          price: { offset: '-2%' },
          trailBy: '10',
        },
      },
      key(),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const url = created.body.webhookUrl as string;
    // The long of 3 INFY-EQ of the test before, with its sell of 2 pending: room for 1.
    expect(await netQty('INFY-EQ')).toBe(3);
    const sent = await placesAtBroker();
    const adding = await alert(url, 'BUY', 'INFY', 1500);
    expect(adding.reason).toMatch(/EXIT_ONLY: a buy of 1 NSE:INFY-EQ \(product C\) would add to the long of 3/);
    const started = await alert(url, 'SELL', 'INFY', 1500);
    expect(started, JSON.stringify(started)).toMatchObject({ state: 'acted' });
    const plans = (await api('GET', '/plans')).body.plans as { kind: string; tag?: string; alIds: { stop?: string } }[];
    const plan = plans.find((p) => p.kind === 'trailing-stop' && p.tag === 'trailing-exits');
    expect(plan?.alIds.stop, JSON.stringify(plans)).toBeDefined();
    expect(await placesAtBroker()).toBe(sent + 1);
    const past = await alert(url, 'SELL', 'INFY', 1500);
    expect(past.reason).toMatch(
      /would exceed the long of 3 \(pending exits sell 3, of which live plans owe 1: plan pl[0-9a-f]{16} 1, its stop at the broker\): at most 0 more may be sold/,
    );
    expect(await placesAtBroker()).toBe(sent + 1);
  });

  it("counts a live plan's stop not at the broker yet (its first place lost): a sell of the same is refused", async () => {
    const created = await api('POST', '/strategies', { ...EXIT_STRATEGY, name: 'exits-owed' }, key());
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const url = created.body.webhookUrl as string;
    const order = { exch: 'NSE', tsym: 'HDFCBANK-EQ', qty: 2, prd: 'C', prctyp: 'LMT', ret: 'DAY' };
    const bought = await api(
      'POST',
      '/gtt-orders',
      { ...order, trantype: 'B', ai_t: 'LTP_B_O', d: '980', prc: '980' },
      key(),
    );
    expect(bought.status).toBe(201);
    await control().ltp('NSE', 'HDFCBANK-EQ', 979);
    await control().ltp('NSE', 'HDFCBANK-EQ', 985);
    expect(await netQty('HDFCBANK-EQ')).toBe(2);
    // The trader's own trailing stop on the long: its first place is lost on the way, the broker never holds it.
    await control().fault({ operation: 'PlaceGTTOrder', kind: 'drop', executed: false, times: 1 });
    const trailing = { ...order, trantype: 'S', ai_t: 'LTP_B_O', d: '950', prc: '950' };
    const lost = await api('POST', '/plans', { kind: 'trailing-stop', order: trailing, trailBy: '10' }, key());
    await control().clearFaults();
    const planId = /Plan (pl[0-9a-f]{16}) is recorded/.exec(JSON.stringify(lost.body))?.[1];
    expect(planId, JSON.stringify(lost.body)).toBeDefined();
    expect((await api('GET', `/plans/${planId}`)).body).toMatchObject({ state: 'armed', alIds: {} });

    const sent = await placesAtBroker();
    const past = await alert(url, 'SELL', 'HDFCBANK', 985);
    expect(past.state, JSON.stringify(past)).toBe('refused');
    expect(past.reason).toContain(
      `EXIT_ONLY: a sell of 2 NSE:HDFCBANK-EQ (product C) would exceed the long of 2 (pending exits sell 2, of which live plans owe 2: plan ${planId} 2, its stop not at the broker yet): at most 0 more may be sold; nothing was sent.`,
    );
    expect(await placesAtBroker()).toBe(sent);
  });
});
