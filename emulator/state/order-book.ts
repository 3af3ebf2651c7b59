/**
 * What a fired GTT becomes: an ordinary order in the account's order book, with its own number (`norenordno`), the
 * GTT's `remarks`, and a status history. By default the market decides (docs/reference/emulator.md, "The market"): a market
 * order fills at the last traded price; a limit order the market has reached (a buy at or above the last price, a
 * sell at or below it) fills at the last traded price; any other limit order rests OPEN at the exchange and fills at
 * its limit when a later price reaches it (`matchResting`). The control surface can make the next fired orders
 * reject (with a reason), fill partly, stay open or fill whatever the price, and can close the trading day (open
 * orders cancelled, keeping what filled). Served as `OrderBook` and `SingleOrdHist`, with `SearchScrip` and
 * `GetQuotes` for prices.
 * Decisions (docs/explanation/emulator-extensions.md): the GetTrgOi record does not name the order it created (no public source
 * shows it doing so), so a client matches a fired GTT to its order by exchange, symbol, side and quantity, and by
 * remarks where the order carries them (this emulator carries the GTT's remarks into the order).
 */
import { requestTime } from './formats.js';
import { marketRefusal } from './market.js';
import { type Json, Refusal, requireString } from './orders.js';
import type { LegName, Order, OrderLeg } from './state.js';
import { exchangeRuleRefusal } from './symbols.js';

/** Whether a limit order can trade at the market's price: a buy limit at or above it, a sell limit at or below. */
export const marketable = (trantype: string, limit: string, ltp: number): boolean => {
  const price = Number(limit);
  if (!Number.isFinite(price) || price <= 0) return false;
  return trantype === 'S' ? ltp >= price : ltp <= price;
};

/**
 * What a limit order fills at when it arrives: the market's price when the order is marketable there (never worse
 * than the limit: a buy at or below it, a sell at or above it, as an exchange matches a marketable limit order at
 * the best price on the book, the last traded price standing for the book); the limit itself otherwise (only when
 * an outcome queued through the control surface fills it whatever the market).
 */
export const fillPrice = (trantype: string, limit: string, ltp: number): string =>
  marketable(trantype, limit, ltp) ? String(ltp) : limit;

export type BookStatus = 'OPEN' | 'TRIGGER_PENDING' | 'COMPLETE' | 'REJECTED' | 'CANCELED';

/** One state of an order, as SingleOrdHist lists them (newest first). */
export interface BookState {
  status: BookStatus | 'PENDING';
  /** `HH:MM:SS DD-MM-YYYY`, India time. */
  norentm: string;
  fillshares: number;
  avgprc: string;
  rejreason: string;
}

export interface BookOrder extends NewOrder {
  norenordno: string;
  history: BookState[];
  /** A limit order the market has not reached: OPEN at the exchange until a price reaches its limit (ours). */
  resting?: boolean;
}

/**
 * How the next fired order ends (`POST /_emulator/next-order`), whatever the market; without one queued the market
 * decides (a complete fill, or a limit resting OPEN).
 */
/** What an order reaching the exchange carries (a fired GTT's terms, or PlaceOrder's checked fields). */
export interface NewOrder {
  uid: string;
  actid: string;
  exch: string;
  tsym: string;
  trantype: string;
  qty: number;
  prc: string;
  prctyp: string;
  prd: string;
  ret: string;
  remarks: string;
  /** The GTT that placed it (ours: not on the wire); empty for an order PlaceOrder placed. */
  al_id: string;
  /** A stop-loss order's trigger price. */
  trgprc?: string | undefined;
}

/** Whether a stop-loss order's trigger is reached: a buy stop when the price rises to it, a sell stop when it falls. */
const triggered = (trantype: string, trgprc: string | undefined, ltp: number | undefined): boolean =>
  ltp !== undefined && trgprc !== undefined && (trantype === 'B' ? ltp >= Number(trgprc) : ltp <= Number(trgprc));

/** Whether a limit order can trade on arrival (never without a price). */
const reached = (terms: { trantype: string; prc: string }, ltp: number | undefined): boolean =>
  ltp !== undefined && marketable(terms.trantype, terms.prc, ltp);

export type NextOutcome =
  | { status: 'filled' }
  | { status: 'rejected'; reason: string }
  | { status: 'partial'; fillQty: number }
  | { status: 'open' }
  | { status: 'cancelled' };

const MAX_QUEUED_OUTCOMES = 100;

