/**
 * The day's option chains from the symbol master's rows (master.ts), written into the instruments' copy by the daily
 * refresh (refresh.ts) in the items of orders/instruments/chain-items.ts (docs/reference/options.md, "The chain").
 * Only options make a chain: rows of instrument OPTIDX or OPTSTK with option type CE or PE, a strike and an expiry;
 * they are grouped by the master's Symbol (`NIFTY`) and expiry, and the lot and tick of an expiry are its first
 * contract's. A later row for a strike and side already seen is ignored (the master lists each once).
 */
import { CHAIN_ITEM_MAX_BYTES, chainExpiryItem, chainIndexItem } from '../orders/instruments/chain-items.js';
import type { InstrumentCopy } from '../orders/instruments/copy.js';
import type { ChainExpiry } from '../orders/instruments/option-pick.js';
import type { MasterRow } from './master.js';
import { writeItems } from './master-load.js';

const OPTIONS = new Set(['OPTIDX', 'OPTSTK']);

/** The chains the rows of one exchange's master list, by underlying, each underlying's expiries ascending. */
export const chainsOf = (rows: readonly MasterRow[]): Map<string, ChainExpiry[]> => {
  const byExpiry = new Map<string, ChainExpiry & { at: Map<number, ChainExpiry['strikes'][number]> }>();
  for (const row of rows) {
    if (!row.instrument || !OPTIONS.has(row.instrument) || !row.optionType || !row.strike || !row.expiry) continue;
    const underlying = row.symbol;
    if (!underlying) continue;
    const key = `${row.exch}|${underlying}|${row.expiry}`;
    let chain = byExpiry.get(key);
    if (!chain) {
      chain = {
        underlying,
        exch: row.exch,
        expiry: row.expiry,
        lot: row.lot,
        tick: row.tick,
        strikes: [],
        at: new Map(),
      };
      byExpiry.set(key, chain);
    }
    let strike = chain.at.get(row.strike);
    if (!strike) {
      strike = { strike: row.strike };
      chain.at.set(row.strike, strike);
    }
    strike[row.optionType] ??= { tsym: row.tsym, token: row.token };
  }
  const chains = new Map<string, ChainExpiry[]>();
  for (const { at, ...chain } of byExpiry.values()) {
    const strikes = [...at.values()].sort((a, b) => a.strike - b.strike);
    const key = `${chain.exch}|${chain.underlying}`;
    chains.set(key, [...(chains.get(key) ?? []), { ...chain, strikes }]);
  }
  for (const list of chains.values()) list.sort((a, b) => a.expiry.localeCompare(b.expiry));
  return chains;
};

export interface ChainLoad {
  underlyings: number;
  expiries: number;
  /** Expiries not written: their item would be above CHAIN_ITEM_MAX_BYTES. */
  tooLarge: string[];
}

/** Writes the rows' chains as today's: each expiry's item, then each underlying's list of the expiries written. */
export const loadChains = async (
  copy: InstrumentCopy,
  rows: readonly MasterRow[],
  day: string,
  now = Date.now(),
): Promise<ChainLoad> => {
  const chains = chainsOf(rows);
  const expiryItems = [];
  const indexItems = [];
  const tooLarge: string[] = [];
  for (const list of chains.values()) {
    const written: string[] = [];
    for (const chain of list) {
      const item = chainExpiryItem(chain, day, now);
      if (Buffer.byteLength(item.strikes!.S!) > CHAIN_ITEM_MAX_BYTES) {
        tooLarge.push(`${chain.exch}:${chain.underlying}:${chain.expiry}`);
        continue;
      }
      expiryItems.push(item);
      written.push(chain.expiry);
    }
    const { exch, underlying } = list[0]!;
    if (written.length) indexItems.push(chainIndexItem(exch, underlying, written, day, now));
  }
  // The expiries first: a list never names an expiry whose chain is not there yet.
  await writeItems(copy, expiryItems);
  await writeItems(copy, indexItems);
  return { underlyings: indexItems.length, expiries: expiryItems.length, tooLarge };
};
