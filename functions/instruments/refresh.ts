/**
 * The scheduled refresh of the account's copy (InstrumentRefresh, before the market opens; docs/explanation/exchange-rules.md):
 *
 *   1. each exchange's symbol master (master.ts) is fetched and its rows written as today's instruments (copy.ts),
 *      and its options as today's chains, one per underlying (chain.ts; docs/reference/options.md);
 *   2. for each symbol the account has in use (pending GTTs, live plans: the caller says which), today's band and
 *      freeze quantity are read from the broker (GetQuotes, GetSecurityInfo; SearchScrip first only for a symbol the
 *      day's masters do not list) and written to its item,
 *
 * so the first order of the day for those symbols makes no broker call and one GetItem. A master that cannot be read
 * and a symbol whose market cannot be read are reported and skipped, never guessed: the order path then reads the
 * broker itself once that day.
 */
import type { BrokerCallDeps } from '../base/broker/call-broker.js';
import { instrumentRules } from '../base/broker/instruments.js';
import { freezeQuantity, priceBand } from '../base/broker/market.js';
import { indiaDay } from '../base/schemas/india-time.js';
import type { CopiedRules, InstrumentCopy } from '../orders/instruments/copy.js';
import { type ChainLoad, loadChains } from './chain.js';
import { fetchMaster, type MasterRow } from './master.js';
import { loadMaster } from './master-load.js';

export interface RefreshDeps {
  copy: InstrumentCopy;
  broker: BrokerCallDeps;
  /** The exchanges whose masters are loaded. */
  exchanges: readonly string[];
  /** Where an exchange's master is (master.ts `masterUrl`). */
  masterUrl: (exch: string) => string;
  /** The account's symbols in use. */
  symbolsInUse: () => Promise<readonly { exch: string; tsym: string }[]>;
  timeoutMs: number;
  now?: () => number;
  fetchImpl?: typeof fetch;
}

export interface RefreshRun {
  day: string;
  masters: (
    { exch: string; rows: number; skipped: number; bytes: number; chains: ChainLoad } | { exch: string; error: string }
  )[];
  inUse: { refreshed: string[]; failed: { instrument: string; error: string }[] };
}

const IN_FLIGHT = 4;
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export const refreshInstruments = async (deps: RefreshDeps): Promise<RefreshRun> => {
  const now = deps.now ?? Date.now;
  const day = indiaDay(now());
  const listed = new Map<string, MasterRow>();
  const masters: RefreshRun['masters'] = [];
  for (const exch of deps.exchanges) {
    try {
      const master = await fetchMaster(deps.masterUrl(exch), deps.timeoutMs, deps.fetchImpl);
      const rows = master.rows.filter((row) => row.exch === exch);
      await loadMaster(deps.copy, rows, day, now());
      const chains = await loadChains(deps.copy, rows, day, now());
      for (const row of rows) listed.set(`${row.exch}|${row.tsym}`, row);
      masters.push({
        exch,
        rows: rows.length,
        skipped: master.skipped + master.rows.length - rows.length,
        bytes: master.bytes,
        chains,
      });
    } catch (error) {
      masters.push({ exch, error: message(error) });
    }
  }

  const symbols = [...new Map((await deps.symbolsInUse()).map((s) => [`${s.exch}|${s.tsym}`, s])).values()];
  const refreshed: string[] = [];
  const failed: RefreshRun['inUse']['failed'] = [];
  const refreshOne = async ({ exch, tsym }: { exch: string; tsym: string }) => {
    try {
      const row = listed.get(`${exch}|${tsym}`);
      const instrument = row
        ? { ...row, from: 'symbol master' as const }
        : { ...(await instrumentRules(exch, tsym, deps.broker, now)), from: 'SearchScrip' as const };
      const [band, freeze] = await Promise.all([
        priceBand(exch, instrument.token, deps.broker, now),
        freezeQuantity(exch, instrument.token, deps.broker, now),
      ]);
      const { token, tick, lot, precision, from } = instrument;
      const rules: CopiedRules = { exch, tsym, token, tick, lot, precision, day, from };
      await deps.copy.save({ ...rules, market: { day, band, freeze, at: new Date(now()).toISOString() } }, now());
      refreshed.push(`${exch}:${tsym}`);
    } catch (error) {
      failed.push({ instrument: `${exch}:${tsym}`, error: message(error) });
    }
  };
  for (let i = 0; i < symbols.length; i += IN_FLIGHT)
    await Promise.all(symbols.slice(i, i + IN_FLIGHT).map(refreshOne));
  return { day, masters, inUse: { refreshed, failed } };
};
