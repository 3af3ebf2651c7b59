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
const brokerTime = (text: string | undefined): string => (text ? `${text} IST` : '—');

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

/** Digits grouped the Indian way: the last three, then twos (`2500000` → `25,00,000`). */
const indianGroups = (digits: string): string => {
  if (digits.length <= 3) return digits;
  const head = digits.slice(0, -3);
  return `${head.replace(/\B(?=(\d{2})+$)/g, ',')},${digits.slice(-3)}`;
};

/**
 * Rupees in Indian form: `2500000` → `₹25,00,000`, `1234.5` → `₹1,234.50`; what is not a number (`off`) as given.
 * Paise are shown only when there are any.
 */
export const rupees = (value: string | number | undefined): string => {
  if (value === undefined || value === '') return '—';
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  const sign = n < 0 ? '-' : '';
  const [whole = '0', paise] = Math.abs(n).toFixed(2).split('.');
  return `${sign}₹${indianGroups(whole)}${paise && paise !== '00' ? `.${paise}` : ''}`;
};

/** Large sums in words a trader says: `2500000` → `₹25 lakh`, `15000000` → `₹1.5 crore`; below a lakh, `rupees`. */
export const rupeesInWords = (value: string | number | undefined): string => {
  const n = Number(value);
  if (value === undefined || value === '' || !Number.isFinite(n)) return rupees(value);
  const a = Math.abs(n);
  const sign = n < 0 ? '-' : '';
  const short = (x: number) => String(Number(x.toFixed(2)));
  if (a >= 1e7) return `${sign}₹${short(a / 1e7)} crore`;
  if (a >= 1e5) return `${sign}₹${short(a / 1e5)} lakh`;
  return rupees(n);
};

/** `₹25,00,000 (₹25 lakh)`: the exact sum, and in words when it is a lakh or more. */
export const money = (value: string | number | undefined): string => {
  const exact = rupees(value);
  const words = rupeesInWords(value);
  return words === exact ? exact : `${exact} (${words})`;
};

/**
 * How far a trigger is from the last price, as a trader reads it: `20.00 below (1.32%)`; `at the price` when equal;
 * `—` when either is unknown. The percent is of the last price.
 */
export const distance = (
  last: string | number | undefined,
  trigger: string | number | undefined,
  tick?: string,
): string => {
  const l = Number(last);
  const t = Number(trigger);
  if (last === undefined || trigger === undefined || last === '' || trigger === '') return '—';
  if (!Number.isFinite(l) || !Number.isFinite(t) || l <= 0) return '—';
  const points = t - l;
  const decimals = tickDecimals(tick, String(trigger));
  if (Number(Math.abs(points).toFixed(decimals)) === 0) return 'at the price';
  const pct = ((Math.abs(points) / l) * 100).toFixed(2);
  return `${Math.abs(points).toFixed(decimals)} ${points > 0 ? 'above' : 'below'} (${pct}%)`;
};

/**
 * When a GTT fired, in ms: the API's ISO time, or the broker's own India-time text (`23:37:26 27-11-2026`);
 * undefined when neither.
 */
export const firedAtMs = (text: string | undefined): number | undefined => {
  if (!text) return undefined;
  const m = /^(\d{2}):(\d{2}):(\d{2}) (\d{2})-(\d{2})-(\d{4})$/.exec(text);
  if (m) {
    const [h, mi, s, d, mo, y] = m.slice(1).map(Number) as [number, number, number, number, number, number];
    return Date.UTC(y, mo - 1, d, h, mi, s) - 330 * 60_000;
  }
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : at;
};

/** When a GTT fired, in India time, whichever form the API gave it in. */
export const firedTime = (text: string | undefined): string => {
  const at = firedAtMs(text);
  return at === undefined ? brokerTime(text) : istTime(new Date(at).toISOString());
};
