/**
 * `POST /positions/close` (docs/how-to/close-a-position.md) through the local HTTP API against the emulator on
 * 127.0.0.1: a long closed by one protected sell of its whole quantity (the emulator's request log); the same key
 * twice sends one PlaceOrder; a quantity above the position, or one that the pending exits would take past flat, is
 * refused with the reason (naming the exits' al_ids) and nothing is sent; a short is closed with a buy; the kill
 * switch on, the close still goes (an exit); the key is required but for a dry run, which sends nothing.
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
const key = (prefix = 'close') => ({ 'Idempotency-Key': `${prefix}-${++keys}-${Date.now()}` });

/** A buy GTT of `qty` at 1500 when the price falls to 1490, then the price at 1489: a long of `qty` at 1489. */
const buyLong = async (qty: number) => {
  expect((await api('POST', '/gtt-orders', { ...SAMPLE_ORDER, tsym: 'INFY-EQ', qty }, key('buy'))).status).toBe(201);
  await control.ltp('NSE', 'INFY-EQ', 1489);
};
/** A sell GTT of `qty` at 1510 when the price rises to 1510, then the price at 1511: a short of `qty`. */
const sellShort = async (qty: number) => {
  const sell = { ...SAMPLE_ORDER, tsym: 'INFY-EQ', qty, trantype: 'S', ai_t: 'LTP_A_O', d: '1510', prc: '1510' };
  expect((await api('POST', '/gtt-orders', sell, key('sell'))).status).toBe(201);
  await control.ltp('NSE', 'INFY-EQ', 1511);
};
const placed = async () =>
  (await control.requests()).filter((r) => r.operation === 'PlaceOrder').map((r) => r.jData as Record<string, string>);
const netQty = async () => {
  const res = await api('GET', '/positions');
  const rows = (res.body as { positions: { tsym: string; netQty: number }[] }).positions;
  return rows.find((p) => p.tsym === 'INFY-EQ')?.netQty ?? 0;
};
const close = (body: Record<string, unknown>, headers: Record<string, string> = key()) =>
  api('POST', '/positions/close', body, headers);
const INFY = { exch: 'NSE', tsym: 'INFY-EQ', prd: 'C' };

