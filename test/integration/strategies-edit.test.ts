/**
 * A strategy over its life (functions/signals/strategies.ts, docs/reference/signals.md) on loopback, with the real worker acting
 * at the emulator: a ChartInk strategy without a side refused when it is defined, PATCH changing what it does and
 * keeping its webhook URL (bad input changing nothing), a paper signal's result naming the order with its prices,
 * the strategy's tag on the orders it places (as the broker received them), and GET /signals telling each signal's
 * fate.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { clearInstrumentCache } from '../../functions/base/broker/instruments.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';

let stack: LocalStack;
let keys = 0;

beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE });
});
afterAll(() => stack.close());
beforeEach(async () => {
  await emulatorControl(stack.emulator.url).reset();
  clearInstrumentCache();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies read field by field
type Json = Record<string, any>;
const api = localApi<Json>(() => stack.api.url);

/** Example A of docs/reference/signals.md: a GTT 0.5% under the alert's price. */
const GTT = {
  kind: 'gtt',
  order: { exch: 'NSE', prd: 'C', qty: 1 },
  trigger: { offset: '-0.5%' },
  price: { offset: '-0.5%' },
};
const define = (body: Json) =>
  api(
    'POST',
    '/strategies',
    { name: 'test', source: 'tradingview', action: GTT, ...body },
    {
      'Idempotency-Key': `strategies-edit-${++keys}-${Date.now()}`,
    },
  );
const strategy = async (body: Json = {}) => {
  const res = await define(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { strategyId: string; webhookUrl: string };
};

const post = async (url: string, body: Json) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
};
let alerts = 0;
const BUY = () => ({ action: 'buy', ticker: 'INFY', exchange: 'NSE', price: 1500, id: `a${++alerts}` });
const settled = () => stack.signalQueue.drained();
const placed = async () =>
  (await emulatorControl(stack.emulator.url).requests()).filter(
    (r) => r.operation === 'PlaceGTTOrder' || r.operation === 'PlaceOCOOrder',
  );

