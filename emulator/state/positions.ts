/**
 * The account's positions, as the family's `PositionBook` answers them: the day's fills of the order book (the orders
 * fired GTTs and PlaceOrder placed, each by what it filled and at what average price) summed per exchange, symbol and
 * product, marked to the market's last price. Fields as NorenRestApiPy's `get_positions` documents them and the
 * Noren-based FirstockPy's PositionBookResponseModel lists them: `netqty` (bought minus sold), `netavgprc` (the
 * average price of the open quantity), `daybuyqty`/`daysellqty` and their amounts and average prices, `lp`, `rpnl`
 * (realised: the quantity bought and sold again, at the difference of their averages), `urmtom` (unrealised: the open
 * quantity marked to `lp`), `prcftr` (the price factor, 1 for the cash and F&O segments the emulator lists), every
 * value a string. Our choices (docs/explanation/emulator-extensions.md): no carry-forward (`cfbuyqty`/`cfsellqty` 0:
 * the emulator's book holds one day), the realised P&L by average cost, a symbol without a price marked at its open
 * average (no unrealised P&L until a price is known).
 */
import type { BookOrder } from './order-book.js';
import type { Json } from './orders.js';

/** One position's day of fills. */
interface Fills {
  exch: string;
  tsym: string;
  prd: string;
  uid: string;
  actid: string;
  buyQty: number;
  buyAmt: number;
  sellQty: number;
  sellAmt: number;
}

/** Rupees to two decimals, as the family writes amounts. */
const money = (value: number): string => (Math.round(value * 100) / 100).toFixed(2);

/** The fills of each position of an account, oldest order first. */
const fillsOf = (orders: Iterable<BookOrder>, uid: string): Fills[] => {
  const positions = new Map<string, Fills>();
  for (const o of orders) {
    if (o.uid !== uid) continue;
    const latest = o.history[0];
    if (latest === undefined || latest.fillshares <= 0) continue;
    const key = `${o.exch}|${o.tsym}|${o.prd}`;
    const p = positions.get(key) ?? {
      exch: o.exch,
      tsym: o.tsym,
      prd: o.prd,
      uid: o.uid,
      actid: o.actid,
      buyQty: 0,
      buyAmt: 0,
      sellQty: 0,
      sellAmt: 0,
    };
    const amount = latest.fillshares * Number(latest.avgprc);
    if (o.trantype === 'S') {
      p.sellQty += latest.fillshares;
      p.sellAmt += amount;
    } else {
      p.buyQty += latest.fillshares;
      p.buyAmt += amount;
    }
    positions.set(key, p);
  }
  return [...positions.values()];
};

/** A position's record as PositionBook lists it, marked to `ltp` where one is known. */
export const positionRecord = (p: Fills, token: string, ltp: number | undefined): Json => {
  const buyAvg = p.buyQty > 0 ? p.buyAmt / p.buyQty : 0;
  const sellAvg = p.sellQty > 0 ? p.sellAmt / p.sellQty : 0;
  const net = p.buyQty - p.sellQty;
  const closed = Math.min(p.buyQty, p.sellQty);
  const rpnl = closed * (sellAvg - buyAvg);
  const openAvg = net > 0 ? buyAvg : net < 0 ? sellAvg : 0;
  const mark = ltp ?? openAvg;
  const urmtom = net * (mark - openAvg);
  return {
    stat: 'Ok',
    uid: p.uid,
    actid: p.actid,
    exch: p.exch,
    tsym: p.tsym,
    token,
    prd: p.prd,
    s_prdt_ali: p.prd === 'I' ? 'MIS' : p.prd === 'C' ? 'CNC' : 'NRML',
    daybuyqty: String(p.buyQty),
    daysellqty: String(p.sellQty),
    daybuyamt: money(p.buyAmt),
    daysellamt: money(p.sellAmt),
    daybuyavgprc: money(buyAvg),
    daysellavgprc: money(sellAvg),
    cfbuyqty: '0',
    cfsellqty: '0',
    netqty: String(net),
    netavgprc: money(openAvg),
    ...(ltp === undefined ? {} : { lp: String(ltp) }),
    rpnl: money(rpnl),
    urmtom: money(urmtom),
    prcftr: '1.000000',
  };
};

/** PositionBook's records of an account: one per exchange, symbol and product it traded today, in first-fill order. */
export const positionsOf = (
  orders: Iterable<BookOrder>,
  uid: string,
  tokenOf: (exch: string, tsym: string) => string,
  ltpOf: (exch: string, tsym: string) => number | undefined,
): Json[] => fillsOf(orders, uid).map((p) => positionRecord(p, tokenOf(p.exch, p.tsym), ltpOf(p.exch, p.tsym)));
