/**
 * Coverage (docs/explanation/coverage.md) through the local HTTP API and the GttWatcher against the emulator on
 * 127.0.0.1: a fill makes a long; with no exit it is uncovered, and two watcher runs raise one Position Unprotected;
 * an OCO for part of it makes it partly covered, a target alone counts for nothing, a stop for the rest covers it.
 * autoCover places exactly one OCO at the trader's distances (the emulator's pending list), and a later run places
 * none (the emulator's request log); an OCO the exchange's band refuses is said in the event.
 */
import { describe, expect, it } from 'vitest';

import { type LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;

useLocalStack(
  { settings: HIGH_ORDER_RATE },
  (s, c) => {
    stack = s;
    control = c;
  },
  { clearFaults: true },
);

const api = localApi(() => stack.api.url);
let keys = 0;
const key = () => ({ 'Idempotency-Key': `coverage-${++keys}-${Date.now()}` });

/** A buy GTT of `qty` at 1500 when the price falls to 1490, then the price at 1489: a long of `qty` at 1489. */
const buyLong = async (tsym: string, qty: number) => {
  const res = await api('POST', '/gtt-orders', { ...SAMPLE_ORDER, tsym, qty }, key());
  expect(res.status).toBe(201);
  await control.ltp('NSE', tsym, 1489);
};
const oco = (tsym: string, qty: number) => ({
  exch: 'NSE',
  tsym,
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty, prc: '1600', prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty, prc: '1400', prd: 'C' } },
});
const sellGtt = (tsym: string, qty: number, ai_t: 'LTP_A_O' | 'LTP_B_O', trigger: string) => ({
  ...SAMPLE_ORDER,
  tsym,
  qty,
  trantype: 'S',
  ai_t,
  d: trigger,
  prc: trigger,
});

type Coverage = {
  positions: {
    tsym: string;
    netQty: number;
    status: string;
    coveredQty: number;
    uncoveredQty: number;
    overCoveredQty?: number;
    exits: { al_id: string; kind: string; qty: number; counts: boolean }[];
  }[];
  totals: Record<string, number>;
  settings: { watch: boolean; autoCover?: { target: string; stop: string } };
};
const coverage = async () => {
  const res = await api('GET', '/positions/coverage');
  expect(res.status).toBe(200);
  return res.body as Coverage;
};
const of = async (tsym: string) => (await coverage()).positions.find((p) => p.tsym === tsym);
const unprotected = (tsym: string) =>
  stack.eventBridge.events
    .filter((e) => e['detail-type'] === 'Position Unprotected')
    .map((e) => e.detail as Record<string, unknown> & { autoCover?: Record<string, unknown> })
    .filter((d) => d.tsym === tsym);
const settings = async (body: unknown) => api('PUT', '/positions/coverage', body);

