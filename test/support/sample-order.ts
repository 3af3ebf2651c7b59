import { EXAMPLE_ORDER } from '../../functions/schemas/examples.js';

/**
 * The tests' one sample GTT order: a buy of 1 M&M-EQ at 1500 when the price falls to 1490. Frozen, so a test that
 * wants another order spreads it (`{ ...SAMPLE_ORDER, qty: 2 }`) and can never change it for the next test.
 */
export const SAMPLE_ORDER = Object.freeze({ ...EXAMPLE_ORDER });
