/**
 * The operation table's example inputs (its entries' `example`): valid inputs the tests, the bench, the OpenAPI
 * document and the workflow example spread, so a new field needs one edit.
 *
 * A buy of one M&M at 1500 when the price falls to 1490, its OCO exit, and an order number for the entries that
 * take one.
 */
export const EXAMPLE_AL_ID = '26112300000001';
export const EXAMPLE_ORDER = {
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
} as const;
export const EXAMPLE_OCO = {
  exch: 'NSE',
  tsym: 'M&M-EQ',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1600', prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1395', prd: 'C' } },
};
