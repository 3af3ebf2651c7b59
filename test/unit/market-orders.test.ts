import { describe, expect, it } from 'vitest';

import { GatewayError } from '../../functions/base/contract/errors.js';
import { validateInput } from '../../functions/base/contract/validate-input.js';
import { parseGatewayConfig } from '../../functions/base/runtime/config.js';
import { modifyOcoOrder, placeGttOrder, placeOcoOrder } from '../../functions/orders/operations.js';
import { autoBandPercent, protectedPrice, protectMarketOrder } from '../../functions/orders/safety/market-orders.js';
import { SAMPLE_MARKET_OCO, SAMPLE_MARKET_ORDER } from '../support/sample-order.js';

const convert = { marketOrders: 'convert', marketProtectionPercent: 'auto', priceTick: '0.05' } as const;
const leg = (over: Partial<Parameters<typeof protectedPrice>[0]> = {}) => ({
  exch: 'NSE',
  tsym: 'M&M-EQ',
  trantype: 'B',
  prctyp: 'MKT',
  prc: '0',
  reference: '1490',
  path: 'prc',
  ...over,
});

describe('market orders become protected limit orders', () => {
  it.each([
    // [side, reference, band in percent, tick, expected]: buy above, sell below, on the tick grid (written with the tick's decimals), inside the band.
    ['B', '1490', '0.5', '0.05', '1497.45'], // 1497.45 exactly
    ['S', '1490', '0.5', '0.05', '1482.55'],
    ['B', '90', '2', '0.05', '91.80'],
    ['S', '90', '2', '0.05', '88.20'],
    ['B', '101.37', '1', '0.05', '102.35'], // 102.3837 rounded down to the grid (inside the band)
    ['S', '101.37', '1', '0.05', '100.40'], // 100.3563 rounded up to the grid
    ['B', '2.00', '0.5', '0.05', '2.05'], // the band is under a tick: one tick beyond the reference
    ['S', '2.00', '0.5', '0.05', '1.95'],
    ['B', '24000', '0.5', '1', '24120'],
  ])('side %s, reference %s, band %s percent, tick %s: %s', (trantype, reference, band, tick, expected) => {
    expect(protectedPrice(leg({ trantype, reference }), band, tick)).toBe(expected);
  });

  it('MKT -> LMT and SL-MKT -> SL-LMT; limit orders pass unchanged', () => {
    expect(protectMarketOrder(leg(), convert)).toEqual({ prctyp: 'LMT', prc: '1497.45' });
    expect(protectMarketOrder(leg({ prctyp: 'SL-MKT', trantype: 'S' }), convert)).toEqual({
      prctyp: 'SL-LMT',
      prc: '1482.55',
    });
    expect(protectMarketOrder(leg({ prctyp: 'LMT', prc: '1500' }), convert)).toEqual({ prctyp: 'LMT', prc: '1500' });
  });

  it('the auto band follows the published tiers: equity 2 / 1 / 0.5 %, options 5 / 3 / 2 / 1 %', () => {
    expect(['50', '250', '1490'].map((reference) => autoBandPercent({ exch: 'NSE', tsym: 'X-EQ', reference }))).toEqual(
      ['2', '1', '0.5'],
    );
    const option = (reference: string) => autoBandPercent({ exch: 'NFO', tsym: 'NIFTY 25DEC 24000 CE', reference });
    expect(['5', '50', '250', '900'].map(option)).toEqual(['5', '3', '2', '1']);
    expect(autoBandPercent({ exch: 'NFO', tsym: 'NIFTY25DEC24P24000', reference: '50' })).toBe('3');
    expect(autoBandPercent({ exch: 'NFO', tsym: 'NIFTY25DECFUT', reference: '24000' })).toBe('0.5');
  });

  it('MARKET_ORDERS=reject refuses with GUARDRAIL_REJECTED naming the leg', () => {
    const reject = { ...convert, marketOrders: 'reject' } as const;
    let error: unknown;
    try {
      protectMarketOrder(leg({ prctyp: 'SL-MKT', path: 'stopLoss.order.prc' }), reject);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'GUARDRAIL_REJECTED', details: { rule: 'marketOrders', actual: 'SL-MKT' } });
    expect((error as Error).message).toMatch(/^stopLoss\.order: SL-MKT orders are refused/);
    expect(protectMarketOrder(leg({ prctyp: 'LMT', prc: '1' }), reject)).toEqual({ prctyp: 'LMT', prc: '1' });
  });

  it('a sell too close to 0 to protect is a validation failure', () => {
    expect(() => protectedPrice(leg({ trantype: 'S', reference: '0.05' }), '2', '0.05')).toThrow(/too close to 0/);
  });

  it('the table converts single orders and both OCO legs (the stop-loss band around its own trgprc)', () => {
    const price = (l: Parameters<typeof protectMarketOrder>[0]) => protectMarketOrder(l, convert);
    const single = validateInput(placeGttOrder.input, { ...SAMPLE_MARKET_ORDER, d: '1490' });
    expect(placeGttOrder.priceOrders!(single, price)).toMatchObject({ prctyp: 'LMT', prc: '1497.45', d: '1490' });
    const oco = validateInput(placeOcoOrder.input, SAMPLE_MARKET_OCO);
    const priced = placeOcoOrder.priceOrders!(oco, price);
    expect(priced.target.order).toMatchObject({ prctyp: 'LMT', prc: '1592.00' });
    expect(priced.stopLoss.order).toMatchObject({ prctyp: 'SL-LMT', prc: '1388.05', trgprc: '1395' });
    expect(modifyOcoOrder.priceOrders).toBe(placeOcoOrder.priceOrders);
  });

  it('settings: convert and auto by default; a bad value names the variable', () => {
    const base = { BROKER_BASE_URL: 'https://b.example/X', BROKER_SECRET_ID: 's', IDEMPOTENCY_KEY_REQUIRED: 'false' };
    expect(parseGatewayConfig(base)).toMatchObject({
      marketOrders: 'convert',
      marketProtectionPercent: 'auto',
      priceTick: '0.05',
    });
    expect(() => parseGatewayConfig({ ...base, MARKET_ORDERS: 'allow' })).toThrow(
      /MARKET_ORDERS must be convert or reject/,
    );
    expect(() => parseGatewayConfig({ ...base, MARKET_PROTECTION_PERCENT: '50' })).toThrow(/MARKET_PROTECTION_PERCENT/);
    expect(() => parseGatewayConfig({ ...base, PRICE_TICK: '0' })).toThrow(/PRICE_TICK/);
  });
});
