/** The order commands: place, modify and cancel GTT and OCO orders, list them, the triggered ones, the order book. */
import type { ListFilters, TriggeredPage } from '../../types.js';
import { command, may } from '../command.js';
import { actionText, table, withNextPage } from '../render.js';
import { MODIFY_FLAGS, modifyFromFlags, OCO_FLAGS, ocoFromFlags, ORDER_FLAGS, orderFromFlags } from './order-input.js';
import { bookTable, ORDER_COLUMNS, type OrderBookList, orderRow, ordersTable, triggeredTable } from './order-tables.js';
import { PAGE_FLAGS, pageFlags } from './page-flags.js';

/** The order a command names: its first argument. */
const alIdOf = (args: readonly string[]): string => args[0] ?? '';

export const place = command({
  name: 'place',
  flags: ORDER_FLAGS,
  dryRun: true,
  summary: 'place a GTT order: the broker places the order once the last traded price meets --trigger (--alert)',
  input: (f) => orderFromFlags(f),
  run: ({ client, orderOptions }, order) => client.placeOrder(order, orderOptions),
  render: (r) => actionText('placed', r),
});

export const placeOco = command({
  name: 'place-oco',
  flags: OCO_FLAGS,
  dryRun: true,
  summary: 'place a two-leg OCO order (target and stop-loss): whichever leg triggers first cancels the other',
  input: (f) => ocoFromFlags(f),
  run: ({ client, orderOptions }, oco) => client.placeOco(oco, orderOptions),
  render: (r) => actionText('placed OCO', r),
});

export const list = command({
  name: 'list',
  flags: [may('tsym', "'M&M-EQ'"), may('exch', 'NSE'), ...PAGE_FLAGS],
  summary:
    'the pending GTT orders, one page (100 unless --limit, at most 1000; --all: every page) as a table: ' +
    'al_id, type, exch, tsym, side, qty, price, trigger(s), tag',
  input: (f) => ({
    filters: {
      ...(f.str('tsym') ? { tsym: f.str('tsym') } : {}),
      ...(f.str('exch') ? { exch: f.str('exch') } : {}),
      ...pageFlags(f),
    } as ListFilters,
    all: f.values.all === true,
  }),
  run: ({ client, callOptions }, { filters, all }) =>
    all ? client.listAllOrders(filters, callOptions) : client.listOrders(filters, callOptions),
  render: (r) => withNextPage(ordersTable(r), r),
});

export const get = command({
  name: 'get',
  args: ['alId'],
  flags: [],
  summary: 'one pending order',
  input: (_f, args) => alIdOf(args),
  run: ({ client, callOptions }, alId) => client.getOrder(alId, callOptions),
  render: (r) => table(ORDER_COLUMNS, [orderRow(r)]),
});

export const modify = command({
  name: 'modify',
  args: ['alId'],
  flags: MODIFY_FLAGS,
  dryRun: true,
  summary:
    'change a pending order: only the flags given (`modify 1 --trigger 1495`: the rest as the broker holds it, ' +
    "refused if the order changed meanwhile), or every place flag for a full replacement; --key as place's",
  input: (f, args) => ({ alId: alIdOf(args), modify: modifyFromFlags(f) }),
  run: ({ client, orderOptions }, { alId, modify }) =>
    'full' in modify
      ? client.modifyOrder(alId, modify.full, orderOptions)
      : client.patchOrder(alId, modify.changes, orderOptions),
  render: (r) => actionText('modified', r),
});

export const modifyOco = command({
  name: 'modify-oco',
  args: ['alId'],
  flags: OCO_FLAGS,
  dryRun: true,
  summary: 'replace a pending OCO order: every place-oco flag again (both legs)',
  input: (f, args) => ({ alId: alIdOf(args), oco: ocoFromFlags(f) }),
  run: ({ client, orderOptions }, { alId, oco }) => client.modifyOco(alId, oco, orderOptions),
  render: (r) => actionText('modified OCO', r),
});

export const cancel = command({
  name: 'cancel',
  args: ['alId'],
  flags: [may('key', 'K')],
  dryRun: true,
  summary: 'cancel a pending order (single or OCO)',
  input: (_f, args) => alIdOf(args),
  run: ({ client, orderOptions }, alId) => client.cancelOrder(alId, orderOptions),
  render: (r) => actionText('cancelled', r),
});

export const triggered = command({
  name: 'triggered',
  flags: PAGE_FLAGS,
  summary: 'the orders that fired, with the order each placed and its status; paged like list',
  input: (f) => ({ page: pageFlags(f) as TriggeredPage, all: f.values.all === true }),
  run: ({ client, callOptions }, { page, all }) =>
    all ? client.allTriggered(callOptions, page) : client.triggered(callOptions, page),
  render: (r) => withNextPage(triggeredTable(r), r),
});

export const orders = command({
  name: 'orders',
  flags: [],
  summary: "the day's orders at the broker: status, fill, why refused",
  run: async ({ client, callOptions }) => (await client.call('GetOrderBook', {}, callOptions)) as OrderBookList,
  render: bookTable,
});
