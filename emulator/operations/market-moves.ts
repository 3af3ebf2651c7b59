/**
 * The market's prices (docs/reference/emulator.md, "The market"): the start's, a move by hand (`POST /_emulator/ltp`), a step
 * of the seeded walk, a price cleared; each move fills the resting limit orders it reaches and fires the GTTs whose
 * trigger it meets, and is kept in the day's series (`TPSeries`).
 */
import type { MarketFigures } from '../state/alert-rules.js';
import { SERIES_INTERVALS } from '../state/day-series.js';
import { decodeSymbol, instrumentToken } from '../state/formats.js';
import { indexInstrument, indexOfUnderlying, parseIndexContract } from '../state/indices.js';
import { priceBandOf } from '../state/market.js';
import { contractPriceAt } from '../state/option-model.js';
import { type BookOrder } from '../state/order-book.js';
import { type Json, Refusal, requireString } from '../state/orders.js';
import { startCloseOf, startSymbols, walkStep } from '../state/prices.js';
import { ltpKey } from '../state/state.js';
import type { OperationContext } from '../state/switches.js';
import { masterSymbolOf } from '../state/symbol-master.js';
import { isListedSymbol } from '../state/symbols.js';
import { uncrossed, withWeek52 } from '../state/week52.js';
import { type EmulatorReply, json, notOk } from '../wire/reply.js';
import { fireAtPrice, type FiredOrder } from './gtt-operations.js';

/** What one price did: the GTTs it fired and the resting orders it filled (their numbers). */
export interface PriceMove {
  fired: FiredOrder[];
  filled: { norenordno: string; al_id: string; avgprc: string }[];
}

const filledOf = (orders: BookOrder[]) =>
  orders.map((o) => ({ norenordno: o.norenordno, al_id: o.al_id, avgprc: o.prc }));

/** A price of the market: resting orders it reaches fill, then GTTs whose trigger it meets fire; kept in the series. */
const move = (ctx: OperationContext, exch: string, tsym: string, ltp: number): PriceMove => {
  ctx.state.series.record(ltpKey(exch, tsym), ctx.now(), ltp);
  const filled = ctx.book.matchResting(exch, tsym, ltp, ctx.now());
  return { fired: fireAtPrice(ctx, exch, tsym, ltp), filled: filledOf(filled) };
};

/** Both moves' fired GTTs and filled orders, in order. */
const joined = (a: PriceMove, b: PriceMove): PriceMove => ({
  fired: [...a.fired, ...b.fired],
  filled: [...a.filled, ...b.filled],
});

/** A price outside the band of a start close starts a new day there (the close becomes the price). */
const newDayIfOutside = (ctx: OperationContext, exch: string, tsym: string, price: number): void => {
  const key = ltpKey(exch, tsym);
  if (!ctx.state.startCloses.has(key)) return;
  const band = priceBandOf(exch, tsym, ctx.state.closes.get(key)!);
  if (band && (price < Number(band.lc) || price > Number(band.uc))) ctx.state.closes.set(key, price);
};

/**
 * A symbol's start price and close (the day opens at the close), if the market starts with prices and lists it. An
 * index contract's close is its model price at the index's start level; its price is the model's at the index's
 * level now (the index opens first).
 */
const open = (ctx: OperationContext, exch: string, tsym: string): number | undefined => {
  const key = ltpKey(exch, tsym);
  const known = ctx.state.ltps.get(key);
  if (known !== undefined || ctx.state.startPrices !== 'start' || ctx.state.cleared.has(key)) return known;
  if (!isListedSymbol(exch, tsym, ctx.now())) return undefined;
  const close = startCloseOf(exch, tsym, ctx.now());
  if (close === undefined) return undefined;
  const contract = parseIndexContract(exch, tsym);
  const index = contract && indexOfUnderlying(contract.underlying)!;
  const level = index && open(ctx, index.exch, index.tsym);
  const price = contract && level !== undefined ? contractPriceAt(contract, level, ctx.now()) : close;
  ctx.state.closes.set(key, close);
  ctx.state.startCloses.add(key);
  newDayIfOutside(ctx, exch, tsym, price);
  ctx.state.ltps.set(key, price);
  ctx.state.figures.set(key, withWeek52(ctx.state.figures.get(key), exch, tsym, price));
  ctx.state.instruments.set(`${exch}|${instrumentToken(exch, tsym)}`, tsym);
  ctx.state.series.record(key, ctx.now(), price);
  return price;
};

