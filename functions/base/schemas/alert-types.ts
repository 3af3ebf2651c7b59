/**
 * The single GTT's alert types (`ai_t`) and what its trigger value `d` means for each (docs/explanation/broker-wire.md,
 * "Alert types"). `LTP_B_O` is the value the spec shows; the others are the family's clients' (medium confidence).
 * A price type's `d` is a price on the instrument's tick and the exchange's rules (tick, band) apply to it; a percent
 * (`CH_PER_*`) is a signed decimal; a count (`OI_*`, `TOI_*`, `VOLUME_*`) a whole number. Suffix `A` fires at or
 * above `d`, `B` at or below.
 */
export const ALERT_TYPES = [
  'LTP_A_O',
  'LTP_B_O',
  'CH_PER_A_O',
  'CH_PER_B_O',
  'ATP_A_O',
  'ATP_B_O',
  'OI_A_O',
  'OI_B_O',
  'TOI_A_O',
  'TOI_B_O',
  'VOLUME_A_O',
  'LTP_A_52HIGH',
  'LTP_B_52LOW',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

/** What `d` measures: a price, a percentage change from the previous close, or a count (contracts, shares). */
export type AlertMeasure = 'price' | 'percent' | 'count';

export const alertMeasureOf = (alertType: string): AlertMeasure =>
  alertType.startsWith('CH_PER_') ? 'percent' : /^(OI|TOI|VOLUME)_/.test(alertType) ? 'count' : 'price';

/** Whether `d` is a price, so that the exchange's rules (tick, band) and price-based guards apply to it. */
export const isPriceAlert = (alertType: unknown): boolean =>
  typeof alertType !== 'string' || alertType === '' || alertMeasureOf(alertType) === 'price';

/** Exchanges of cash equities: no open interest there. */
const CASH_EXCHANGES: readonly string[] = ['NSE', 'BSE'];
/** The largest percentage change taken: far beyond any day's move, small enough to catch a typo. */
const PERCENT_MAX = 1000;
const SIGNED_DECIMAL = /^-?(0|[1-9]\d{0,11})(\.\d{1,8})?$/;
const PERCENT = /^-?(0|[1-9]\d{0,3})(\.\d{1,2})?$/;
const WHOLE = /^[1-9]\d{0,14}$/;

/** `d` as sent: a JSON number or numeric string, trimmed; a sign is allowed here and judged per type below. */
export const triggerText = (value: unknown): string | undefined => {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value).trim();
  return SIGNED_DECIMAL.test(text) ? text : undefined;
};

/** Why `d` does not suit the alert type (undefined when it does); each message names the way forward. */
export const triggerProblem = (alertType: string, d: string, exch: string, prctyp: string): string | undefined => {
  const measure = alertMeasureOf(alertType);
  if (measure !== 'price' && (prctyp === 'MKT' || prctyp === 'SL-MKT'))
    return `a ${alertType} trigger is not a price, so a market order (${prctyp}) has no price to protect or value it by: send prctyp LMT with a limit prc`;
  if (measure === 'percent') {
    const n = Number(d);
    if (!PERCENT.test(d) || n <= -100 || n > PERCENT_MAX)
      return `d of ${alertType} is a percentage change from the previous close, above -100 and at most ${PERCENT_MAX} with at most 2 decimals (e.g. 2.5 or -3), got ${JSON.stringify(d)}`;
    return undefined;
  }
  if (measure === 'count') {
    if (/^(T?OI)_/.test(alertType) && CASH_EXCHANGES.includes(exch))
      return `${alertType} watches open interest, which ${exch} cash equities do not have: use a derivative (NFO, BFO, MCX, CDS...) or VOLUME_A_O`;
    if (!WHOLE.test(d))
      return `d of ${alertType} is a count (${alertType.startsWith('VOLUME') ? 'shares or contracts traded' : 'open contracts'}): a positive whole number such as 150000, got ${JSON.stringify(d)}`;
    return undefined;
  }
  if (d.startsWith('-'))
    return `d must be a plain non-negative decimal number (no sign, exponent or more than 8 decimals), got ${JSON.stringify(d)}`;
  if (Number(d) <= 0) return 'd (trigger value) must be greater than 0';
  return undefined;
};
