/** How the console writes times (IST) and prices (in the instrument's tick). */

const IST = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  day: '2-digit',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});

/** An ISO time in India's time: `27 Nov, 23:37:26 IST`; the text as given when it is not a time. */
export const istTime = (iso: string | undefined): string => {
  if (!iso) return '—';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : `${IST.format(at)} IST`;
};

/** The broker's own times (`23:37:26 27-11-2026`) are India's already. */
export const brokerTime = (text: string | undefined): string => (text ? `${text} IST` : '—');

/** Decimals of a tick: `0.05` → 2, `1` → 0; a price's own decimals when the tick is unknown. */
export const tickDecimals = (tick: string | undefined, fallback?: string): number => {
  const from = tick ?? fallback ?? '';
  const dot = from.indexOf('.');
  return dot < 0 ? 0 : from.length - dot - 1;
};

/** A price in the tick's precision: `1490` with tick `0.05` → `1490.00`. */
export const price = (value: string | number | undefined, tick?: string): string => {
  if (value === undefined || value === '') return '—';
  const n = Number(value);
  return Number.isFinite(n) ? n.toFixed(tickDecimals(tick, String(value))) : String(value);
};

export const side = (trantype: string | undefined): string =>
  trantype === 'B' ? 'Buy' : trantype === 'S' ? 'Sell' : (trantype ?? '—');
