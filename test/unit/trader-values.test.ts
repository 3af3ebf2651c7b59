/**
 * Values as traders type them (client/cli/trader-values.ts): the command line's table of spellings, held to the
 * gateway's own canonical lists, and the gateway's refusal of a non-canonical value, which names the canonical form.
 */
import { describe, expect, it } from 'vitest';

import { Flags } from '../../client/cli/flags.js';
import {
  ALERT_VALUES,
  canonicalValue,
  defaultAlert,
  EXCHANGE_VALUES,
  PRICE_TYPE_VALUES,
  RETENTION_VALUES,
  SIDE_VALUES,
} from '../../client/cli/trader-values.js';
import {
  ALERT_TYPES,
  EXCHANGES,
  PRICE_TYPES,
  RETENTIONS,
  TRANSACTION_TYPES,
} from '../../functions/base/schemas/fields.js';
import { placeOrderInput } from '../../functions/base/schemas/input.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

describe('the command line reads values as traders type them', () => {
  it("its canonical lists are the gateway's", () => {
    expect(EXCHANGE_VALUES.canonical).toEqual(EXCHANGES);
    expect(SIDE_VALUES.canonical).toEqual(TRANSACTION_TYPES);
    expect(PRICE_TYPE_VALUES.canonical).toEqual(PRICE_TYPES);
    expect(RETENTION_VALUES.canonical).toEqual(RETENTIONS);
    expect(ALERT_VALUES.canonical).toEqual(ALERT_TYPES);
  });

  it.each([
    ['change-above', 'CH_PER_A_O'],
    ['Change-Below', 'CH_PER_B_O'],
    ['atp-above', 'ATP_A_O'],
    ['atp-below', 'ATP_B_O'],
    ['oi-above', 'OI_A_O'],
    ['oi-below', 'OI_B_O'],
    ['total-oi-above', 'TOI_A_O'],
    ['total-oi-below', 'TOI_B_O'],
    ['volume-above', 'VOLUME_A_O'],
    ['52-week-high', 'LTP_A_52HIGH'],
    ['52-week-low', 'LTP_B_52LOW'],
  ])('--alert %s is %s', (typed, meant) => {
    expect(canonicalValue(ALERT_VALUES, typed)).toBe(meant);
  });

  it("--alert volume-below is refused: the day's volume only grows", () => {
    expect(canonicalValue(ALERT_VALUES, 'volume-below')).toBeUndefined();
  });

  it('every alias stands for a canonical value of its own table', () => {
    for (const table of [EXCHANGE_VALUES, SIDE_VALUES, PRICE_TYPE_VALUES, RETENTION_VALUES, ALERT_VALUES])
      for (const [alias, meant] of Object.entries(table.aliases)) {
        expect(table.canonical).toContain(meant);
        expect(alias).toBe(alias.toUpperCase());
      }
  });

  it.each([
    [EXCHANGE_VALUES, 'nse', 'NSE'],
    [EXCHANGE_VALUES, ' Nfo ', 'NFO'],
    [SIDE_VALUES, 'b', 'B'],
    [SIDE_VALUES, 'buy', 'B'],
    [SIDE_VALUES, 'SELL', 'S'],
    [SIDE_VALUES, 's', 'S'],
    [PRICE_TYPE_VALUES, 'lmt', 'LMT'],
    [PRICE_TYPE_VALUES, 'limit', 'LMT'],
    [PRICE_TYPE_VALUES, 'market', 'MKT'],
    [PRICE_TYPE_VALUES, 'sl-m', 'SL-MKT'],
    [PRICE_TYPE_VALUES, 'sl', 'SL-LMT'],
    [RETENTION_VALUES, 'day', 'DAY'],
    [RETENTION_VALUES, 'ioc', 'IOC'],
    [ALERT_VALUES, 'below', 'LTP_B_O'],
    [ALERT_VALUES, 'ltp_a_o', 'LTP_A_O'],
  ] as const)('%#: %j reads %s as %s', (table, typed, canonical) => {
    expect(canonicalValue(table, typed)).toBe(canonical);
  });

  it.each([
    [EXCHANGE_VALUES, 'NSEE'],
    [SIDE_VALUES, 'bought'],
    [SIDE_VALUES, ''],
    [PRICE_TYPE_VALUES, 'stop'],
    [RETENTION_VALUES, 'gtc'],
  ] as const)('%#: %j is none of the table', (table, typed) => {
    expect(canonicalValue(table, typed)).toBeUndefined();
  });

  it('a flag with a value none of the table names what it takes; absent, the fallback', () => {
    const f = new Flags({ side: 'bought', 'price-type': 'lmt' });
    expect(f.choice('price-type', PRICE_TYPE_VALUES)).toBe('LMT');
    expect(f.choice('retention', RETENTION_VALUES, 'DAY')).toBe('DAY');
    f.choice('side', SIDE_VALUES);
    expect(() => f.check()).toThrow('--side must be B or S (also buy, sell), got "bought"');
  });

  it('the default alert fits the side: a buy below its trigger, a sell above', () => {
    expect(defaultAlert('B')).toBe('LTP_B_O');
    expect(defaultAlert('S')).toBe('LTP_A_O');
  });
});

describe('the gateway stays strict and names the canonical form', () => {
  const refusal = (changes: Record<string, unknown>): string => {
    const parsed = placeOrderInput.safeParse({ ...SAMPLE_ORDER, ...changes });
    expect(parsed.success).toBe(false);
    return parsed.error!.issues.map((i) => i.message).join('; ');
  };

  it.each([
    [{ exch: 'nse' }, 'exch must be one of NSE, NFO, BSE, MCX, BFO, CDS, BCD, NCX, NCOM, BSTAR, got "nse": use NSE'],
    [{ trantype: 'buy' }, 'trantype must be one of B, S, got "buy": use B'],
    [{ trantype: 'b' }, 'trantype must be one of B, S, got "b": use B'],
    [{ prctyp: 'lmt' }, 'got "lmt": use LMT'],
    [{ ret: 'day' }, 'ret must be one of DAY, EOS, IOC, got "day": use DAY'],
  ])('%j is refused with the canonical value', (changes, text) => {
    expect(refusal(changes)).toContain(text);
  });

  it("a value that is nobody's spelling is refused with the list alone", () => {
    expect(refusal({ trantype: 'X' })).toBe('trantype must be one of B, S');
  });
});
