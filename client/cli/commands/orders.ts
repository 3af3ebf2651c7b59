/** The order commands: place, modify and cancel GTT and OCO orders, list them, the triggered ones, the order book. */
import type { GttGatewayError } from '../../errors.js';
import type { GttOrderInput, ListFilters, TriggeredPage } from '../../types.js';
import { command, type Context, may, PROGRAM } from '../command.js';
import { actionText, table, withNextPage } from '../render.js';
import { fitAlert } from './alert-default.js';
import { lastPrices } from './last-prices.js';
import {
  MODIFY_FLAGS,
  modifyFromFlags,
  modifyOcoFromFlags,
  OCO_FLAGS,
  ocoFromFlags,
  ORDER_FLAGS,
  orderFromFlags,
} from './order-input.js';
import {
  bookTable,
  type ListWithMarket,
  ORDER_COLUMNS,
  type OrderBookList,
  orderRow,
  ordersTable,
  triggeredTable,
} from './order-tables.js';
import { PAGE_FLAGS, pageFlags } from './page-flags.js';

/** modify-oco: any of place-oco's flags. */
const MODIFY_OCO_FLAGS = OCO_FLAGS.map((flag) => ({ ...flag, optional: true }));

/** Whether the gateway refused the change because the order is of the other kind (an OCO, or a single GTT). */
const isOtherKind = (error: GttGatewayError, kind: 'OCO' | 'single'): boolean =>
  error.code === 'VALIDATION_FAILED' &&
  Array.isArray(error.details) &&
  (error.details as { field?: string; message?: string }[]).some(
    (d) =>
      d.field === 'al_id' && (d.message ?? '').includes(kind === 'OCO' ? 'is an OCO order' : 'is a single GTT order'),
  );

/**
 * The order with what the command chose for flags left out (the alert fitted to the last price), each said on a line
 * before the result (not with --json).
 */
const withDefaults = async (
  ctx: Context,
  { order, defaults, alertLeftOut }: { order: GttOrderInput; defaults: readonly string[]; alertLeftOut: boolean },
): Promise<GttOrderInput> => {
  const fitted = alertLeftOut ? await fitAlert(ctx, order) : undefined;
  if (!ctx.json) for (const line of [...defaults, ...(fitted ? [fitted.line] : [])]) ctx.io.out(`default: ${line}`);
  return fitted?.order ?? order;
};

/** The order a command names: its first argument. */
const alIdOf = (args: readonly string[]): string => args[0] ?? '';

export const place = command({
  name: 'place',
  flags: ORDER_FLAGS,
  dryRun: true,
  summary:
    'place a GTT order: the broker places the order once the last traded price meets --trigger (--alert: by ' +
    'default the way the trigger lies from the last price; also change-above/-below (%), atp-above/-below, oi-above/-below, ' +
    'total-oi-above/-below, volume-above, 52-week-high/-low); --retention DAY unless given; values as typed (nse, buy, lmt)',
  input: (f) => orderFromFlags(f),
  run: async (ctx, input) => ctx.client.placeOrder(await withDefaults(ctx, input), ctx.orderOptions),
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
  hint: (error) => legsHint(error),
});

/** After an OCO the broker holds otherwise than asked: cancel it by hand when it is still live. */
const legsHint = (error: { code: string; outcome?: string | undefined; details?: unknown }): string | undefined => {
  if (error.code !== 'OCO_LEGS_MISMATCH') return undefined;
  const alId = (error.details as { al_id?: unknown } | undefined)?.al_id;
  return error.outcome === 'executed'
    ? `it is STILL LIVE: cancel it now, \`${PROGRAM} cancel ${String(alId)}\``
    : 'nothing of it is live; this broker pairs OCO legs otherwise than sent: do not rely on its OCOs (`list` shows what is pending)';
};

export const list = command({
  name: 'list',
  flags: [may('tsym', "'M&M-EQ'"), may('exch', 'NSE'), ...PAGE_FLAGS],
  summary:
    'the pending GTT orders, one page (100 unless --limit, at most 1000; --all: every page) as a table: ' +
    "al_id, type, exch, tsym, side, qty, price, trigger(s), the symbol's last price, the trigger's distance from " +
    "it (points, %), tag; — where no price could be read (--json: the API's list alone)",
  input: (f) => ({
    filters: {
      ...(f.str('tsym') ? { tsym: f.str('tsym') } : {}),
      ...(f.str('exch') ? { exch: f.str('exch') } : {}),
      ...pageFlags(f),
    } as ListFilters,
    all: f.values.all === true,
  }),
  run: async (ctx, { filters, all }): Promise<ListWithMarket> => {
    const { client, callOptions } = ctx;
    const orders = await (all ? client.listAllOrders(filters, callOptions) : client.listOrders(filters, callOptions));
    // The API's JSON alone for scripts; for a trader, the market beside each order.
    return ctx.json ? orders : { ...orders, market: await lastPrices(ctx, orders.orders) };
  },
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
  run: async (ctx, { alId, modify }) => {
    if (!('full' in modify)) return ctx.client.patchOrder(alId, modify.changes, ctx.orderOptions);
    return ctx.client.modifyOrder(alId, await withDefaults(ctx, { ...modify, order: modify.full }), ctx.orderOptions);
  },
  render: (r) => actionText('modified', r),
  hint: (error, args) =>
    isOtherKind(error, 'OCO')
      ? `it is an OCO: change it with modify-oco, e.g. \`${PROGRAM} modify-oco ${alIdOf(args)} --stop-trigger 1410\``
      : undefined,
});

export const modifyOco = command({
  name: 'modify-oco',
  args: ['alId'],
  dryRun: true,
  flags: MODIFY_OCO_FLAGS,
  summary:
    'change a pending OCO order: only the flags given (`modify-oco 1 --stop-trigger 1410`: the rest as the broker ' +
    'holds it), or every place-oco flag for a full replacement of both legs',
  input: (f, args) => ({ alId: alIdOf(args), modify: modifyOcoFromFlags(f) }),
  run: ({ client, orderOptions }, { alId, modify }) =>
    'full' in modify
      ? client.modifyOco(alId, modify.full, orderOptions)
      : client.patchOco(alId, modify.changes, orderOptions),
  render: (r) => actionText('modified OCO', r),
  hint: (error, args) =>
    isOtherKind(error, 'single')
      ? `it is a single GTT: change it with modify, e.g. \`${PROGRAM} modify ${alIdOf(args)} --trigger 1495\``
      : undefined,
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
  summary:
    'the orders that fired, newest first: when, the trigger that fired, the order it placed and its status; ' +
    'paged like list (--json: every field, the broker order number and the full rejection among them)',
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