/** The priced contracts (NFO's, or BFO's for SENSEX) of the index `exch`/`tsym` names (none for another symbol). */
const pricedContractsOf = (ctx: OperationContext, exch: string, tsym: string): { exch: string; tsym: string }[] => {
  const index = indexInstrument(exch, tsym);
  if (!index) return [];
  const prefix = `${index.derivatives}|`;
  return [...ctx.state.ltps.keys()]
    .filter((key) => key.startsWith(prefix))
    .map((key) => key.slice(prefix.length))
    .filter((contract) => parseIndexContract(index.derivatives, contract)?.underlying === index.name)
    .sort()
    .map((contract) => ({ exch: index.derivatives, tsym: contract }));
};

/**
 * The index `exch`/`tsym` names is at `level`: each of its priced contracts moves to its model price there (a price
 * set by hand on one holds until now), and everything a price does runs for it (resting orders fill, GTTs fire).
 */
const follow = (ctx: OperationContext, exch: string, tsym: string, level: number): PriceMove => {
  let moves: PriceMove = { fired: [], filled: [] };
  for (const contract of pricedContractsOf(ctx, exch, tsym)) {
    const price = contractPriceAt(parseIndexContract(contract.exch, contract.tsym)!, level, ctx.now());
    if (price === ctx.state.ltps.get(ltpKey(contract.exch, contract.tsym))) continue;
    newDayIfOutside(ctx, contract.exch, contract.tsym, price);
    moves = joined(moves, move(ctx, contract.exch, contract.tsym, price));
  }
  return moves;
};

/** A price of a symbol, and its contracts' prices when it is an index. */
const moveWithContracts = (ctx: OperationContext, exch: string, tsym: string, ltp: number): PriceMove =>
  joined(move(ctx, exch, tsym, ltp), follow(ctx, exch, tsym, ltp));

/** The market's opening: every shipped equity at its start price (with `start`); index contracts when named. */
export const openMarket = (ctx: OperationContext): void => {
  if (ctx.state.startPrices !== 'start') return;
  for (const { exch, tsym } of startSymbols()) open(ctx, exch, tsym);
};

/** The last traded price of a symbol, opening it at its start price first when the market starts with prices. */
export const priceOf = (ctx: OperationContext, exch: string, tsym: string): number | undefined => open(ctx, exch, tsym);

/** The symbol an order names (PlaceGTTOrder, PlaceOCOOrder) opens at its start price, as a quote of it would. */
export const openNamed = (ctx: OperationContext, fields: Json): void => {
  if (typeof fields.exch === 'string' && typeof fields.tsym === 'string')
    open(ctx, fields.exch, decodeSymbol(fields.tsym));
};

/**
 * A price set by hand, with the figures given beside it (average price, open interest, volume, the 52-week high and
 * low: set before the price, which then moves them if beyond). With `close`, the symbol's previous close first
 * (today's band around it). Without one, a
 * price outside the band of a start close starts a new day there (the close becomes the price), so a sandbox user
 * can put any symbol at any price as before; a close set by hand stays until changed.
 */
export const movePriceByHand = (
  ctx: OperationContext,
  exch: string,
  tsym: string,
  ltp: number,
  close?: number,
  figures: MarketFigures = {},
): PriceMove => {
  const key = ltpKey(exch, tsym);
  ctx.state.cleared.delete(key);
  if (Object.keys(figures).length > 0)
    ctx.state.figures.set(key, uncrossed({ ...ctx.state.figures.get(key), ...figures }, figures));
  open(ctx, exch, tsym);
  if (close !== undefined) {
    ctx.state.closes.set(key, close);
    ctx.state.startCloses.delete(key);
  } else newDayIfOutside(ctx, exch, tsym, ltp);
  ctx.state.instruments.set(`${exch}|${instrumentToken(exch, tsym)}`, tsym);
  return moveWithContracts(ctx, exch, tsym, ltp);
};

