/**
 * close_position (write-tools.ts): its preview's line, from the gateway's dry run of `POST /positions/close`
 * (functions/risk/close.ts `closeDryRun`: the position read now, the side that closes it, the quantity, the protected
 * limit from the last price). "About": the confirm decides the price again from the last price then.
 */
import { rupeesAndPaise as inr } from '../functions/base/schemas/assistant-limits.js';

type Fields = Record<string, unknown>;

/** "Sell 5 INFY-EQ (NSE, I) at a protected limit about ₹1,498.50 to close a long of 5", or undefined. */
export const closeSummary = (dryRun: Fields | undefined): string | undefined => {
  const c = dryRun?.close as Fields | undefined;
  if (!c) return undefined;
  const held = Math.abs(Number(c.netQty));
  const left = held - Number(c.qty);
  return `${c.trantype === 'B' ? 'Buy' : 'Sell'} ${String(c.qty)} ${String(c.tsym)} (${String(c.exch)}, ${String(c.prd)}) at a protected limit about ${inr(Number(c.prc))} to close a ${Number(c.netQty) > 0 ? 'long' : 'short'} of ${held}${left > 0 ? ` (${left} stay open)` : ''}.`;
};