export class OrderBook {
  readonly orders = new Map<string, BookOrder>();
  private readonly outcomes: NextOutcome[] = [];
  constructor(
    /** A new order number (YYMMDD + 8 digits, like al_ids, from a counter of their own). */
    private readonly newNumber: () => string,
  ) {}

  /** Queue how the next fired order ends; answers how many are queued. */
  queue(outcome: NextOutcome): number {
    if (this.outcomes.length >= MAX_QUEUED_OUTCOMES)
      throw new Refusal(`at most ${MAX_QUEUED_OUTCOMES} outcomes may wait`);
    this.outcomes.push(outcome);
    return this.outcomes.length;
  }

  clear(): void {
    this.orders.clear();
    this.outcomes.length = 0;
  }

  /** The order a fired GTT (or the fired leg of an OCO) places, ended as queued (or filled). */
  placeFired(order: Order, leg: LegName, ltp: number, now: Date, close?: number): BookOrder {
    const terms: Pick<OrderLeg, 'trantype' | 'prctyp' | 'prd' | 'ret' | 'qty' | 'prc'> =
      order.kind === 'oco' ? order.legs[leg] : order;
    const { uid, actid, exch, tsym, remarks, al_id } = order;
    // The GTT's own trigger was its stop: a stop-loss leg's order is not held for its `trgprc` again (and, as
    // before PlaceOrder, its retention is not read).
    return this.place({ uid, actid, exch, tsym, remarks, al_id, ...terms }, ltp, now, close, false);
  }

  /**
   * An order as it reaches the exchange (a fired GTT's, or PlaceOrder's), ended as queued, else by the market at
   * `ltp` (undefined: the symbol has no price yet, so nothing can match it): a market order fills at the price; a
   * limit order the price has reached fills at the price, any other rests OPEN. Placed `direct` (PlaceOrder), an
   * `IOC` limit is cancelled instead of resting, and a stop-loss order (`SL-LMT`, `SL-MKT`) waits as TRIGGER_PENDING
   * until the price reaches its `trgprc`.
   */
  place(terms: NewOrder, ltp: number | undefined, now: Date, close?: number, direct = true): BookOrder {
    const at = requestTime(now);
    const market = terms.prctyp === 'MKT' || terms.prctyp === 'SL-MKT';
    const stop = direct && (terms.prctyp === 'SL-LMT' || terms.prctyp === 'SL-MKT');
    // The exchange refuses an order off the instrument's tick or lot, outside today's band or above the freeze
    // quantity, whatever was queued (the queue is not used); a market order needs a price to fill at.
    const broken =
      exchangeRuleRefusal(terms.exch, terms.tsym, terms) ??
      marketRefusal(terms.exch, terms.tsym, terms, close) ??
      (market && !stop && ltp === undefined ? `No market price of ${terms.tsym} to fill a market order at` : undefined);
    const queued = broken ? undefined : this.outcomes.shift();
    const price = market ? String(ltp ?? 0) : ltp === undefined ? terms.prc : fillPrice(terms.trantype, terms.prc, ltp);
    // Without a queued outcome the market decides: a stop waits for its trigger; a limit it has not reached rests
    // OPEN (an IOC limit is cancelled instead).
    const pending = stop && !triggered(terms.trantype, terms.trgprc, ltp);
    const waits = !broken && !queued && (pending || (!market && !reached(terms, ltp)));
    const rests = waits && !(direct && terms.ret === 'IOC' && !pending);
    const outcome: NextOutcome = broken
      ? { status: 'rejected', reason: broken }
      : (queued ?? (rests ? { status: 'open' } : waits ? { status: 'cancelled' } : { status: 'filled' }));
    const placed: BookState = { status: 'PENDING', norentm: at, fillshares: 0, avgprc: '0', rejreason: '' };
    const open: BookState = { ...placed, status: rests && pending ? 'TRIGGER_PENDING' : 'OPEN' };
    const last: BookState =
      outcome.status === 'rejected'
        ? { ...placed, status: 'REJECTED', rejreason: outcome.reason }
        : outcome.status === 'partial'
          ? { ...open, fillshares: Math.min(outcome.fillQty, terms.qty), avgprc: price }
          : outcome.status === 'open'
            ? open
            : outcome.status === 'cancelled'
              ? { ...open, status: 'CANCELED' }
              : { ...placed, status: 'COMPLETE', fillshares: terms.qty, avgprc: price };
    const book: BookOrder = {
      norenordno: this.newNumber(),
      uid: terms.uid,
      actid: terms.actid,
      exch: terms.exch,
      tsym: terms.tsym,
      trantype: terms.trantype,
      qty: terms.qty,
      prc: market ? '0' : terms.prc,
      prctyp: terms.prctyp,
      prd: terms.prd,
      ret: terms.ret,
      remarks: terms.remarks,
      al_id: terms.al_id,
      ...(stop && terms.trgprc !== undefined ? { trgprc: terms.trgprc } : {}),
      // Newest first, as SingleOrdHist answers.
      history: outcome.status === 'rejected' ? [last, placed] : last === open ? [open, placed] : [last, open, placed],
      ...(rests ? { resting: true } : {}),
    };
    this.orders.set(book.norenordno, book);
    return book;
  }

