/**
 * A symbol master text with options, in the family's NFO shape (docs/reference/options.md), for the chain's tests:
 * NIFTY's futures and two expiries of calls and puts, a stock's options, and rows that make no chain.
 */
const HEADER = 'Exchange,Token,LotSize,Symbol,TradingSymbol,Expiry,Instrument,OptionType,StrikePrice,TickSize,';

/** `08-DEC-2026` of a `YYYY-MM-DD` date. */
export const masterExpiry = (date: string): string => {
  const months = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
  const [y, m, d] = date.split('-');
  return `${d}-${months[Number(m) - 1]}-${y}`;
};

/** NIFTY's options of `expiries` (ascending), strikes from..to by step, tokens from `firstToken`. */
export const optionMaster = (
  expiries: readonly string[],
  options: { from?: number; to?: number; step?: number; firstToken?: number } = {},
): string => {
  const { from = 24_000, to = 25_000, step = 50 } = options;
  let token = options.firstToken ?? 70_000;
  const lines = [HEADER];
  for (const expiry of expiries) {
    const short = `${expiry.slice(8, 10)}${masterExpiry(expiry).slice(3, 6)}${expiry.slice(2, 4)}`;
    lines.push(`NFO,${(token += 1)},65,NIFTY,NIFTY${short}F,${masterExpiry(expiry)},FUTIDX,XX,-0.01,0.05,`);
    for (let strike = from; strike <= to; strike += step)
      for (const type of ['CE', 'PE'] as const)
        lines.push(
          `NFO,${(token += 1)},65,NIFTY,NIFTY${short}${type[0]}${strike},${masterExpiry(expiry)},OPTIDX,${type},${strike}.00,0.05,`,
        );
  }
  // A stock's option (its own chain) and a row of another exchange's shape in the file (no chain of its own).
  lines.push(
    `NFO,${(token += 1)},250,INFY,INFY${expiries[0]!.slice(8, 10)}DEC26C1500,${masterExpiry(expiries[0]!)},OPTSTK,CE,1500.00,0.05,`,
  );
  return `${lines.join('\r\n')}\r\n`;
};