describe('GET /positions/coverage and its settings', () => {
  it('refuses bad settings naming the field, and writes nothing', async () => {
    for (const body of [
      { watch: 'yes' },
      {},
      { watch: true, autoCover: { target: '-5', stop: 3 } },
      { watch: true, autoCover: { target: 5 } },
      { watch: true, autoCover: { target: '120%', stop: 3 } },
      { watch: true, extra: 1 },
    ]) {
      const res = await settings(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({
        error: { code: 'VALIDATION_FAILED', details: [expect.objectContaining({ field: expect.any(String) })] },
      });
    }
    expect(await coverage()).toMatchObject({ positions: [], settings: { watch: false } });
  });

  it('a long with no exit is uncovered; two runs raise one Position Unprotected; an OCO, a target, a stop', async () => {
    await buyLong('INFY-EQ', 5);
    expect((await settings({ watch: true })).status).toBe(200);
    expect(await of('INFY-EQ')).toMatchObject({ netQty: 5, status: 'uncovered', coveredQty: 0, uncoveredQty: 5 });
    await stack.watch();
    await stack.watch();
    expect(unprotected('INFY-EQ')).toEqual([
      expect.objectContaining({ status: 'uncovered', netQty: 5, uncoveredQty: 5, exits: [] }),
    ]);

    // An OCO sell for 3 of the 5: partly covered, 2 uncovered; the next run says that once.
    expect((await api('POST', '/gtt-orders/oco', oco('INFY-EQ', 3), key())).status).toBe(201);
    expect(await of('INFY-EQ')).toMatchObject({ status: 'partly', coveredQty: 3, uncoveredQty: 2 });
    await stack.watch();
    await stack.watch();
    expect(unprotected('INFY-EQ').map((d) => [d.status, d.uncoveredQty])).toEqual([
      ['uncovered', 5],
      ['partly', 2],
    ]);

    // A target above it caps the profit and protects nothing: listed, not counted.
    expect((await api('POST', '/gtt-orders', sellGtt('INFY-EQ', 2, 'LTP_A_O', '1550'), key())).status).toBe(201);
    const withTarget = await of('INFY-EQ');
    expect(withTarget).toMatchObject({ status: 'partly', uncoveredQty: 2 });
    expect(withTarget!.exits.map((e) => [e.kind, e.qty, e.counts])).toEqual([
      ['oco', 3, true],
      ['target', 2, false],
    ]);
    // A stop below it for the rest: covered, and the runs raise nothing more.
    expect((await api('POST', '/gtt-orders', sellGtt('INFY-EQ', 2, 'LTP_B_O', '1450'), key())).status).toBe(201);
    expect(await of('INFY-EQ')).toMatchObject({ status: 'covered', coveredQty: 5, uncoveredQty: 0 });
    await stack.watch();
    expect(unprotected('INFY-EQ')).toHaveLength(2);
    // One more stop: over-covered, flagged (a fired stop would open a short), still covered.
    expect((await api('POST', '/gtt-orders', sellGtt('INFY-EQ', 1, 'LTP_B_O', '1440'), key())).status).toBe(201);
    expect(await of('INFY-EQ')).toMatchObject({ status: 'covered', overCoveredQty: 1 });
  });

  it('autoCover places exactly one OCO at the distances, on the tick; a later run places none', async () => {
    const put = await settings({ watch: true, autoCover: { target: 20, stop: '1%' } });
    expect(put).toMatchObject({ status: 200, body: { watch: true, autoCover: { target: '20', stop: '1%' } } });
    await buyLong('WIPRO-EQ', 4);
    await control.clearRequests();
    await stack.watch();
    // 1489 + 20 = 1509; 1489 - 1% (14.89) = 1474.11, down to the tick: 1474.10.
    const [event] = unprotected('WIPRO-EQ');
    expect(event).toMatchObject({
      status: 'uncovered',
      uncoveredQty: 4,
      autoCover: { placed: true, target: '1509.00', stopLoss: '1474.10', qty: 4 },
    });
    const placed = (await control.requests()).filter((r) => r.operation === 'PlaceOCOOrder');
    expect(placed).toHaveLength(1);
    const pending = (await api('GET', '/gtt-orders?tsym=WIPRO-EQ')).body as {
      orders: {
        al_id: string;
        type: string;
        tag?: string;
        target?: { trigger: string };
        stopLoss?: { trigger: string };
      }[];
    };
    expect(pending.orders).toEqual([
      expect.objectContaining({
        al_id: event!.autoCover!.al_id,
        type: 'oco',
        tag: 'autocover',
        target: expect.objectContaining({ trigger: '1509.00' }),
        stopLoss: expect.objectContaining({ trigger: '1474.10' }),
      }),
    ]);
    expect(await of('WIPRO-EQ')).toMatchObject({ status: 'covered', coveredQty: 4 });

    await control.clearRequests();
    await stack.watch();
    await stack.watch();
    expect((await control.requests()).filter((r) => r.operation === 'PlaceOCOOrder')).toEqual([]);
    expect(unprotected('WIPRO-EQ')).toHaveLength(1);

    // Cancelled by hand: the same position and quantity is not covered a second time today (the key answers the first).
    await api('DELETE', `/gtt-orders/${event!.autoCover!.al_id}`);
    await control.clearRequests();
    await stack.watch();
    expect((await control.requests()).filter((r) => r.operation === 'PlaceOCOOrder')).toEqual([]);
    expect(await of('WIPRO-EQ')).toMatchObject({ status: 'uncovered' });
  });

  it('a position closed by its cover and opened again at the same size is covered afresh', async () => {
    await settings({ watch: true, autoCover: { target: 20, stop: '1%' } });
    await buyLong('ITC-EQ', 2);
    const itcCovers = async () =>
      (await control.requests()).filter((r) => r.operation === 'PlaceOCOOrder' && r.jData?.tsym === 'ITC-EQ');
    await control.clearRequests();
    await stack.watch();
    expect(await itcCovers()).toHaveLength(1);
    // The cover's stop (1474.10) fires and fills: the position is flat.
    await control.ltp('NSE', 'ITC-EQ', 1474);
    await control.ltp('NSE', 'ITC-EQ', 1476);
    expect(await of('ITC-EQ')).toBeUndefined();
    // Bought again, the same 2: a new position, whose cover is a new OCO (not the first one's key answered again).
    await buyLong('ITC-EQ', 2);
    expect(await of('ITC-EQ')).toMatchObject({ netQty: 2, status: 'uncovered' });
    await control.clearRequests();
    await stack.watch();
    expect(await itcCovers()).toHaveLength(1);
    expect(await of('ITC-EQ')).toMatchObject({ status: 'covered', coveredQty: 2 });
  });

  it('an OCO the broker refuses (a price band) is not placed, and the event says why', async () => {
    await settings({ watch: true, autoCover: { target: 20, stop: '1%' } });
    await buyLong('TCS-EQ', 2);
    await control.fault({
      operation: 'PlaceOCOOrder',
      kind: 'notOk',
      message: 'Price out of range: stop-loss leg outside the day price band',
    });
    await stack.watch();
    const [event] = unprotected('TCS-EQ');
    expect(event).toMatchObject({ status: 'uncovered', autoCover: { placed: false, code: expect.any(String) } });
    expect(String(event!.autoCover!.reason)).toMatch(/band/i);
    expect(await of('TCS-EQ')).toMatchObject({ status: 'uncovered', uncoveredQty: 2 });
  });

  it('with the kill switch on, autoCover is refused as every place is, and the event says so', async () => {
    await settings({ watch: true, autoCover: { target: 20, stop: '1%' } });
    await buyLong('SBIN-EQ', 3);
    expect((await api('POST', '/kill-switch', { mode: 'keep-exits' })).status).toBe(200);
    await stack.watch();
    expect(unprotected('SBIN-EQ')).toEqual([
      expect.objectContaining({ autoCover: expect.objectContaining({ placed: false, code: 'TRADING_HALTED' }) }),
    ]);
    await api('DELETE', '/kill-switch');
  });
});
