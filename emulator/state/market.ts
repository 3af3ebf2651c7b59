/**
 * The market's day-to-day rules the exchange applies when a fired GTT's order reaches it (docs/reference/emulator.md,
 * "Price bands and freeze quantities", has each decision with its source):
 * - today's price band around the previous close (GetQuotes `uc`, `lc`): NSE's dynamic band of the F&O stocks listed
 *   here starts at ±10%, the ETFs here ±20%, index futures ±10% (their operating range), index options a wide ±40%
 *   (the exchange computes each option's range from a theoretical price: one wide width stands in). A symbol's
 *   previous close is the start table's (prices.ts, with `prices: 'start'`) or what the control surface sets
 *   (`POST /_emulator/ltp` with `close`); a symbol without one has no band (GetQuotes answers no `uc`/`lc`, and
 *   nothing is refused for it);
 * - the freeze quantity of index derivatives (GetSecurityInfo `frzqty`): NSE's quantity freeze limits of the
 *   circular of 2025-10-31, effective 2025-11-03. Equities have none here, nor SENSEX's options (BSE's limit is not
 *   evidenced here: GetSecurityInfo gives no `frzqty` for them).
 */
import { indexInstrument } from './indices.js';
import { type INDEX_UNDERLYINGS, indexContractOf, instrumentRules, isEtf } from './symbols.js';

/** NSE's quantity freeze limits of index derivatives (units, futures and options alike). */
export const INDEX_FREEZE_QUANTITIES: Readonly<Record<(typeof INDEX_UNDERLYINGS)[number], number>> = {
  NIFTY: 1800,
  BANKNIFTY: 600,
  FINNIFTY: 1800,
  MIDCPNIFTY: 2800,
};
/** The date of the NSE circular the freeze quantities come from (effective 2025-11-03). */
export const INDEX_FREEZE_QUANTITIES_AS_OF = '2025-10-31';

/** The band's width in percent of the previous close, or undefined for a symbol without one (an index has none). */
export const bandPercentOf = (exch: string, tsym: string): number | undefined => {
  if (indexInstrument(exch, tsym)) return undefined;
  const contract = indexContractOf(exch, tsym);
  if (contract) return contract.future ? 10 : 40;
  if (exch === 'NSE' || exch === 'BSE') return isEtf(exch, tsym) ? 20 : 10;
  return undefined;
};

const SCALE = 10_000;

/** Today's band `[lc, uc]` around `close`, on the tick (the low end up, the high end down), as the broker writes it. */
export const priceBandOf = (exch: string, tsym: string, close: number): { lc: string; uc: string } | undefined => {
  const percent = bandPercentOf(exch, tsym);
  if (percent === undefined || !(close > 0)) return undefined;
  const tick = Math.round(Number(instrumentRules(exch, tsym).ti) * SCALE);
  const c = Math.round(close * SCALE);
  const lc = Math.ceil((c * (100 - percent)) / 100 / tick) * tick;
  const uc = Math.floor((c * (100 + percent)) / 100 / tick) * tick;
  return { lc: (lc / SCALE).toFixed(2), uc: (uc / SCALE).toFixed(2) };
};

/** The freeze quantity of an instrument, or undefined (none here). */
export const freezeQuantityOf = (exch: string, tsym: string): number | undefined => {
  const contract = indexContractOf(exch, tsym);
  return contract && contract.underlying in INDEX_FREEZE_QUANTITIES
    ? INDEX_FREEZE_QUANTITIES[contract.underlying as keyof typeof INDEX_FREEZE_QUANTITIES]
    : undefined;
};

/**
 * The exchange's refusal of a fired order (the order book's `rejreason`) whose limit price lies outside today's band
 * or whose quantity is above the freeze quantity, or undefined. A market order has no price to check.
 */
export const marketRefusal = (
  exch: string,
  tsym: string,
  terms: { prc: string; qty: number; prctyp: string },
  close: number | undefined,
): string | undefined => {
  const freeze = freezeQuantityOf(exch, tsym);
  if (freeze !== undefined && terms.qty > freeze)
    return `Order quantity ${terms.qty} exceeds the freeze quantity ${freeze} of ${tsym}`;
  const market = terms.prctyp === 'MKT' || terms.prctyp === 'SL-MKT';
  const band = close === undefined ? undefined : priceBandOf(exch, tsym, close);
  if (market || !band) return undefined;
  const price = Number(terms.prc);
  if (price < Number(band.lc) || price > Number(band.uc))
    return `Order price ${terms.prc} is outside the day's price band ${band.lc} - ${band.uc} of ${tsym}`;
  return undefined;
};
