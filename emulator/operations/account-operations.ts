/**
 * The account's operations beside its GTTs: the order book, the positions and an order's history (the orders fired GTTs placed),
 * symbol search and quotes, client details and logout. Each takes the checked session's account.
 */
import { instrumentToken, IST_OFFSET_MS, requestTime } from '../state/formats.js';
import { freezeQuantityOf, priceBandOf } from '../state/market.js';
import { type Json, Refusal, requireString } from '../state/orders.js';
import { positionsOf } from '../state/positions.js';
import { type Account, ltpKey } from '../state/state.js';
import type { OperationContext } from '../state/switches.js';
import { masterSymbolOf } from '../state/symbol-master.js';
import { rulesFields, searchListed } from '../state/symbols.js';
import { week52Fields } from '../state/week52.js';
import { type EmulatorReply, json, notOk } from '../wire/reply.js';
import { priceOf, symbolOfToken } from './market-moves.js';

export const orderBook = (ctx: OperationContext, account: Account): EmulatorReply => {
  const orders = ctx.book.bookOf(account.uid);
  return orders.length === 0 && !ctx.switches.emptyListAsArray ? notOk('no data') : json(200, orders);
};

/** PositionBook: the account's positions from the day's fills, marked to the market (`state/positions.ts`). */
export const positionBook = (ctx: OperationContext, account: Account): EmulatorReply => {
  const positions = positionsOf(
    ctx.book.orders.values(),
    account.uid,
    (exch, tsym) => instrumentToken(exch, tsym),
    (exch, tsym) => ctx.state.ltps.get(ltpKey(exch, tsym)),
  );
  return positions.length === 0 && !ctx.switches.emptyListAsArray ? notOk('no data') : json(200, positions);
};

export const singleOrderHistory = (ctx: OperationContext, fields: Json, account: Account): EmulatorReply =>
  json(200, ctx.book.historyOf(account.uid, fields));

export const searchScrip = (ctx: OperationContext, fields: Json): EmulatorReply => {
  const exch = requireString(fields, 'exch');
  const stext = decodeURIComponent(requireString(fields, 'stext'));
  const found = ctx.switches.acceptAnySymbol ? [stext] : searchListed(exch, stext, ctx.now());
  if (found.length === 0) return notOk('no data');
  for (const tsym of found) ctx.state.instruments.set(`${exch}|${instrumentToken(exch, tsym)}`, tsym);
  return json(200, {
    stat: 'Ok',
    values: found.map((tsym) => ({
      exch,
      tsym,
      token: instrumentToken(exch, tsym),
      ...rulesFields(exch, tsym),
    })),
  });
};

/**
 * A quote for a symbol with a last traded price (the market's start, a move by hand or the walk: market-moves.ts);
 * `no data` for any other. The figures the other alert types watch, where the control surface set them, under the
 * names a live GetQuotes reply uses: `ap` (average traded price), `oi`, `v` (volume), and `toi` (total open interest,
 * the feed's name: no GetQuotes sample shows it); and the 52-week high and low, `wk52_h`, `wk52_l`.
 */
export const getQuotes = (ctx: OperationContext, fields: Json): EmulatorReply => {
  const exch = requireString(fields, 'exch');
  const token = requireString(fields, 'token');
  const tsym = symbolOfToken(ctx, exch, token);
  const lp = tsym === undefined ? undefined : priceOf(ctx, exch, tsym);
  if (tsym === undefined || lp === undefined) return notOk('no data');
  return json(200, {
    request_time: requestTime(ctx.now()),
    stat: 'Ok',
    exch,
    tsym,
    token,
    lp: String(lp),
    ...rulesFields(exch, tsym),
    ...dayFields(ctx, exch, tsym),
    ...bandFields(ctx, exch, tsym),
    ...figureFields(ctx, exch, tsym),
  });
};

/**
 * The figures set beside the price (`POST /_emulator/ltp` with `atp`, `oi`, `toi`, `volume`), as decimal strings;
 * the 52-week high and low every priced symbol has (week52.ts) as `wk52_h`, `wk52_l`.
 */
const figureFields = (ctx: OperationContext, exch: string, tsym: string): Record<string, string> => {
  const figures = ctx.state.figures.get(ltpKey(exch, tsym)) ?? {};
  const named = { ap: figures.atp, oi: figures.oi, toi: figures.toi, v: figures.volume };
  const { week52High, week52Low } = figures;
  return {
    ...Object.fromEntries(Object.entries(named).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))),
    ...(week52High === undefined || week52Low === undefined ? {} : week52Fields(exch, tsym, { week52High, week52Low })),
  };
};

/** The day's open, high and low (`o`, `h`, `l`) from the day's series (TPSeries' bars since 00:00 India time). */
const dayFields = (ctx: OperationContext, exch: string, tsym: string): { o?: string; h?: string; l?: string } => {
  const now = ctx.now().getTime();
  const day = ctx.state.series.day(ltpKey(exch, tsym), now - ((now + IST_OFFSET_MS) % 86_400_000));
  return day ? { o: String(day.open), h: String(day.high), l: String(day.low) } : {};
};

/** The previous close (`c`) and today's band (`uc`, `lc`) of a symbol whose previous close is known; nothing else. */
const bandFields = (ctx: OperationContext, exch: string, tsym: string): { uc?: string; lc?: string; c?: string } => {
  const close = ctx.state.closes.get(ltpKey(exch, tsym));
  if (close === undefined) return {};
  const band = priceBandOf(exch, tsym, close);
  return { c: String(close), ...(band ? { uc: band.uc, lc: band.lc } : {}) };
};

/**
 * An instrument's properties by token (GetSecurityInfo), for the instruments SearchScrip or a price named: its rules
 * and, for index derivatives, the freeze quantity `frzqty`; `no data` for a token it does not know.
 */
export const securityInfo = (ctx: OperationContext, fields: Json): EmulatorReply => {
  const exch = requireString(fields, 'exch');
  const token = requireString(fields, 'token');
  const tsym = ctx.state.instruments.get(`${exch}|${token}`) ?? masterSymbolOf(exch, token, ctx.now());
  if (tsym === undefined) return notOk('no data');
  const freeze = freezeQuantityOf(exch, tsym);
  return json(200, {
    request_time: requestTime(ctx.now()),
    stat: 'Ok',
    exch,
    tsym,
    token,
    ...rulesFields(exch, tsym),
    ...(freeze === undefined ? {} : { frzqty: String(freeze) }),
  });
};

export const clientDetails = (ctx: OperationContext, fields: Json, account: Account): EmulatorReply => {
  requireString(fields, 'actid');
  if (fields.actid !== account.actid) throw new Refusal('Invalid Account Id');
  return json(200, { request_time: requestTime(ctx.now()), stat: 'Ok', ...account.client });
};

/** Ends the session the request came with (other sessions of the account keep working). */
export const logout = (ctx: OperationContext, token: string): EmulatorReply => {
  ctx.state.sessions.delete(token);
  return json(200, { request_time: requestTime(ctx.now()), stat: 'Ok' });
};
