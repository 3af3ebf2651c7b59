/**
 * The tables of orders: pending ones with the market beside each (last price, distance to the trigger), the
 * triggered history newest first in about 120 columns (the rest of each record is in --json), the day's order book.
 */
import type { GttOrder, OperationResult, OrderList, TriggeredList } from '../../types.js';
import { istTime, table, timeMs } from '../render.js';
import { type LastPrices, marketCells, MAX_QUOTED_SYMBOLS } from './last-prices.js';

export type OrderBookList = OperationResult<'GetOrderBook'>;
type BookOrder = OrderBookList['orders'][number];

export const ORDER_COLUMNS = ['al_id', 'type', 'exch', 'tsym', 'side', 'qty', 'price', 'trigger(s)', 'tag'];

/** A pending or triggered order (their `stat` differs). */
export const orderRow = (o: Omit<GttOrder, 'stat'>): string[] => {
  const price = (prctyp: string | undefined, prc: string | undefined) =>
    prctyp === 'MKT' || prctyp === 'SL-MKT' ? prctyp : (prc ?? '');
  if (o.type === 'oco' && o.target && o.stopLoss) {
    return [
      o.al_id,
      'oco',
      o.exch,
      o.tsym,
      o.target.order.trantype ?? o.trantype,
      String(o.target.order.qty ?? o.qty),
      `${price(o.target.order.prctyp, o.target.order.prc)}/${price(o.stopLoss.order.prctyp, o.stopLoss.order.prc)}`,
      `${o.target.trigger}/${o.stopLoss.trigger}`,
      o.tag ?? '',
    ];
  }
  return [
    o.al_id,
    o.type,
    o.exch,
    o.tsym,
    o.trantype,
    String(o.qty),
    price(o.prctyp, o.prc),
    o.trigger ?? o.d,
    o.tag ?? '',
  ];
};

/** The pending orders with what the market makes of each: the table of `list`. */
export const LIST_COLUMNS = [...ORDER_COLUMNS.slice(0, -1), 'last', 'to trigger', 'tag'];

/** A pending list with the last prices of its symbols (absent under --json: the API's JSON alone). */
export type ListWithMarket = OrderList & { market?: { prices: LastPrices; unquoted: number } };

export const ordersTable = (list: ListWithMarket): string => {
  if (list.orders.length === 0) return 'no pending GTT orders';
  const prices: LastPrices = list.market?.prices ?? new Map();
  const rows = list.orders.map((o) => {
    const row = orderRow(o);
    return [...row.slice(0, -1), ...marketCells(o, prices), row.at(-1)!];
  });
  const unquoted = list.market?.unquoted ?? 0;
  const note = unquoted
    ? `\nlast prices read for the first ${MAX_QUOTED_SYMBOLS} symbols; ${unquoted} more show —: filter with --tsym`
    : '';
  return `${table(LIST_COLUMNS, rows)}${note}`;
};

/** When an order fired, for sorting: its time in ms, or -Infinity when the record has none. */
const firedMs = (o: { triggeredAt?: string | undefined }): number => timeMs(o.triggeredAt) ?? Number.NEGATIVE_INFINITY;

/** Text cut to `max` characters, with … where it was cut. */
const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The trigger that fired: the fired leg's for an OCO (`stop 1400`, `target 1600`), else the order's. */
const firedTrigger = (o: TriggeredList['orders'][number]): string => {
  if (o.type === 'oco' && o.firedLeg === 'target') return `target ${o.target?.trigger ?? ''}`;
  if (o.type === 'oco' && o.firedLeg === 'stopLoss') return `stop ${o.stopLoss?.trigger ?? ''}`;
  if (o.type === 'oco') return `${o.target?.trigger ?? ''}/${o.stopLoss?.trigger ?? ''}`;
  return o.trigger ?? o.d ?? '';
};

/**
 * The orders that fired, newest first (by the time each fired, not by id), in about 120 columns: when, which order,
 * the trigger that fired, and what the order it placed became. The rest (exchange, prices, the broker's order number,
 * the full rejection) is in `triggered --json`.
 */
export const triggeredTable = (list: TriggeredList): string =>
  list.orders.length === 0
    ? 'no triggered GTT orders'
    : table(
        ['fired (IST)', 'al_id', 'tsym', 'side', 'qty', 'trigger', 'tag', 'order'],
        [...list.orders]
          .sort((a, b) => firedMs(b) - firedMs(a))
          .map((o) => [
            istTime(o.triggeredAt).replace(/ \+05:30$/, ''),
            o.al_id,
            cut(o.tsym, 20),
            o.type === 'oco' ? (o.target?.order.trantype ?? o.trantype) : o.trantype,
            String(o.type === 'oco' ? (o.target?.order.qty ?? o.qty) : o.qty),
            firedTrigger(o),
            cut(o.tag ?? '', 12),
            o.order
              ? cut(orderStatusText(o.order), 36)
              : list.orderBookUnavailable
                ? '? (order book unavailable)'
                : `${o.status.toLowerCase()}, no order yet`,
          ]),
      );

const orderStatusText = (o: BookOrder): string =>
  `${o.status}${o.filledQty > 0 ? ` ${o.filledQty}/${o.qty}${o.averagePrice ? ` @${o.averagePrice}` : ''}` : ''}${o.rejection ? ` ${o.rejection.code}: ${o.rejection.text}` : ''}`;

export const bookTable = (book: OrderBookList): string =>
  book.orders.length === 0
    ? 'no orders today'
    : table(
        ['order', 'exch', 'tsym', 'side', 'qty', 'price', 'status', 'tag', 'at'],
        book.orders.map((o) => [
          o.norenordno,
          o.exch,
          o.tsym,
          o.side,
          String(o.qty),
          o.price,
          orderStatusText(o),
          o.tag ?? '',
          istTime(o.placedAt),
        ]),
      );
