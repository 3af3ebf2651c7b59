/**
 * Every dialect of the broker family, end to end: through the local HTTP API and the real handlers
 * against the emulator speaking each dialect (emulator/wire/dialect.ts), place, modify and cancel (single and OCO),
 * the pending list, one order by id, the triggered history, a quote and a plan that finds its GTT by its stamp (`remarks`)
 * all work, and the emulator really answered in the dialect (its request log keeps the replies as sent).
 */
import { describe, expect, it } from 'vitest';

import type { EmulatorDialect } from '../../emulator/wire/dialect.js';
import type { LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

const OCO = {
  exch: 'NSE',
  tsym: 'M&M-EQ',
  tag: 'exit-1',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1600', prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1395', prd: 'C' } },
};

/** What each dialect's replies say on the wire: each write's success text and the id's and the tag's keys. */
interface Wire {
  placeGtt: string;
  placeOco: string;
  modifyGtt: string;
  modifyOco: string;
  deleted: string;
  id: string;
  tag: string;
}
const WIRE: Record<EmulatorDialect, Wire> = {
  noren: {
    placeGtt: 'OI created',
    placeOco: 'OI created',
    modifyGtt: 'OI replaced',
    modifyOco: 'OI replaced',
    deleted: 'OI deleted',
    id: 'al_id',
    tag: 'remarks',
  },
  '2021': {
    placeGtt: 'Oi created',
    placeOco: 'Oi created',
    modifyGtt: 'Oi Replacedt',
    modifyOco: 'Oi Replacedt',
    deleted: 'Oi delete success',
    id: 'Al_id',
    tag: 'Remarks',
  },
  flattrade: {
    placeGtt: 'Oi created',
    placeOco: 'OI created',
    modifyGtt: 'Oi Replaced',
    modifyOco: 'OI replaced',
    deleted: 'Oi delete success',
    id: 'al_id',
    tag: 'remarks',
  },
};

