/**
 * The prices the emulator's market starts with and how its seeded walk moves them (docs/reference/emulator.md, "The market").
 * Deterministic: the start table is fixed, the walk draws from a seeded generator, so a run with the same seed and
 * the same requests sees the same prices.
 */
import { indexInstrument, indexOfUnderlying, INDICES, parseIndexContract } from './indices.js';
import { priceBandOf } from './market.js';
import { contractPriceAt } from './option-model.js';
import { instrumentRules, LISTED_EQUITIES } from './symbols.js';

/** Whether the emulator starts with a price for every symbol it ships (`start`) or none (`none`). */
export type StartPrices = 'start' | 'none';
export const START_PRICES: readonly StartPrices[] = ['start', 'none'];

/**
 * Each company's previous close at start, in rupees: round sandbox figures, not market data. The same price on NSE
 * (`<NAME>-EQ`) and BSE. The symbols the docs' and tests' examples use start near their figures (M&M and INFY 1500,
 * WIPRO 1450, RELIANCE 2500, TCS 3500, SBIN 800, L&TFH 160), so an example's order lies inside the day's band.
 */
const COMPANY_CLOSES: Readonly<Record<string, number>> = {
  RELIANCE: 2500,
  TCS: 3500,
  INFY: 1500,
  HDFCBANK: 985,
  ICICIBANK: 1380,
  SBIN: 800,
  'M&M': 1500,
  'L&TFH': 160,
  WIPRO: 1450,
  ITC: 410,
  LT: 3900,
  AXISBANK: 1180,
  KOTAKBANK: 2120,
  BHARTIARTL: 1980,
  HINDUNILVR: 2450,
  TATASTEEL: 168,
  BAJFINANCE: 1010,
  MARUTI: 15800,
  SUNPHARMA: 1720,
  HCLTECH: 1610,
  ONGC: 242,
  NTPC: 335,
  POWERGRID: 290,
  ASIANPAINT: 2380,
  TITAN: 3650,
  ULTRACEMCO: 11900,
  ADANIENT: 2410,
  COALINDIA: 385,
  JSWSTEEL: 1140,
  IDEA: 9.5,
  NIFTYBEES: 285,
  BANKBEES: 590,
  GOLDBEES: 98,
};

const SCALE = 10_000;
/** A price on the instrument's tick (nearest), never below one tick. */
const onTick = (exch: string, tsym: string, price: number): number => {
  const tick = Math.round(Number(instrumentRules(exch, tsym).ti) * SCALE);
  return Math.max(tick, Math.round((price * SCALE) / tick) * tick) / SCALE;
};

/**
 * A listed symbol's previous close at start (the day opens there), or undefined for a symbol with none (unlisted).
 * An index: its start level. An index contract: its model price (option-model.ts) at its index's start level, `now`.
 */
export const startCloseOf = (exch: string, tsym: string, now: Date): number | undefined => {
  const index = indexInstrument(exch, tsym);
  if (index) return onTick(exch, tsym, index.level);
  if (exch === 'NSE' || exch === 'BSE') {
    if (!LISTED_EQUITIES[exch].includes(tsym)) return undefined;
    const close = COMPANY_CLOSES[exch === 'NSE' ? tsym.replace(/-EQ$/, '') : tsym];
    return close === undefined ? undefined : onTick(exch, tsym, close);
  }
  const contract = parseIndexContract(exch, tsym);
  return contract ? contractPriceAt(contract, indexOfUnderlying(contract.underlying)!.level, now) : undefined;
};

/** Every shipped equity and index, the symbols a `start` market opens with (index contracts are priced when named). */
export const startSymbols = (): { exch: string; tsym: string }[] => [
  ...INDICES.map((i) => ({ exch: i.exch, tsym: i.tsym })),
  ...(['NSE', 'BSE'] as const).flatMap((exch) => LISTED_EQUITIES[exch].map((tsym) => ({ exch, tsym }))),
];

/** A seeded generator of numbers in [0, 1) (mulberry32): the same seed, the same walk. */
export const seededRandom = (seed: number): (() => number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};

/**
 * One step of the walk: up or down by a whole number of ticks, about 0.1% of the price at most (at least one tick),
 * kept inside today's band when the symbol has one (around `close`) and never below one tick.
 */
export const walkStep = (
  exch: string,
  tsym: string,
  price: number,
  close: number | undefined,
  random: () => number,
): number => {
  const tick = Math.round(Number(instrumentRules(exch, tsym).ti) * SCALE);
  const p = Math.round(price * SCALE);
  const most = Math.max(1, Math.round(p / 1000 / tick));
  const ticks = Math.floor(random() * (2 * most + 1)) - most;
  let next = p + ticks * tick;
  const band = close === undefined ? undefined : priceBandOf(exch, tsym, close);
  if (band) next = Math.min(Math.round(Number(band.uc) * SCALE), Math.max(Math.round(Number(band.lc) * SCALE), next));
  return Math.max(tick, next) / SCALE;
};
