/**
 * What became of a fired GTT's order, through the local HTTP API and the real handlers against the emulator on
 * 127.0.0.1: `GET /gtt-orders/triggered` carries each fired GTT's order (number, status, fill, rejection code and
 * hint, the GTT's tag), `GET /orders` the day's book; a book that cannot be read leaves the history answering.
 */
import { describe, expect, it } from 'vitest';

import { type LocalStack, startLocalStack } from '../../local/run-local.js';
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
const ORDER = { ...SAMPLE_ORDER, tsym: 'INFY-EQ', qty: 5 };
let keys = 0;
const place = async (over: Record<string, unknown> = {}) =>
  String(
    (await api('POST', '/gtt-orders', { ...ORDER, ...over }, { 'Idempotency-Key': `fate-${++keys}-${Date.now()}` }))
      .body.al_id,
  );
const ltp = (price: number, tsym = 'INFY-EQ') => control.ltp('NSE', tsym, price);
type Fired = { al_id: string; tag?: string; order?: Record<string, unknown> };

describe('the fate of every fired order', () => {
  it('a filled order: its number, status, fill and the GTT tag, in the triggered history and the order book', async () => {
    const alId = await place({ tag: 'dip-buy' });
    expect((await api('GET', '/gtt-orders/triggered')).body).toEqual({
      orders: [],
      asOf: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    await ltp(1489);
    const history = (await api('GET', '/gtt-orders/triggered')).body as { orders: Fired[] };
    const fired = history.orders.find((o) => o.al_id === alId)!;
    expect(fired.order).toMatchObject({
      norenordno: expect.stringMatching(/^\d{14}$/),
      status: 'filled',
      filledQty: 5,
      averagePrice: '1489',
      side: 'B',
      qty: 5,
      tag: 'dip-buy',
    });
    const book = (await api('GET', '/orders')).body as { orders: Record<string, unknown>[] };
    expect(book.orders).toEqual([fired.order]);
  });

  it('a rejected order says why, as a code with a hint and the broker words; a partial fill says how much', async () => {
    await fetch(`${stack.emulator.url}/_emulator/next-order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'rejected', reason: 'RED:Margin Shortfall:INR 7,500.00 Available:INR 0.00' }),
    });
    await fetch(`${stack.emulator.url}/_emulator/next-order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'partial', fillQty: 2 }),
    });
    const rejected = await place({ tsym: 'TCS-EQ' });
    const partial = await place({ tsym: 'SBIN-EQ' });
    await ltp(1400, 'TCS-EQ');
    await ltp(1400, 'SBIN-EQ');
    const { orders } = (await api('GET', '/gtt-orders/triggered')).body as { orders: Fired[] };
    expect(orders.find((o) => o.al_id === rejected)!.order).toMatchObject({
      status: 'rejected',
      filledQty: 0,
      rejection: {
        code: 'INSUFFICIENT_FUNDS',
        text: 'RED:Margin Shortfall:INR 7,500.00 Available:INR 0.00',
        hint: expect.stringContaining('margin'),
      },
    });
    expect(orders.find((o) => o.al_id === partial)!.order).toMatchObject({
      status: 'partially-filled',
      filledQty: 2,
      qty: 5,
    });
  });

  it('an OCO: the order of the leg that fired', async () => {
    const oco = await api(
      'POST',
      '/gtt-orders/oco',
      {
        exch: 'NSE',
        tsym: 'WIPRO-EQ',
        tag: 'exit',
        target: { trigger: '600', order: { trantype: 'S', prctyp: 'LMT', qty: 3, prc: '600', prd: 'C' } },
        stopLoss: { trigger: '500', order: { trantype: 'S', prctyp: 'LMT', qty: 3, prc: '495', prd: 'C' } },
      },
      { 'Idempotency-Key': `fate-oco-${Date.now()}` },
    );
    await ltp(550, 'WIPRO-EQ');
    await ltp(499, 'WIPRO-EQ');
    const { orders } = (await api('GET', '/gtt-orders/triggered')).body as {
      orders: (Fired & { firedLeg?: string })[];
    };
    const fired = orders.find((o) => o.al_id === String(oco.body.al_id))!;
    expect(fired.firedLeg).toBe('stopLoss');
    expect(fired.order).toMatchObject({ side: 'S', qty: 3, price: '495', status: 'filled', tag: 'exit' });
  });

  it('when the order book cannot be read, the triggered history still answers and says so', async () => {
    const alId = await place();
    await ltp(1480);
    await control.fault({ operation: 'OrderBook', kind: 'http5xx' });
    const reply = await api('GET', '/gtt-orders/triggered');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      orderBookUnavailable: true,
      orders: [expect.objectContaining({ al_id: alId })],
    });
    expect((reply.body.orders as Fired[])[0]).not.toHaveProperty('order');
  });
});

describe('the fate on the event bus (the watcher)', () => {
  const events = (type: string) => stack.eventBridge.events.filter((e) => e['detail-type'] === type);

  it('GTT Triggered carries the order; Order Filled follows once, however many runs see it', async () => {
    await stack.watch();
    const alId = await place({ tsym: 'HDFCBANK-EQ', tag: 'fate-bus' });
    await stack.watch();
    await ltp(1400, 'HDFCBANK-EQ');
    await stack.watch();
    await stack.watch();
    const triggered = events('GTT Triggered').filter((e) => e.detail.al_id === alId);
    expect(triggered).toHaveLength(1);
    expect(triggered[0]!.detail).toMatchObject({
      order: { status: 'filled', filledQty: 5, norenordno: expect.stringMatching(/^\d{14}$/) },
    });
    const filled = events('Order Filled').filter((e) => e.detail.al_id === alId);
    expect(filled).toHaveLength(1);
    expect(filled[0]!.detail).toMatchObject({
      tag: 'fate-bus',
      side: 'B',
      quantity: 5,
      order: { status: 'filled', averagePrice: '1400' },
      origin: 'watcher',
    });
  });

  it('an order still open gives no settled event; what had settled before the first run is not announced', async () => {
    const fresh = await startLocalStack({ settings: HIGH_ORDER_RATE });
    try {
      const freshPlace = async (tsym: string) =>
        String(
          (
            (await (
              await fetch(`${fresh.api.url}/gtt-orders`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'Idempotency-Key': `fresh-${tsym}` },
                body: JSON.stringify({ ...ORDER, tsym }),
              })
            ).json()) as { al_id: string }
          ).al_id,
        );
      const fireFresh = (tsym: string) =>
        fetch(`${fresh.emulator.url}/_emulator/ltp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ exch: 'NSE', tsym, ltp: 1400 }),
        });
      // Fired and filled before the watcher's first run: its baseline.
      const before = await freshPlace('ITC-EQ');
      await fireFresh('ITC-EQ');
      await fresh.watch();
      await fresh.watch();
      // Fired after, its order left open.
      await fetch(`${fresh.emulator.url}/_emulator/next-order`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'open' }),
      });
      const open = await freshPlace('LT-EQ');
      await fireFresh('LT-EQ');
      await fresh.watch();
      const of = (type: string, alId: string) =>
        fresh.eventBridge.events.filter((e) => e['detail-type'] === type && e.detail.al_id === alId);
      expect(of('Order Filled', before)).toEqual([]);
      expect(of('GTT Triggered', open)[0]!.detail).toMatchObject({ order: { status: 'open', filledQty: 0 } });
      expect([...of('Order Filled', open), ...of('Order Rejected', open), ...of('Order Cancelled', open)]).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});
