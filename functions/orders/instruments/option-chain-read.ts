/**
 * `GET /options` (docs/reference/options.md): the day's chain of an index as traders name it, from the account's copy
 * (chain-copy.ts), at the expiry asked (option-pick.ts `pickExpiry`: `nearest` by default, with the expiry-day
 * cutoff), with the index's last price and the ATM strike when its quote can be read now. A quote that cannot be
 * read leaves `ltp` and `atm` out with a note; it never fails the chain.
 */
import { ValidationFailedError } from '../../base/contract/errors.js';
import type { OptionChainInput, OptionChainResult } from '../../base/schemas/option-chain.js';
import { indexKeyOf } from '../../base/schemas/option-plan.js';
import {
  type ChainStrike,
  DEFAULT_EXPIRY_CUTOFF_MINUTES,
  INDEX_NAMES,
  indexNamed,
  type OptionChains,
  OptionPickError,
  pickExpiry,
  strikeStepOf,
} from './option-pick.js';

export interface OptionChainReads {
  chains: OptionChains;
  /** The index's last price (GetQuotes' `lp`), or a failure to be noted. */
  lastPrice: (exch: string, token: string, deadline: number) => Promise<string | undefined>;
  now?: () => number;
  cutoffMinutes?: number;
}

const refused = (message: string, field: string) =>
  new ValidationFailedError(message, { details: [{ field, message }], outcome: 'not_executed' });

/** The listed strike nearest `price` (halfway between two: the lower), as option-pick.ts chooses ATM. */
export const atmOf = (strikes: readonly ChainStrike[], price: number): number | undefined => {
  let atm: number | undefined;
  for (const { strike } of strikes)
    if (atm === undefined || Math.abs(strike - price) < Math.abs(atm - price)) atm = strike;
  return atm;
};

export const readOptionChain = async (
  reads: OptionChainReads,
  input: OptionChainInput,
  deadline: number,
): Promise<OptionChainResult> => {
  const now = reads.now ?? Date.now;
  const index = indexNamed(input.underlying);
  if (!index) throw refused(`underlying must be one of ${Object.keys(INDEX_NAMES).join(', ')}`, 'underlying');
  const name = indexKeyOf(index);
  const expiries = await reads.chains.expiries(index.derivatives, index.symbol, deadline);
  if (!expiries.length)
    throw refused(
      `${name} has no options in today's chain (${index.derivatives}): the InstrumentRefresh has not loaded today's ${index.derivatives} master, or ${index.derivatives} is not among SYMBOL_MASTER_EXCHANGES. Run the InstrumentRefresh (locally: POST /_local/run/InstrumentRefresh), then ask again.`,
      'underlying',
    );
  let expiry: string;
  try {
    expiry = pickExpiry(
      expiries,
      input.expiry ?? 'nearest',
      now(),
      reads.cutoffMinutes ?? DEFAULT_EXPIRY_CUTOFF_MINUTES,
    );
  } catch (error) {
    if (error instanceof OptionPickError) throw refused(error.message, 'expiry');
    throw error;
  }
  const chain = await reads.chains.chain(index.derivatives, index.symbol, expiry, deadline);
  if (!chain)
    throw refused(
      `${name} ${expiry} is listed but its chain is not in today's copy: run the InstrumentRefresh again, then ask again.`,
      'expiry',
    );
  let quote: { ltp: string; atm: number } | { note: string };
  try {
    const ltp = await reads.lastPrice(index.exch, index.token, deadline);
    const atm = ltp === undefined ? undefined : atmOf(chain.strikes, Number(ltp));
    quote =
      ltp !== undefined && atm !== undefined
        ? { ltp, atm }
        : { note: `${index.exch}:${index.tsym} has no last price now: ltp and atm are left out` };
  } catch (error) {
    quote = {
      note: `${index.exch}:${index.tsym}'s quote could not be read (${error instanceof Error ? error.message : String(error)}): ltp and atm are left out`,
    };
  }
  return {
    underlying: { name, exch: index.exch, tsym: index.tsym, token: index.token },
    exch: chain.exch,
    expiries,
    expiry,
    lot: chain.lot,
    tick: chain.tick,
    strikeStep: strikeStepOf(chain.strikes),
    ...quote,
    strikes: chain.strikes,
  };
};