describe('POST /positions/close', () => {
  it('closes a long of 5 with one protected sell of 5; the same key again sends nothing more', async () => {
    await buyLong(5);
    await control.clearRequests();
    const headers = key();
    const res = await close(INFY, headers);
    expect(res.status).toBe(200);
    // 1489 less the 0.5 % band (7.445), rounded up to the 0.05 tick (inside the band): 1481.60.
    expect(res.body).toMatchObject({
      ...INFY,
      trantype: 'S',
      qty: 5,
      prc: '1481.60',
      netQty: 5,
      lastPrice: 1489,
      outcome: 'placed',
      norenordno: expect.stringMatching(/^\d+$/),
    });
    expect(await placed()).toEqual([
      expect.objectContaining({ trantype: 'S', qty: '5', prctyp: 'LMT', prc: '1481.60', tsym: 'INFY-EQ', prd: 'C' }),
    ]);
    expect(await netQty()).toBe(0);
    // The same key: the same order answered, no second PlaceOrder (the position is flat by now).
    const again = await close(INFY, headers);
    expect(again).toMatchObject({
      status: 200,
      body: { norenordno: (res.body as { norenordno: string }).norenordno, outcome: 'replayed' },
    });
    expect(await placed()).toHaveLength(1);
    // The key with another body: refused, nothing sent.
    expect((await close({ ...INFY, qty: 2 }, headers)).body).toMatchObject({
      error: { code: 'IDEMPOTENCY_KEY_REUSED' },
    });
    expect(await placed()).toHaveLength(1);
  });

  it('refuses a quantity above the position, a position not held, and a missing key; nothing sent', async () => {
    await buyLong(5);
    await control.clearRequests();
    const over = await close({ ...INFY, qty: 6 });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({
      error: {
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining('qty 6 is more than the long of 5'),
        details: [expect.objectContaining({ field: 'qty' })],
      },
    });
    const none = await close({ ...INFY, prd: 'I' });
    expect(none.body).toMatchObject({ error: { message: expect.stringContaining('no open position') } });
    const keyless = await close(INFY, {});
    expect(keyless.status).toBe(400);
    expect(keyless.body).toMatchObject({ error: { details: [expect.objectContaining({ field: 'Idempotency-Key' })] } });
    expect(await placed()).toEqual([]);
    expect(await netQty()).toBe(5);
  });

  it('a pending GTT exit makes a close past flat refused, naming its al_id; a part that fits beside it goes', async () => {
    await buyLong(5);
    const stop = { ...SAMPLE_ORDER, tsym: 'INFY-EQ', qty: 3, trantype: 'S', ai_t: 'LTP_B_O', d: '1450', prc: '1450' };
    const gtt = await api('POST', '/gtt-orders', stop, key('stop'));
    expect(gtt.status).toBe(201);
    const alId = (gtt.body as { al_id: string }).al_id;
    await control.clearRequests();
    const res = await close(INFY);
    expect(res.status).toBe(400);
    const message = (res.body as { error: { message: string } }).error.message;
    expect(message).toContain(`al_id ${alId}`);
    expect(message).toContain('cancel them first');
    expect(message).toContain('close at most 2');
    expect(await placed()).toEqual([]);
    const part = await close({ ...INFY, qty: 2 });
    expect(part).toMatchObject({ status: 200, body: { trantype: 'S', qty: 2 } });
    expect(await placed()).toHaveLength(1);
  });

  it('?dryRun=true (no key needed): the close decided and the PlaceOrder it would send; nothing sent', async () => {
    await buyLong(5);
    await control.clearRequests();
    const dry = await api('POST', '/positions/close?dryRun=true', { ...INFY, qty: 3 });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      operation: 'PlaceOrder',
      request: { jData: expect.objectContaining({ trantype: 'S', qty: '3', prc: '1481.60', prctyp: 'LMT' }) },
      exchangeRules: expect.objectContaining({ tick: '0.05' }),
      close: { trantype: 'S', qty: 3, prc: '1481.60', netQty: 5, lastPrice: 1489 },
    });
    const refusedDry = await api('POST', '/positions/close?dryRun=true', { ...INFY, qty: 9 });
    expect(refusedDry.body).toMatchObject({ error: { message: expect.stringContaining('qty 9 is more than') } });
    expect(await placed()).toEqual([]);
  });

  it('closes a short with a buy above the last price', async () => {
    await sellShort(4);
    expect(await netQty()).toBe(-4);
    await control.clearRequests();
    const res = await close(INFY);
    // 1511 plus the 0.5 % band (7.555), rounded down to the 0.05 tick (inside the band): 1518.55.
    expect(res).toMatchObject({ status: 200, body: { trantype: 'B', qty: 4, prc: '1518.55', netQty: -4 } });
    expect(await placed()).toEqual([expect.objectContaining({ trantype: 'B', qty: '4', prctyp: 'LMT' })]);
    expect(await netQty()).toBe(0);
  });

  it('the kill switch on: the close still goes (it only reduces)', async () => {
    await buyLong(5);
    expect((await api('POST', '/kill-switch', { mode: 'keep-exits' })).status).toBe(200);
    try {
      await control.clearRequests();
      const res = await close({ ...INFY, qty: 5 });
      expect(res).toMatchObject({ status: 200, body: { trantype: 'S', qty: 5, outcome: 'placed' } });
      expect(await placed()).toHaveLength(1);
      // An opening order is still refused meanwhile.
      expect((await api('POST', '/gtt-orders', SAMPLE_ORDER, key('open'))).body).toMatchObject({
        error: { code: 'TRADING_HALTED' },
      });
    } finally {
      await api('DELETE', '/kill-switch');
    }
  });
});
