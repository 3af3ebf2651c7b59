/**
 * What became of the order a fired GTT placed: the broker's order book records in one normalised shape, rejection
 * texts turned into codes with a hint, and the rule that matches a fired GTT to its order.
 *
 * Matching (decided here: no public source shows the triggered record naming its order). The broker keeps a GTT's
 * `remarks` (its tag) on the GTT's record (the family's 2021 API docs show `Remarks` on GetPendingGTTOrder records)
 * and, on the brokers that carry it, on the order the GTT places; that last is uncertain across the family. An order
 * can answer for a fired GTT when it has the same exchange, symbol, side and quantity (the fired leg's, for an OCO)
 * and was placed no earlier than 5 seconds before the GTT fired (the clocks of the two books may differ a little).
 * (`Remarks` in the 2021 dialect reaches this code as `remarks`: dialects.ts reads every dialect before the schema.)
 * Among those, by the order's remarks:
 * - An order with remarks answers only to a GTT whose tag equals them exactly; untagged GTTs never take it.
 * - An order without remarks (a broker that does not carry them into the order) answers to an untagged GTT, and to a
 *   tagged GTT only when unambiguous: that GTT is the only fired GTT in the list (with an order already or not) of
 *   the order's exchange, symbol, side and quantity fired in its window, and the order is the only unclaimed one
 *   without remarks that the GTT could take. An ambiguous match stays unmatched: never guessed.
 * Exact matches and untagged GTTs go in the order the GTTs fired, the earliest order first; each order answers for
 * one GTT only.
 */
import type { BookOrder, OrderBookRecord, OrderRejection, OrderStatus } from '../schemas/reply.js';
import { splitRemarks } from './order-stamps.js';

/** `HH:MM:SS DD-MM-YYYY` (India time, as the broker writes it) -> epoch ms, or undefined. */
export const brokerTimeMs = (text: string | undefined): number | undefined => {
  const m = /^(\d{2}):(\d{2}):(\d{2}) (\d{2})-(\d{2})-(\d{4})$/.exec(text ?? '');
  if (!m) return undefined;
  const [, hh, mi, ss, dd, mm, yyyy] = m.map(Number) as [number, number, number, number, number, number, number];
  return Date.UTC(yyyy, mm - 1, dd, hh, mi, ss) - 5.5 * 60 * 60 * 1000;
};

/**
 * Rejection texts of this broker family, most specific first: each a code with what the trader can do. Texts seen
 * in public client code and broker notices; an unknown text keeps its words under BROKER_REJECTED.
 */
const REJECTIONS: { code: string; pattern: RegExp; hint: string }[] = [
  {
    code: 'RATE_LIMITED',
    pattern: /exceeds? limit|too many (orders|requests)|rate limit/i,
    hint: "Over the broker's order rate: the gateway's governor keeps below it; place again.",
  },
  {
    code: 'MARKET_ORDER_REFUSED',
    pattern: /ALGO_CHK|MKT order type not allowed|market orders? (are )?not allowed/i,
    hint: 'The broker refuses API market orders: use a limit price (or let the gateway convert market orders).',
  },
  {
    code: 'SESSION_EXPIRED',
    pattern: /session expired|invalid session/i,
    hint: 'The broker session ended before the order went out: log in again.',
  },
  {
    code: 'TPIN_REQUIRED',
    pattern: /EDIS|TPIN|not authori[sz]ed for sell|DDPI|POA/i,
    hint: 'Selling from demat needs your TPIN/eDIS authorisation (or DDPI) at the broker for the day.',
  },
  {
    code: 'INSUFFICIENT_FUNDS',
    pattern: /margin|insufficient (funds|balance)|fund (short|shortfall)|RMS:.*(limit|available)/i,
    hint: 'Not enough margin or funds for the order: add funds or reduce the quantity.',
  },
  {
    code: 'PRICE_OUTSIDE_BAND',
    pattern: /circuit|price (range|band)|outside (the )?(dpr|price band)|LPP|freeze/i,
    hint: "The price is outside the day's circuit or price band: choose a price within it.",
  },
];

export const classifyRejection = (text: string): OrderRejection => {
  const known = REJECTIONS.find((r) => r.pattern.test(text));
  return known
    ? { code: known.code, hint: known.hint, text }
    : { code: 'BROKER_REJECTED', hint: 'The broker refused the order; its own words are in `text`.', text };
};

