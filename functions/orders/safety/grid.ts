/**
 * Prices on the instrument's tick grid, in exact decimal arithmetic (integers scaled by 10^8, as the market-order
 * protection computes): a plan never sends a price the exchange would refuse when its GTT fires.
 */
const SCALE = 10n ** 8n;

const scaled = (decimal: string): bigint => {
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  const value = BigInt(whole || '0') * SCALE + BigInt((fraction + '00000000').slice(0, 8));
  return negative ? -value : value;
};

const decimalsOf = (tick: string): number => (tick.split('.')[1] ?? '').replace(/0+$/, '').length;

const format = (value: bigint, tick: string): string => {
  const decimals = Math.max(2, decimalsOf(tick));
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const text = `${abs / SCALE}.${(abs % SCALE).toString().padStart(8, '0').slice(0, decimals)}`;
  return negative ? `-${text}` : text;
};

/** A number (a last traded price) as a decimal string of at most 8 places. */
export const decimalOf = (n: number): string => n.toFixed(8).replace(/\.?0+$/, '');

export const onGrid = (price: string, tick: string): boolean => scaled(price) % scaled(tick) === 0n;

/** The two grid prices around an off-grid one: "1500.00 or 1500.05". */
export const nearestOnGrid = (price: string, tick: string): [string, string] => {
  const t = scaled(tick);
  const below = (scaled(price) / t) * t;
  return [format(below, tick), format(below + t, tick)];
};

/** `price` moved down (`-1`) or up (`1`) to the grid: a sell stop's trigger goes down, a buy stop's up. */
export const toGrid = (price: string, tick: string, direction: -1 | 1): string => {
  const t = scaled(tick);
  const p = scaled(price);
  let units = p / t;
  if (direction === 1 && units * t < p) units += 1n;
  if (direction === -1 && units * t > p) units -= 1n;
  return format(units * t, tick);
};

export const add = (a: string, b: string, tick: string): string => format(scaled(a) + scaled(b), tick);
export const sub = (a: string, b: string, tick: string): string => format(scaled(a) - scaled(b), tick);
export const compare = (a: string, b: string): number => {
  const d = scaled(a) - scaled(b);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
};
/** Decimal strings as integers scaled by 10^8, and back (at the tick's decimals, at least 2): exact arithmetic. */
export { format as fromScaled, scaled as toScaled };
export const SCALED_ONE = SCALE;

export const isPositive = (a: string): boolean => scaled(a) > 0n;

/**
 * A price band's width relative to its reference, `(uc - lc) / (uc + lc)` (the ±x of the instrument), applied around
 * `price` and kept inside on the tick grid: `[price * (1 - x), price * (1 + x)]`, the low end moved up and the high
 * end down to the grid. Exact decimal arithmetic.
 */
export const bandAround = (price: string, lc: string, uc: string, tick: string): [string, string] => {
  const p = scaled(price);
  const width = scaled(uc) - scaled(lc);
  const sum = scaled(uc) + scaled(lc);
  const delta = sum > 0n ? (p * width) / sum : 0n;
  return [toGrid(format(p - delta, '0.00000001'), tick, 1), toGrid(format(p + delta, '0.00000001'), tick, -1)];
};

/** A price written with the tick's decimals (at least two): "1500" -> "1500.00". */
export const onTickText = (price: string, tick: string): string => format(scaled(price), tick);
