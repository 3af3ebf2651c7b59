/**
 * The quote (GET /quotes) read tolerantly from GetQuotes (functions/orders/operations.ts `getQuote`, base/broker/market.ts
 * `quoteResultOf`): any key case, prices as strings or JSON numbers, a band only where the broker gives a usable pair
 * (else the day's rules'), and `no data` (bare, or as ShoonyaApi-py's sample writes it) as a quote without a price.
 * A reply naming another instrument (exchange, token or symbol, in any key case) is never used (issue 58, item 5).
 */
import { describe, expect, it } from 'vitest';

import { decodeBrokerReply } from '../../functions/base/broker/reply.js';
import { getQuote } from '../../functions/orders/operations.js';

const json = (body: unknown) => ({ status: 200, contentType: 'application/json', text: JSON.stringify(body) });
const RULES = { token: '1594', tick: '0.05', lot: 1, precision: 2, band: { lc: '1300.00', uc: '1700.00' } };
const INPUT = { exch: 'NSE' as const, tsym: 'INFY-EQ', rules: RULES };

describe('a quote read tolerantly', () => {
  it('reads lp, uc and lc in any key case and as JSON numbers', () => {
    const quote = decodeBrokerReply(
      getQuote,
      json({ request_time: '10:51:02 27-11-2026', stat: 'Ok', LP: 1510.35, Uc: '1650.00', lC: 1350 }),
      INPUT,
    );
    expect(quote).toMatchObject({
      exch: 'NSE',
      tsym: 'INFY-EQ',
      token: '1594',
      lp: '1510.35',
      band: { lc: '1350', uc: '1650.00' },
      tick: '0.05',
      lot: 1,
      precision: 2,
    });
  });

  it("reads the day's open, high, low and previous close, leaving out what the broker gives as 0 or not at all", () => {
    const quote = decodeBrokerReply(
      getQuote,
      json({ stat: 'Ok', lp: '1510.35', o: '1500.00', h: 1520, l: '0.00', c: ' 1495.5 ' }),
      INPUT,
    );
    expect(quote).toMatchObject({ day: { open: '1500.00', high: '1520', close: '1495.5' } });
    expect(quote).not.toHaveProperty('day.low');
    expect(decodeBrokerReply(getQuote, json({ stat: 'Ok', lp: '1510.35' }), INPUT)).not.toHaveProperty('day');
  });

  it('reads the figures the other alert types watch in any key case, as strings or numbers', () => {
    const quote = decodeBrokerReply(
      getQuote,
      json({ stat: 'Ok', lp: '1530', c: '1500', AP: 1512.4, oi: '96248.00', Toi: 9000000, V: '0' }),
      { ...INPUT, exch: 'NFO' as const },
    );
    expect(quote).toMatchObject({
      figures: { changePercent: '2.00', averagePrice: '1512.4', openInterest: '96248', totalOpenInterest: '9000000' },
    });
    // A volume of 0 is a count (nothing traded yet), kept; an average price of 0 is the broker's "none".
    expect(quote).toHaveProperty('figures.volume', '0');
    const none = decodeBrokerReply(getQuote, json({ stat: 'Ok', lp: '1510', ap: '0.00', oi: 'n/a', wk52_h: 0 }), INPUT);
    expect(none).not.toHaveProperty('figures');
  });

  it('reads the 52-week high and low as the live reply names them, and a falling change as negative', () => {
    const quote = decodeBrokerReply(
      getQuote,
      json({ stat: 'Ok', lp: '1470', c: '1500', wk52_h: '1800.00', wk52_l: '1200.50' }),
      INPUT,
    );
    expect(quote).toMatchObject({ figures: { changePercent: '-2.00', week52High: '1800.00', week52Low: '1200.50' } });
  });

  it("keeps the day's band when the quote gives none, or zeros", () => {
    expect(decodeBrokerReply(getQuote, json({ stat: 'Ok', lp: '1510.35' }), INPUT)).toMatchObject({
      band: RULES.band,
    });
    expect(
      decodeBrokerReply(getQuote, json({ stat: 'Ok', lp: '1510.35', uc: '0.00', lc: '0.00' }), INPUT),
    ).toMatchObject({ band: RULES.band });
  });

  it('answers the rules without a price on `no data`, bare or numbered', () => {
    for (const emsg of ['no data', 'Error Occurred : 5 "no data"']) {
      const quote = decodeBrokerReply(getQuote, json({ stat: 'Not_Ok', emsg }), INPUT);
      expect(quote).toMatchObject({ token: '1594', tick: '0.05', lot: 1 });
      expect(quote).not.toHaveProperty('lp');
    }
  });

  it('asks the broker by the instrument token the rules gave', () => {
    expect(getQuote.toJData(INPUT, { uid: 'DEMO01' } as never)).toEqual({ uid: 'DEMO01', exch: 'NSE', token: '1594' });
  });

  it('refuses every caller field but exch and tsym, and both are required', () => {
    expect(getQuote.input.safeParse({ exch: 'NSE', tsym: 'INFY-EQ' }).success).toBe(true);
    for (const bad of [{}, { exch: 'NSE' }, { tsym: 'INFY-EQ' }, { exch: 'XYZ', tsym: 'INFY-EQ' }])
      expect(getQuote.input.safeParse(bad).success).toBe(false);
    expect(getQuote.input.safeParse({ exch: 'NSE', tsym: 'INFY-EQ', rules: RULES }).success).toBe(false);
  });

  it('a reply naming another instrument gives no price and no band of its own, in any key case', () => {
    const other = decodeBrokerReply(
      getQuote,
      json({ stat: 'Ok', Exch: 'NSE', Token: 26000, TSYM: 'Nifty 50', lp: '24584.85', uc: '9', lc: '1' }),
      INPUT,
    ) as Record<string, unknown>;
    expect(other).not.toHaveProperty('lp');
    expect(other).toMatchObject({ token: '1594', band: RULES.band });
    expect(other.priceUnavailable).toBe(
      "the broker's quote for NSE:INFY-EQ named another instrument, NSE:Nifty 50 (token 26000); it was not used (ask again)",
    );
    for (const named of [{ exch: 'BSE' }, { token: '1595' }, { tsym: 'INFY-BE' }])
      expect(decodeBrokerReply(getQuote, json({ stat: 'Ok', lp: '1510', ...named }), INPUT)).not.toHaveProperty('lp');
  });

  it('a reply naming the instrument asked is used: token as a number, symbol in another case', () => {
    const same = decodeBrokerReply(
      getQuote,
      json({ stat: 'Ok', exch: 'nse', token: 1594, tsym: 'infy-eq', lp: '1510.35' }),
      INPUT,
    );
    expect(same).toMatchObject({ lp: '1510.35' });
    expect(same).not.toHaveProperty('priceUnavailable');
  });
});
