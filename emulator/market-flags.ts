/**
 * The market's flags, shared by `npm run emulator` (main.ts) and `npm start` (local/start.ts):
 * `--prices start|none`, `--market still|walk`, `--walk-interval SECONDS`, `--seed N` (docs/reference/emulator.md, "The market").
 */
import { DEFAULT_WALK_INTERVAL_MS, MARKET_MODES, type MarketOptions } from './server.js';
import { START_PRICES, type StartPrices } from './state/prices.js';

export const MARKET_USAGE = `[--prices start|none (default start: every shipped symbol has a price and a band)]
    [--market still|walk (walk: a seeded random walk of every priced symbol; default still)] [--walk-interval SECONDS (default ${DEFAULT_WALK_INTERVAL_MS / 1_000})] [--seed N]`;

/** parseArgs options of the market's flags. */
export const MARKET_FLAGS = {
  prices: { type: 'string' },
  market: { type: 'string' },
  'walk-interval': { type: 'string' },
  seed: { type: 'string' },
} as const;

/** The market options the flags give (prices `start` when not named), or the problem with them. */
export const marketOptionsOf = (values: {
  prices?: string | undefined;
  market?: string | undefined;
  'walk-interval'?: string | undefined;
  seed?: string | undefined;
}): MarketOptions | { problem: string } => {
  const prices = values.prices ?? 'start';
  if (!(START_PRICES as readonly string[]).includes(prices))
    return { problem: `--prices must be start or none, got ${JSON.stringify(prices)}` };
  const market = values.market ?? 'still';
  if (!(MARKET_MODES as readonly string[]).includes(market))
    return { problem: `--market must be still or walk, got ${JSON.stringify(market)}` };
  const seconds = values['walk-interval'] === undefined ? undefined : Number(values['walk-interval']);
  if (seconds !== undefined && !(Number.isFinite(seconds) && seconds >= 0.05 && seconds <= 3_600))
    return {
      problem: `--walk-interval must be seconds from 0.05 to 3600, got ${JSON.stringify(values['walk-interval'])}`,
    };
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !(Number.isSafeInteger(seed) && /^-?\d+$/.test(values.seed!)))
    return { problem: `--seed must be a whole number, got ${JSON.stringify(values.seed)}` };
  return {
    prices: prices as StartPrices,
    market: market as 'still' | 'walk',
    ...(seconds === undefined ? {} : { walkIntervalMs: Math.round(seconds * 1_000) }),
    ...(seed === undefined ? {} : { seed }),
  };
};
