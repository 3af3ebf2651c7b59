/**
 * The tests' one sample GTT order: a buy of 1 M&M-EQ at 1500 when the price falls to 1490. Frozen, so a test that
 * wants another order spreads it (`{ ...SAMPLE_ORDER, qty: 2 }`) and can never change it for the next test.
 */
export const SAMPLE_ORDER = Object.freeze({
  exch: 'NSE',
  tsym: 'M&M-EQ',
  qty: 1,
  prc: '1500',
  prd: 'C',
  trantype: 'B',
  prctyp: 'LMT',
  ret: 'DAY',
  ai_t: 'LTP_B_O',
  d: '1490',
});