  /**
   * A new last traded price of a symbol: every resting limit order of it the price reaches (a buy at or below its
   * limit, a sell at or above it) fills completely at its limit, as the exchange matches a resting order at its own
   * price; every stop-loss order whose trigger it reaches is triggered: a market one fills at the price, a limit one
   * fills as a limit arriving now would, or rests OPEN at its limit. Answers the orders filled, oldest first.
   */
  matchResting(exch: string, tsym: string, ltp: number, now: Date): BookOrder[] {
    const at = requestTime(now);
    const filled: BookOrder[] = [];
    for (const o of this.orders.values()) {
      if (!o.resting || o.exch !== exch || o.tsym !== tsym) continue;
      const state = o.history[0]!;
      if (state.status === 'TRIGGER_PENDING') {
        if (!triggered(o.trantype, o.trgprc, ltp)) continue;
        if (o.prctyp === 'SL-MKT' || marketable(o.trantype, o.prc, ltp)) {
          const avgprc = o.prctyp === 'SL-MKT' ? String(ltp) : fillPrice(o.trantype, o.prc, ltp);
          o.history.unshift({ ...state, status: 'COMPLETE', norentm: at, fillshares: o.qty, avgprc });
          delete o.resting;
          filled.push(o);
        } else o.history.unshift({ ...state, status: 'OPEN', norentm: at });
      } else if (state.status === 'OPEN' && marketable(o.trantype, o.prc, ltp)) {
        o.history.unshift({ ...state, status: 'COMPLETE', norentm: at, fillshares: o.qty, avgprc: o.prc });
        delete o.resting;
        filled.push(o);
      }
    }
    return filled;
  }

  /**
   * The close of the trading day: every OPEN order of every account (or only the one named) gets a newest state
   * CANCELED that keeps its fill and average price. Answers the numbers of the orders cancelled, oldest first.
   */
  close(now: Date, norenordno?: string): string[] {
    const at = requestTime(now);
    const open = [...this.orders.values()].filter(
      (o) =>
        ['OPEN', 'TRIGGER_PENDING'].includes(o.history[0]!.status) &&
        (norenordno === undefined || o.norenordno === norenordno),
    );
    for (const o of open) o.history.unshift({ ...o.history[0]!, status: 'CANCELED', norentm: at });
    return open.map((o) => o.norenordno);
  }

  /** OrderBook: the account's orders, newest first, each in its latest state. */
  bookOf(uid: string): Json[] {
    return [...this.orders.values()]
      .filter((o) => o.uid === uid)
      .reverse()
      .map((o) => record(o, o.history[0]!));
  }

  /** SingleOrdHist: the order's states, newest first. */
  historyOf(uid: string, fields: Json): Json[] {
    const number = requireString(fields, 'norenordno');
    const order = this.orders.get(number);
    if (!order || order.uid !== uid) throw new Refusal('Invalid Order Number');
    return order.history.map((state) => record(order, state));
  }
}

const record = (o: BookOrder, state: BookState): Json => ({
  stat: 'Ok',
  norenordno: o.norenordno,
  uid: o.uid,
  actid: o.actid,
  exch: o.exch,
  tsym: o.tsym,
  trantype: o.trantype,
  qty: String(o.qty),
  prc: o.prc,
  prctyp: o.prctyp,
  ...(o.trgprc === undefined ? {} : { trgprc: o.trgprc }),
  prd: o.prd,
  ret: o.ret,
  status: state.status,
  fillshares: String(state.fillshares),
  ...(state.fillshares > 0 ? { avgprc: state.avgprc } : {}),
  ...(state.rejreason ? { rejreason: state.rejreason } : {}),
  remarks: o.remarks,
  norentm: state.norentm,
  exch_tm: state.norentm.replace(/^(\d\d:\d\d:\d\d) (\d\d)-(\d\d)-(\d{4})$/, '$2-$3-$4 $1'),
  ordersource: 'API',
});