const statusOf = (record: OrderBookRecord, qty: number, filled: number): OrderStatus => {
  const status = record.status.toUpperCase();
  if (status === 'COMPLETE') return 'filled';
  if (status === 'REJECTED') return 'rejected';
  if (status === 'CANCELED' || status === 'CANCELLED') return filled > 0 ? 'partially-filled' : 'cancelled';
  return filled > 0 && filled < qty ? 'partially-filled' : 'open';
};

/** One order book record in the gateway's shape. */
export const normaliseBookOrder = (record: OrderBookRecord): BookOrder => {
  const qty = Number(record.qty);
  const filled = Number(record.fillshares ?? '0') || 0;
  const status = statusOf(record, qty, filled);
  return {
    norenordno: record.norenordno,
    exch: record.exch,
    tsym: record.tsym,
    side: record.trantype,
    qty,
    price: record.prc,
    priceType: record.prctyp,
    product: record.prd,
    status,
    brokerStatus: record.status,
    filledQty: filled,
    ...(filled > 0 && record.avgprc ? { averagePrice: record.avgprc } : {}),
    ...(status === 'rejected' ? { rejection: classifyRejection(record.rejreason ?? record.status) } : {}),
    ...callerTag(record.remarks),
    ...(record.norentm ? { placedAt: record.norentm } : {}),
  };
};

/** The caller's tag of remarks the order carries (a journaled write's stamp split off: order-stamps.ts). */
const callerTag = (remarks: string | undefined): { tag?: string } => {
  const tag = splitRemarks(remarks).tag;
  return tag ? { tag } : {};
};

/** What a fired GTT placed, as the matching rule reads it. */
export interface FiredGtt {
  exch: string;
  tsym: string;
  side: string;
  qty: number;
  tag?: string;
  /** When it fired (`HH:MM:SS DD-MM-YYYY`). */
  firedAt?: string;
}

const SKEW_MS = 5_000;

/** Same exchange, symbol, side and quantity, placed no earlier than SKEW_MS before the GTT fired. */
const couldPlace = (gtt: FiredGtt, order: BookOrder): boolean => {
  const firedMs = brokerTimeMs(gtt.firedAt);
  return (
    order.exch === gtt.exch &&
    order.tsym === gtt.tsym &&
    order.side === gtt.side &&
    order.qty === gtt.qty &&
    (firedMs === undefined || (brokerTimeMs(order.placedAt) ?? firedMs) >= firedMs - SKEW_MS)
  );
};

/** For each fired GTT (in the list's order), the order it placed, or undefined while none is known for sure. */
export const matchFiredOrders = (fired: readonly FiredGtt[], book: readonly BookOrder[]): (BookOrder | undefined)[] => {
  const claimed = new Set<string>();
  const result: (BookOrder | undefined)[] = fired.map(() => undefined);
  const byPlacement = [...book].sort((a, b) => (brokerTimeMs(a.placedAt) ?? 0) - (brokerTimeMs(b.placedAt) ?? 0));
  const byFiring = fired
    .map((gtt, index) => ({ gtt, index }))
    .sort((a, b) => (brokerTimeMs(a.gtt.firedAt) ?? 0) - (brokerTimeMs(b.gtt.firedAt) ?? 0));
  const open = (gtt: FiredGtt, remarks: (tag: string | undefined) => boolean): BookOrder[] =>
    byPlacement.filter((o) => !claimed.has(o.norenordno) && remarks(o.tag) && couldPlace(gtt, o));
  const take = (index: number, order: BookOrder | undefined) => {
    if (!order) return;
    claimed.add(order.norenordno);
    result[index] = order;
  };
  // Certain: an order's remarks name the GTT's tag. Then untagged GTTs, which take only orders without remarks.
  for (const { gtt, index } of byFiring) {
    if (gtt.tag) take(index, open(gtt, (tag) => tag === gtt.tag)[0]);
  }
  for (const { gtt, index } of byFiring) {
    if (!gtt.tag) take(index, open(gtt, (tag) => !tag)[0]);
  }
  // A tagged GTT whose broker dropped the remarks: only when the GTT and the order are each the other's only one.
  for (const { gtt, index } of byFiring) {
    if (!gtt.tag || result[index]) continue;
    const candidates = open(gtt, (tag) => !tag);
    const only = candidates.length === 1 ? candidates[0] : undefined;
    if (only && fired.filter((other) => couldPlace(other, only)).length === 1) take(index, only);
  }
  return result;
};