describe.each(['noren', '2021', 'flattrade'] as const)('the %s dialect', (dialect) => {
  let stack: LocalStack;
  let control: EmulatorControl;
  useLocalStack({ settings: HIGH_ORDER_RATE, dialect }, (s, c) => {
    stack = s;
    control = c;
  });

  let keys = 0;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${stack.api.url}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(method === 'POST' ? { 'Idempotency-Key': `dialect-${dialect}-${++keys}-${Date.now()}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  /** The replies the emulator sent for an operation, as its request log keeps them. */
  const replies = async (operation: string) =>
    (await control.requests()).filter((r) => r.operation === operation).map((r) => r.reply as Record<string, unknown>);
  const wire = WIRE[dialect];

  it('a single GTT: place, pending list, get by id, modify, cancel', async () => {
    const placed = await api('POST', '/gtt-orders', { ...SAMPLE_ORDER, tag: 'dip-buy' });
    expect(placed.status).toBe(201);
    const alId = String(placed.body.al_id);
    expect(alId).toMatch(/^\d+$/);
    expect((await replies('PlaceGTTOrder'))[0]).toMatchObject({ stat: wire.placeGtt, [wire.id]: alId });

    const list = await api('GET', '/gtt-orders');
    expect(list.status).toBe(200);
    expect(list.body.orders).toEqual([
      expect.objectContaining({ al_id: alId, type: 'single', tag: 'dip-buy', qty: 1, trigger: '1490' }),
    ]);
    const pending = (await replies('GetPendingGTTOrder'))[0] as unknown as Record<string, unknown>[];
    expect(pending[0]).toHaveProperty(wire.id, alId);
    // The broker keeps the caller's tag with the write's stamp after it (base/broker/order-stamps.ts); the API shows the tag.
    expect(String(pending[0]![wire.tag])).toMatch(/^dip-buy gw\.[0-9a-v]{10}$/);

    const one = await api('GET', `/gtt-orders/${alId}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ al_id: alId, tag: 'dip-buy', prc: '1500' });

    const modified = await api('PUT', `/gtt-orders/${alId}`, { ...SAMPLE_ORDER, d: '1480' });
    expect(modified.status).toBe(200);
    expect(modified.body).toMatchObject({ al_id: alId });
    expect((await replies('ModifyGTTOrder'))[0]).toMatchObject({ stat: wire.modifyGtt, [wire.id]: alId });
    expect((await api('GET', `/gtt-orders/${alId}`)).body).toMatchObject({ trigger: '1480' });

    const cancelled = await api('DELETE', `/gtt-orders/${alId}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ al_id: alId });
    expect((await replies('CancelGTTOrder'))[0]).toMatchObject({ stat: wire.deleted, [wire.id]: alId });
    expect((await api('GET', '/gtt-orders')).body.orders).toEqual([]);
    expect((await api('GET', `/gtt-orders/${alId}`)).status).toBe(404);
  });

  it("a quote: the last price, today's band, tick and lot, from GetQuotes as the dialect writes it", async () => {
    await control.ltp('NSE', 'INFY-EQ', 1510.35, 1500);
    const quote = await api('GET', '/quotes?exch=NSE&tsym=INFY-EQ');
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({
      exch: 'NSE',
      tsym: 'INFY-EQ',
      lp: '1510.35',
      band: { lc: '1350.00', uc: '1650.00' },
      tick: '0.05',
      lot: 1,
    });
    expect((await replies('GetQuotes')).at(-1)).toHaveProperty(dialect === '2021' ? 'Token' : 'token');
  });

  it('an OCO: place, list, modify, cancel', async () => {
    const placed = await api('POST', '/gtt-orders/oco', OCO);
    expect(placed.status).toBe(201);
    const alId = String(placed.body.al_id);
    expect((await replies('PlaceOCOOrder'))[0]).toMatchObject({ stat: wire.placeOco, [wire.id]: alId });

    expect((await api('GET', `/gtt-orders/${alId}`)).body).toMatchObject({
      al_id: alId,
      type: 'oco',
      tag: 'exit-1',
      target: { trigger: '1600' },
      stopLoss: { trigger: '1400' },
    });

    const modified = await api('PUT', `/gtt-orders/oco/${alId}`, {
      ...OCO,
      stopLoss: { ...OCO.stopLoss, trigger: '1410' },
    });
    expect(modified.status).toBe(200);
    expect((await replies('ModifyOCOOrder'))[0]).toMatchObject({ stat: wire.modifyOco, [wire.id]: alId });
    expect((await api('GET', `/gtt-orders/${alId}`)).body).toMatchObject({ stopLoss: { trigger: '1410' } });

    const cancelled = await api('DELETE', `/gtt-orders/${alId}`);
    expect(cancelled.status).toBe(200);
    expect((await replies('CancelGTTOrder'))[0]).toMatchObject({ stat: wire.deleted, [wire.id]: alId });
    expect((await api('GET', '/gtt-orders')).body.orders).toEqual([]);
  });

  it('the triggered history: a fired single GTT and a fired OCO leg, with their tags and orders', async () => {
    const single = String((await api('POST', '/gtt-orders', { ...SAMPLE_ORDER, tag: 'dip-buy' })).body.al_id);
    const oco = String((await api('POST', '/gtt-orders/oco', { ...OCO, tsym: 'INFY-EQ' })).body.al_id);
    await control.ltp('NSE', 'M&M-EQ', 1489);
    await control.ltp('NSE', 'INFY-EQ', 1399);
    const history = await api('GET', '/gtt-orders/triggered');
    expect(history.status).toBe(200);
    const orders = history.body.orders as Record<string, unknown>[];
    expect(orders.find((o) => o.al_id === single)).toMatchObject({
      type: 'single',
      tag: 'dip-buy',
      status: 'TRIGGERED',
      order: { tag: 'dip-buy', side: 'B', qty: 1 },
    });
    expect(orders.find((o) => o.al_id === oco)).toMatchObject({
      type: 'oco',
      tag: 'exit-1',
      firedLeg: 'stopLoss',
      order: { tsym: 'INFY-EQ', side: 'S' },
    });
    const fired = (await replies('GetTrgOi')).at(-1) as unknown as Record<string, unknown>[];
    expect(fired.map((r) => r[wire.id]).sort()).toEqual([single, oco].sort());
  });

  it('a bracket plan: armed, its entry fired, its exit (reply lost) found by its stamp and equal to the broker; then done', async () => {
    const created = await api('POST', '/plans', {
      kind: 'bracket',
      entry: { ...SAMPLE_ORDER, tsym: 'SBIN-EQ', qty: 2 },
      target: { trigger: '1600', price: '1600' },
      stopLoss: { trigger: '1400', price: '1400' },
      tag: 'swing',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const planId = String(created.body.planId);
    expect(created.body).toMatchObject({ state: 'armed' });
    await control.ltp('NSE', 'SBIN-EQ', 1480);
    await control.fault({ operation: 'PlaceOCOOrder', kind: 'drop', executed: true, times: 1 });
    await stack.watch();
    const armed = (await api('GET', `/plans/${planId}`)).body as {
      state: string;
      alIds: Record<string, string>;
      history: { action: string }[];
    };
    expect(armed.state).toBe('exit-armed');
    expect(armed.history.map((h) => h.action)).toContain('exit-adopted');
    // The plan's state is the broker's: its exit is the one live GTT of the symbol, its entry in the fired history.
    const live = (await api('GET', '/gtt-orders')).body.orders as { al_id: string; type: string; tsym: string }[];
    expect(live.filter((o) => o.tsym === 'SBIN-EQ')).toEqual([
      expect.objectContaining({ al_id: armed.alIds.exit, type: 'oco' }),
    ]);
    const fired = (await api('GET', '/gtt-orders/triggered')).body.orders as { al_id: string; status: string }[];
    expect(fired.find((o) => o.al_id === armed.alIds.entry)).toMatchObject({ status: 'TRIGGERED' });
    const pending = (await replies('GetPendingGTTOrder')).at(-1) as unknown as Record<string, unknown>[];
    expect(pending.find((r) => r[wire.id] === armed.alIds.exit)).toHaveProperty(
      wire.tag,
      expect.stringContaining(planId),
    );
    await control.ltp('NSE', 'SBIN-EQ', 1610);
    await stack.watch();
    expect((await api('GET', `/plans/${planId}`)).body).toMatchObject({ state: 'done' });
  });
});
