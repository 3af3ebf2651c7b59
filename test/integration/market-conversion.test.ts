/**
 * A market order says what was done to it, end to end on loopback (the local stack, the emulator, dynalite, the
 * outbox and its forwarder): the reply's `converted`, the CLI's line, the audit record and the lifecycle event, and
 * the price sent on the instrument's tick (SearchScrip's `ti`) rather than the deployment's PRICE_TICK.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { localApi } from '../support/local-api.js';
import { redirectLogger } from '../support/logs.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_MARKET_OCO, SAMPLE_MARKET_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
const logLines: string[] = [];
let seq = 0;
const key = () => `mkt-${Date.now()}-${++seq}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions on arbitrary JSON
type Json = Record<string, any>;
const call = localApi<Json>(() => stack.api.url);
const audits = () =>
  logLines
    .map((l) => JSON.parse(l) as { message: string; audit?: Json })
    .filter((l) => l.message === 'order action')
    .map((l) => l.audit!);
const gtt = async (...args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    [...args, '--url', stack.api.url],
    { GTT_API_URL: '' },
    {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
    },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
};

const BAND = { reason: expect.stringMatching(/refuse API market orders/) };

beforeAll(async () => {
  const logger = new Logger({ serviceName: 'gtt-gateway-test', logLevel: 'INFO' });
  redirectLogger(logger, (line) => logLines.push(line));
  // PRICE_TICK 0.01 on purpose: the emulator's instruments trade on 0.05 (SearchScrip's `ti`).
  stack = await startLocalStack({ settings: { ...HIGH_ORDER_RATE, PRICE_TICK: '0.01' }, gateway: { logger } });
  expect(await stack.watch()).toMatchObject({ status: 'baseline' });
});
afterAll(() => stack?.close());
beforeEach(() => {
  logLines.length = 0;
});

describe('a market order says what was done', () => {
  it('the reply, the broker, the audit record and the GTT Placed event all carry the conversion', async () => {
    const placed = await call('POST', '/gtt-orders', SAMPLE_MARKET_ORDER, { 'Idempotency-Key': key() });
    expect(placed.status).toBe(201);
    const converted = {
      from: 'MKT',
      to: 'LMT',
      price: '1497.45',
      reference: '1490',
      protectionPct: '0.5',
      tick: '0.05',
      ...BAND,
    };
    expect(placed.body.converted).toEqual(converted);
    const alId = String(placed.body.al_id);
    const held = await call('GET', `/gtt-orders/${alId}`);
    expect(held.body).toMatchObject({ prctyp: 'LMT', prc: '1497.45' });

    expect(audits()[0]).toMatchObject({
      action: 'PlaceGTTOrder',
      outcome: 'succeeded',
      order: { prctyp: 'LMT', prc: '1497.45' },
      requestedOrder: { prctyp: 'MKT' },
      converted,
    });
    await stack.eventsForwarded();
    const event = stack.eventBridge.events.find((e) => e.detail.al_id === alId && e['detail-type'] === 'GTT Placed');
    expect(event?.detail).toMatchObject({ priceType: 'LMT', price: '1497.45', converted });
  });

  it("lands on the instrument's tick, not PRICE_TICK's: a buy inward below the band's edge, a sell above it", async () => {
    // 1492 + 0.5 % = 1499.46 (on PRICE_TICK 0.01, refused by the exchange's 0.05 before): sent at 1499.45.
    const buy = await call('POST', '/gtt-orders', { ...SAMPLE_MARKET_ORDER, d: '1492' }, { 'Idempotency-Key': key() });
    expect(buy.status).toBe(201);
    expect(buy.body.converted).toMatchObject({ price: '1499.45', tick: '0.05' });
    // 1492 - 0.5 % = 1484.54: sent at 1484.55 (inside the band).
    const sell = await call('POST', '/gtt-orders?dryRun=true', { ...SAMPLE_MARKET_ORDER, d: '1492', trantype: 'S' });
    expect(sell.status).toBe(200);
    expect(sell.body).toMatchObject({
      request: { jData: { prctyp: 'LMT', prc: '1484.55' } },
      converted: { from: 'MKT', to: 'LMT', price: '1484.55' },
    });
    expect((await call('GET', `/gtt-orders/${String(buy.body.al_id)}`)).body).toMatchObject({ prc: '1499.45' });
  });

  it('an OCO says it per leg; a limit leg is not named', async () => {
    const oco = {
      ...SAMPLE_MARKET_OCO,
      target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1600', prd: 'C' } },
    };
    const placed = await call('POST', '/gtt-orders/oco', oco, { 'Idempotency-Key': key() });
    expect(placed.status).toBe(201);
    expect(placed.body.converted).toEqual({
      stopLoss: {
        from: 'SL-MKT',
        to: 'SL-LMT',
        price: '1388.05',
        reference: '1395',
        protectionPct: '0.5',
        tick: '0.05',
        ...BAND,
      },
    });
    expect(audits()[0]).toMatchObject({ converted: { stopLoss: { price: '1388.05' } } });
  });

  it('a limit order has no `converted`', async () => {
    const placed = await call(
      'POST',
      '/gtt-orders',
      { ...SAMPLE_MARKET_ORDER, prctyp: 'LMT', prc: '1500' },
      { 'Idempotency-Key': key() },
    );
    expect(placed.status).toBe(201);
    expect(placed.body).not.toHaveProperty('converted');
    expect(audits()[0]).not.toHaveProperty('converted');
  });

  it('the CLI places a market order without --price and says what it was sent as', async () => {
    const run = await gtt(
      ...'place --exch NSE --tsym M&M-EQ --qty 1 --product C --side B --price-type MKT --retention DAY --alert LTP_B_O --trigger 1490'.split(
        ' ',
      ),
      '--key',
      key(),
    );
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(
      /^placed al_id \d+ \(market order sent as LMT 1497\.45: protection 0\.5%\) \(idempotency key mkt-/,
    );
    // A limit order still needs its price.
    const limit = await gtt(
      ...'place --exch NSE --tsym M&M-EQ --qty 1 --product C --side B --price-type LMT --retention DAY --alert LTP_B_O --trigger 1490'.split(
        ' ',
      ),
    );
    expect(limit.code).toBe(2);
    expect(limit.err).toMatch(/missing --price/);
  });
});
