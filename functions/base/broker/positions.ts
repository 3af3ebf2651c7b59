/**
 * The broker's `PositionBook` for GET /positions (and every feature that reads what the orders add up to): its jData
 * (NorenRestApiPy `get_positions`: `{uid, actid}`) and its records read into the caller's shape, open positions first,
 * with the day's totals. The family's figures are taken as given (its `rpnl` and `urmtom` already count the price
 * factor); where a dialect leaves one out, it is worked out from the quantities and prices it did give
 * (docs/explanation/broker-wire.md, "Positions").
 */
import type { Position, PositionRecord, PositionsResult } from '../schemas/positions.js';

export const positionsJData = (_input: unknown, session: { uid: string; actid: string }) => ({
  uid: session.uid,
  actid: session.actid,
});

/** Rupees to the paisa, without a float's tail. */
const paise = (value: number): number => Math.round(value * 100) / 100;

/** One record in the caller's shape. */
export const positionOf = (record: PositionRecord): Position => {
  const bought = (record.daybuyqty ?? 0) + (record.cfbuyqty ?? 0);
  const sold = (record.daysellqty ?? 0) + (record.cfsellqty ?? 0);
  const factor = record.prcftr !== undefined && record.prcftr > 0 ? record.prcftr : 1;
  const average = record.netavgprc ?? 0;
  const unrealised =
    record.urmtom ??
    (record.lp !== undefined && record.netqty !== 0 ? (record.lp - average) * record.netqty * factor : 0);
  return {
    exch: record.exch,
    tsym: record.tsym,
    ...(record.token === undefined || record.token === '' ? {} : { token: record.token }),
    product: record.prd,
    netQty: record.netqty,
    averagePrice: record.netqty === 0 ? 0 : average,
    ...(record.lp === undefined ? {} : { lastPrice: record.lp }),
    realised: paise(record.rpnl ?? 0),
    unrealised: paise(unrealised),
    boughtQty: bought,
    soldQty: sold,
    priceFactor: factor,
  };
};

/** The account's positions, open first (then by exchange and symbol), and the day's totals. */
export const positionsResultOf = (records: readonly PositionRecord[]): PositionsResult => {
  const positions = records.map(positionOf).sort((a, b) => {
    const open = Number(b.netQty !== 0) - Number(a.netQty !== 0);
    return open !== 0 ? open : `${a.exch}:${a.tsym}:${a.product}`.localeCompare(`${b.exch}:${b.tsym}:${b.product}`);
  });
  const realised = paise(positions.reduce((sum, p) => sum + p.realised, 0));
  const unrealised = paise(positions.reduce((sum, p) => sum + p.unrealised, 0));
  return {
    positions,
    totals: {
      realised,
      unrealised,
      total: paise(realised + unrealised),
      open: positions.filter((p) => p.netQty !== 0).length,
    },
  };
};