/** A symbol without a price again (no quote, no band, no series), as a market that has not opened it. */
export const clearPrice = (ctx: OperationContext, exch: string, tsym: string): boolean => {
  const key = ltpKey(exch, tsym);
  const had = ctx.state.ltps.delete(key);
  ctx.state.closes.delete(key);
  ctx.state.figures.delete(key);
  ctx.state.startCloses.delete(key);
  ctx.state.series.forget(key);
  ctx.state.cleared.add(key);
  return had;
};

/** Whether a priced symbol follows its index (an index contract whose index has a price) rather than walking. */
const followsIndex = (ctx: OperationContext, exch: string, tsym: string): boolean => {
  const contract = parseIndexContract(exch, tsym);
  const index = contract && indexOfUnderlying(contract.underlying)!;
  return index !== undefined && ctx.state.ltps.has(ltpKey(index.exch, index.tsym));
};

/**
 * One step of the seeded walk for every symbol with a price (in name order), inside its band; an index contract
 * whose index has a price follows the index's step instead of walking alone.
 */
export const walkMarket = (ctx: OperationContext, random: () => number): PriceMove => {
  let moves: PriceMove = { fired: [], filled: [] };
  for (const key of [...ctx.state.ltps.keys()].sort()) {
    const [exch, ...rest] = key.split('|');
    const tsym = rest.join('|');
    if (followsIndex(ctx, exch!, tsym)) continue;
    const next = walkStep(exch!, tsym, ctx.state.ltps.get(key)!, ctx.state.closes.get(key), random);
    moves = joined(moves, moveWithContracts(ctx, exch!, tsym, next));
  }
  return moves;
};

/** The symbol a token names: one a price, SearchScrip or the master named. */
export const symbolOfToken = (ctx: OperationContext, exch: string, token: string): string | undefined => {
  const named = ctx.state.instruments.get(`${exch}|${token}`) ?? masterSymbolOf(exch, token, ctx.now());
  if (named !== undefined) return named;
  for (const key of ctx.state.ltps.keys()) {
    const [e, ...rest] = key.split('|');
    if (e === exch && instrumentToken(exch, rest.join('|')) === token) return rest.join('|');
  }
  return undefined;
};

/** An epoch-seconds field (`st`, `et`), as the family's clients send it (a string of digits). */
const epochSeconds = (fields: Json, name: string, fallback: number): number => {
  const value = fields[name];
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value !== 'string' || !/^\d{1,12}(\.\d+)?$/.test(value))
    throw new Refusal(`${name} must be epoch seconds (a string of digits)`);
  return Math.floor(Number(value));
};

/**
 * TPSeries (jData `uid`, `exch`, `token`, `st`, `et`, `intrv`): the symbol's bars of the day between `st` and `et`
 * (epoch seconds; from midnight India time and up to now when absent), `intrv` minutes each (1 by default), newest
 * first; `no data` when there are none.
 */
export const timePriceSeries = (ctx: OperationContext, fields: Json): EmulatorReply => {
  const exch = requireString(fields, 'exch');
  const token = requireString(fields, 'token');
  const intrv = fields.intrv === undefined ? '1' : requireString(fields, 'intrv');
  const minutes = Number(intrv);
  if (!(SERIES_INTERVALS as readonly number[]).includes(minutes))
    throw new Refusal(`intrv must be one of ${SERIES_INTERVALS.join(', ')}`);
  const now = Math.floor(ctx.now().getTime() / 1_000);
  const st = epochSeconds(fields, 'st', now - ((now + 19_800) % 86_400));
  const et = epochSeconds(fields, 'et', now);
  const tsym = symbolOfToken(ctx, exch, token);
  if (tsym !== undefined) priceOf(ctx, exch, tsym);
  const bars = tsym === undefined ? [] : ctx.state.series.series(ltpKey(exch, tsym), st, et, minutes);
  if (bars.length === 0) return notOk('no data');
  return json(200, bars);
};