/** Posts one alert, waits for the worker, and answers the signal as GET /signals/{signalId} shows it. */
const signalOf = async (url: string, body: Json) => {
  const res = await post(url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await settled();
  const one = await api('GET', `/signals/${String(res.body.signalId)}`);
  expect(one.status).toBe(200);
  return one.body;
};

describe('a ChartInk strategy names its side when it is defined', () => {
  it('without order.trantype: 400 naming the field, and nothing stored', async () => {
    const res = await define({
      name: 'no-side',
      source: 'chartink',
      action: { ...GTT, order: { exch: 'NSE', prd: 'C', qty: 1 } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details).toEqual([
      { field: 'action.order.trantype', message: expect.stringContaining('ChartInk') },
    ]);
    const list = await api('GET', '/strategies');
    expect(list.body.strategies.map((s: Json) => s.name)).not.toContain('no-side');
    // With its side, or an action that places nothing, it is defined.
    await strategy({ source: 'chartink', action: { ...GTT, order: { ...GTT.order, trantype: 'S' } } });
    await strategy({ source: 'chartink', action: { kind: 'cancel' } });
  });
});

describe('PATCH /strategies/{strategyId}', () => {
  it('changes mode, quantity, limits and allowIps; the webhook URL keeps working', async () => {
    const created = await strategy({ name: 'edit-me' });
    const res = await api('PATCH', `/strategies/${created.strategyId}`, {
      mode: 'paper',
      qty: 2,
      maxQty: 5,
      ratePerMinute: 12,
      allowIps: ['127.0.0.1'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      strategyId: created.strategyId,
      mode: 'paper',
      maxQty: 5,
      ratePerMinute: 12,
      allowIps: ['127.0.0.1'],
      action: { order: { qty: 2 } },
      updatedAt: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toContain('webhookUrl');
    expect((await api('GET', `/strategies/${created.strategyId}`)).body).toEqual(res.body);
    // The same URL: acted on as the strategy now says (paper, two shares).
    const signal = await signalOf(created.webhookUrl, BUY());
    expect(signal).toMatchObject({
      state: 'acted',
      results: [{ dryRun: true, detail: expect.stringContaining('BUY 2') }],
    });
    expect(await placed()).toEqual([]);
    // An allowlist that leaves this machine out takes effect on the next alert; null removes it.
    await api('PATCH', `/strategies/${created.strategyId}`, { allowIps: ['10.1.2.3'] });
    expect((await post(created.webhookUrl, BUY())).status).toBe(403);
    const open = await api('PATCH', `/strategies/${created.strategyId}`, { allowIps: null, maxQty: null });
    expect(open.body.allowIps).toBeUndefined();
    expect(open.body.maxQty).toBeUndefined();
    expect((await post(created.webhookUrl, BUY())).status).toBe(202);
    await settled();
  });

  it('refuses bad input whole, naming the field; nothing is written', async () => {
    const created = await strategy({
      name: 'strict',
      source: 'chartink',
      action: { ...GTT, order: { ...GTT.order, trantype: 'B' } },
    });
    const before = (await api('GET', `/strategies/${created.strategyId}`)).body;
    const refusals: [Json, string][] = [
      [{ mode: 'paper', webhookUrl: 'x' }, 'webhookUrl'],
      [{ mode: 'demo' }, 'mode'],
      [{ qty: 0 }, 'qty'],
      [{ source: 'tradingview' }, 'source'],
      [{}, '(body)'],
      [{ trantype: null }, 'action.order.trantype'],
      [{ tag: 'a tag that is far too long to fit' }, 'tag'],
    ];
    for (const [body, field] of refusals) {
      const res = await api('PATCH', `/strategies/${created.strategyId}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details.map((d: Json) => d.field).join(' ')).toContain(field);
    }
    const cancel = await strategy({ action: { kind: 'cancel' } });
    const noOrder = await api('PATCH', `/strategies/${cancel.strategyId}`, { qty: 3 });
    expect(noOrder.body.error.details).toEqual([{ field: 'qty', message: expect.stringContaining('cancel') }]);
    expect((await api('GET', `/strategies/${created.strategyId}`)).body).toEqual(before);
    expect((await api('PATCH', '/strategies/st0000000000000000', { mode: 'paper' })).body.error.code).toBe(
      'STRATEGY_NOT_FOUND',
    );
  });
});

describe('what a signal places', () => {
  it("a paper signal's result names the order with its prices, as a live one does", async () => {
    const paper = await strategy({ name: 'paper-infy', mode: 'paper' });
    const live = await strategy({ name: 'live-infy' });
    const dry = await signalOf(paper.webhookUrl, BUY());
    const real = await signalOf(live.webhookUrl, BUY());
    const order = 'BUY 1 NSE:INFY-EQ GTT trigger 1492.50 (LTP_B_O) limit 1492.50';
    expect(dry.results).toEqual([
      {
        ticker: 'INFY',
        tsym: 'INFY-EQ',
        dryRun: true,
        detail: `paper: ${order}, tag paper-infy; nothing was sent`,
      },
    ]);
    expect(real.results).toEqual([{ ticker: 'INFY', tsym: 'INFY-EQ', alId: expect.any(String), detail: order }]);
    expect(await placed()).toHaveLength(1);
  });

  it("orders carry the strategy's tag: its own, else its name, else its id", async () => {
    const named = await strategy({ name: 'infy-dips' });
    const tagged = await strategy({ name: 'long name with symbols (like this one)!', tag: 'momo' });
    const unnamed = await strategy({ name: 'long name with symbols (like this one)!' });
    for (const s of [named, tagged, unnamed]) await signalOf(s.webhookUrl, BUY());
    const remarks = (await placed()).map((r) => String(r.jData!.remarks));
    expect(remarks).toHaveLength(3);
    // The broker holds the tag and the gateway's stamp after it.
    expect(remarks[0]).toMatch(/^infy-dips gw\.[0-9a-v]{10}$/);
    expect(remarks[1]).toMatch(/^momo gw\./);
    expect(remarks[2]).toMatch(new RegExp(`^${unnamed.strategyId} gw\\.`));
    const pending = (await api('GET', '/gtt-orders?tsym=INFY-EQ')).body.orders as Json[];
    expect(pending.map((o) => o.tag).sort()).toEqual(['infy-dips', 'momo', unnamed.strategyId].sort());
    // A strategy may change its tag; the next order carries the new one.
    await api('PATCH', `/strategies/${named.strategyId}`, { tag: 'dips-v2' });
    await signalOf(named.webhookUrl, BUY());
    expect(String((await placed()).at(-1)!.jData!.remarks)).toMatch(/^dips-v2 gw\./);
  });
});

describe('GET /signals', () => {
  it("lists a strategy's signals newest first with their fate, paged; one by id", async () => {
    const s = await strategy({ name: 'listed', maxQty: 1 });
    const other = await strategy({ name: 'other' });
    const acted = await signalOf(s.webhookUrl, BUY());
    const refused = await signalOf(s.webhookUrl, { ...BUY(), qty: 9 });
    await signalOf(other.webhookUrl, BUY());
    expect(acted.state).toBe('acted');
    expect(refused).toMatchObject({ state: 'refused', reason: expect.stringContaining('maxQty') });

    const list = await api('GET', `/signals?strategyId=${s.strategyId}`);
    expect(list.status).toBe(200);
    expect(list.body.signals.map((x: Json) => [x.signalId, x.state])).toEqual([
      [refused.signalId, 'refused'],
      [acted.signalId, 'acted'],
    ]);
    expect(list.body.signals[1].results[0].detail).toContain('GTT trigger 1492.50');
    const refusedOnly = await api('GET', `/signals?strategyId=${s.strategyId}&state=refused`);
    expect(refusedOnly.body.signals.map((x: Json) => x.signalId)).toEqual([refused.signalId]);

    const first = await api('GET', `/signals?strategyId=${s.strategyId}&limit=1`);
    expect(first.body.signals.map((x: Json) => x.signalId)).toEqual([refused.signalId]);
    const second = await api('GET', `/signals?strategyId=${s.strategyId}&limit=1&cursor=${first.body.nextCursor}`);
    expect(second.body.signals.map((x: Json) => x.signalId)).toEqual([acted.signalId]);

    // No part of a webhook token in what is shown.
    const shown = JSON.stringify(list.body);
    for (const url of [s.webhookUrl, other.webhookUrl]) expect(shown).not.toContain(url.split('/').pop()!.slice(0, 12));

    expect((await api('GET', '/signals/sg000000000000000000000000')).body.error.code).toBe('SIGNAL_NOT_FOUND');
    const bad = await api('GET', '/signals?strategyId=nope&state=gone');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: Json) => d.field).sort()).toEqual(['state', 'strategyId']);
  });
});
