/**
 * `gtt chain NIFTY`: the day's option chain of an index as traders name it (`GET /options`): its listed expiries,
 * the one shown (`--expiry nearest`, the default; `next-month`; or a listed date), the lot and the strike step, and a
 * table of `--strikes N` strikes either side of ATM (default 10) with each strike's CE and PE symbol, ATM marked.
 * Without the index's price now (no ATM), the middle of the listed strikes is shown. With `--json`: the route's
 * answer, its strikes those shown.
 */
import type { OptionChain, OptionChainQuery } from '../../types.js';
import { command, may } from '../command.js';

/** The strikes `around` either side of ATM (or of the middle, without a price). */
export const strikesAround = (chain: OptionChain, around: number): OptionChain['strikes'] => {
  const at = chain.atm === undefined ? -1 : chain.strikes.findIndex((s) => s.strike === chain.atm);
  const middle = at >= 0 ? at : Math.floor(chain.strikes.length / 2);
  return chain.strikes.slice(Math.max(0, middle - around), middle + around + 1);
};

export const chainText = (chain: OptionChain): string => {
  const rows = chain.strikes;
  const width = Math.max(4, ...rows.map((s) => (s.CE?.tsym ?? '-').length));
  const table = rows.map((s) => {
    const mark = s.strike === chain.atm ? '>' : ' ';
    return `${mark} ${(s.CE?.tsym ?? '-').padEnd(width)}  ${String(s.strike).padStart(8)}  ${s.PE?.tsym ?? '-'}${s.strike === chain.atm ? '   ATM' : ''}`;
  });
  return [
    `${chain.underlying.name} (${chain.underlying.exch}:${chain.underlying.tsym})  options on ${chain.exch}`,
    `expiries  ${chain.expiries.map((e) => (e === chain.expiry ? `[${e}]` : e)).join('  ')}`,
    `expiry ${chain.expiry}  lot ${chain.lot}  tick ${chain.tick}  strike step ${chain.strikeStep}`,
    chain.ltp === undefined ? `price     ${chain.note ?? 'none now'}` : `price     ${chain.ltp}  ATM ${chain.atm}`,
    '',
    `  ${'CE'.padEnd(width)}  ${'strike'.padStart(8)}  PE`,
    ...table,
    `(${rows.length} strikes around ${chain.atm === undefined ? 'the middle' : 'ATM'}; --strikes N for more either side)`,
  ].join('\n');
};

export const chain = command({
  name: 'chain',
  args: ['underlying'],
  flags: [may('expiry', 'nearest|next-month|DATE'), may('strikes', 'N')],
  summary:
    "the day's option chain of an index (NIFTY, BANKNIFTY, FINNIFTY, MIDCPNIFTY, SENSEX): expiries, lot, strike step and the strikes around ATM with their CE and PE (--strikes: 10 either side unless given)",
  input: (f, args): { query: OptionChainQuery; around: number } => {
    const expiry = f.str('expiry');
    return {
      query: { underlying: args[0] ?? '', ...(expiry === undefined ? {} : { expiry }) },
      around: f.positiveInt('strikes') ?? 10,
    };
  },
  run: async ({ client, callOptions }, { query, around }): Promise<OptionChain> => {
    const chain = await client.optionChain(query, callOptions);
    return { ...chain, strikes: strikesAround(chain, around) };
  },
  render: chainText,
});
