/** The CLI flags of one order and one OCO, as a trader types them; the CLI tests share them. */

/** Buy 1 M&M-EQ at 1500 when the price reaches 1490. */
export const CLI_ORDER: readonly string[] =
  '--exch NSE --tsym M&M-EQ --qty 1 --price 1500 --product C --side B --price-type LMT --retention DAY --alert LTP_B_O --trigger 1490'.split(
    ' ',
  );

/** Sell 2 INFY-EQ: target at 1600, stop at 1400 (limit 1390), tagged. */
export const CLI_OCO: readonly string[] =
  '--exch NSE --tsym INFY-EQ --side S --qty 2 --product C --target-trigger 1600 --target-price 1600 --stop-trigger 1400 --stop-price 1390 --tag exit-infy'.split(
    ' ',
  );
