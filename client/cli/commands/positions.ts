/**
 * `gtt positions`: the account's positions of the day (`GET /positions`, the broker's PositionBook), one line each,
 * open ones first as the gateway orders them: symbol, product, net quantity (long or short), average and last price,
 * realised and unrealised P&L; then the day's totals. Rupees the Indian way (`₹1,23,456.50`), prices in two decimals.
 */
import type { OperationResult } from '../../types.js';
import { command } from '../command.js';
import { table } from '../render.js';

export type PositionsList = OperationResult<'GetPositions'>;
type Position = PositionsList['positions'][number];

/** Signed rupees, two decimals, grouped the Indian way: `₹1,23,456.50`, `-₹42.00`. */
export const signedRupees = (n: number): string =>
  `${n < 0 ? '-' : ''}₹${Math.abs(n).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const twoDecimals = (n: number | undefined): string => (n === undefined ? '—' : n.toFixed(2));

/** `5 long`, `3 short`, `0 (closed)`. */
const netText = (qty: number): string => (qty > 0 ? `${qty} long` : qty < 0 ? `${-qty} short` : '0 (closed)');

export const POSITION_COLUMNS = ['symbol', 'product', 'net qty', 'average', 'last', 'realised', 'unrealised'];

const positionRow = (p: Position): string[] => [
  `${p.exch}:${p.tsym}`,
  p.product,
  netText(p.netQty),
  p.netQty === 0 ? '—' : twoDecimals(p.averagePrice),
  twoDecimals(p.lastPrice),
  signedRupees(p.realised),
  signedRupees(p.unrealised),
];

export const positionsText = (list: PositionsList): string => {
  if (list.positions.length === 0) return 'no positions today: nothing has filled at the broker';
  const t = list.totals;
  const open = `${t.open} open position${t.open === 1 ? '' : 's'}`;
  return [
    table(POSITION_COLUMNS, list.positions.map(positionRow)),
    '',
    `day: realised ${signedRupees(t.realised)}, unrealised ${signedRupees(t.unrealised)}, total ${signedRupees(t.total)} (${open})`,
  ].join('\n');
};

export const positions = command({
  name: 'positions',
  flags: [],
  summary:
    "the day's positions at the broker: net quantity, average and last price, realised and unrealised P&L, the day's totals",
  run: async ({ client, callOptions }) => (await client.call('GetPositions', {}, callOptions)) as PositionsList,
  render: positionsText,
});
