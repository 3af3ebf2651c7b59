/** The tables of orders: pending ones, the triggered history with each fired order, the day's order book. */
import type { GttOrder, OperationResult, OrderList, TriggeredList } from '../../types.js';
import { istTime, table } from '../render.js';

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

export const ordersTable = (list: OrderList): string =>
  list.orders.length === 0 ? 'no pending GTT orders' : table(ORDER_COLUMNS, list.orders.map(orderRow));

export const triggeredTable = (list: TriggeredList): string =>
  list.orders.length === 0
    ? 'no triggered GTT orders'
    : table(
        [...ORDER_COLUMNS, 'status', 'fired', 'at', 'order', 'order status'],
        list.orders.map((o) => [
          ...orderRow(o),
          o.status,
          o.firedLeg ?? '',
          istTime(o.triggeredAt),
          o.order?.norenordno ?? (list.orderBookUnavailable ? '?' : '-'),
          o.order ? orderStatusText(o.order) : '',
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
