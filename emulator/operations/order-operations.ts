/**
 * PlaceOrder: a regular exchange order (not a GTT) into the account's order book (state/order-book.ts), where the
 * market decides it as it decides a fired GTT's order: a marketable limit or a market order fills at the price, any
 * other limit rests OPEN until the price reaches it, a stop-loss waits for its trigger; the exchange's rules (tick,
 * lot, band, freeze) reject it there, and a queued next-order outcome applies. Answers as the family does:
 * `{request_time, stat: "Ok", norenordno}`; `remarks` is kept on the order, so a journaled write's stamp is found in
 * OrderBook.
 */
import { requestTime } from '../state/formats.js';
import type { Json } from '../state/orders.js';
import { Refusal } from '../state/orders.js';
import { checkPlainOrder } from '../state/plain-orders.js';
import { type Account, ltpKey } from '../state/state.js';
import type { OperationContext } from '../state/switches.js';
import { tradingRefusal } from '../state/symbols.js';
import { type EmulatorReply, json } from '../wire/reply.js';
import { priceOf } from './market-moves.js';

export const placeOrder = (ctx: OperationContext, fields: Json, account: Account): EmulatorReply => {
  const order = checkPlainOrder(fields, account);
  const refused = tradingRefusal(order.exch, order.tsym, ctx.now(), ctx.switches.acceptAnySymbol);
  if (refused !== undefined) throw new Refusal(refused);
  // The symbol opens at its start price first, as a quote of it would.
  const ltp = priceOf(ctx, order.exch, order.tsym);
  const close = ctx.state.closes.get(ltpKey(order.exch, order.tsym));
  const placed = ctx.book.place({ ...order, uid: account.uid, al_id: '' }, ltp, ctx.now(), close);
  return json(200, { request_time: requestTime(ctx.now()), stat: 'Ok', norenordno: placed.norenordno });
};
