import { EXAMPLE_ORDER } from '../../functions/base/schemas/examples.js';

/**
 * The tests' one sample GTT order: a buy of 1 M&M-EQ at 1500 when the price falls to 1490. Frozen, so a test that
 * wants another order spreads it (`{ ...SAMPLE_ORDER, qty: 2 }`) and can never change it for the next test.
 */
export const SAMPLE_ORDER = Object.freeze({ ...EXAMPLE_ORDER });

/** The sample order as a market order (no price), as the 2026 rules' tests send it: `prctyp: 'MKT'`. */
const { prc: _limitPrice, ...unpriced } = SAMPLE_ORDER;
export const SAMPLE_MARKET_ORDER = Object.freeze({ ...unpriced, prctyp: 'MKT' });

/** An OCO exit of the sample order with market legs: a target at 1600 and a stop-loss (SL-MKT, trgprc 1395) at 1400. */
export const SAMPLE_MARKET_OCO = Object.freeze({
  exch: 'NSE',
  tsym: 'M&M-EQ',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'MKT', qty: 1, prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'SL-MKT', qty: 1, prd: 'C', trgprc: '1395' } },
});
