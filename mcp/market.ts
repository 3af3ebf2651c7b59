/**
 * The market beside a previewed order write: the symbol's last price, how far each trigger is from it (points and
 * %, above or below), and the order's tag. A trigger whose alert type watches another figure than the last price
 * (the change, average price, open interest, total open interest, volume) is measured against that figure, named
 * in `against` with its `value`, or shows why the quote lacks it (functions/base/schemas/alert-watch.ts). The price is the gateway's `GET /quotes`, whose one check drops a quote
 * naming another instrument than asked (functions/base/broker/market.ts `otherInstrumentOf`; Shoonya answers so
 * now and then): then, as when the broker has no quote or the read fails, the preview says the price is unavailable
 * and why, and shows no distance. A preview is never refused for want of a price.
 */
import { triggerDistance, type WatchedQuote, watchedValue } from '../functions/base/schemas/alert-watch.js';
import type { GttOrder } from '../functions/base/schemas/reply.js';
import { changedOrder } from './limits.js';
import type { GatewayPort, GatewayRequest } from './port.js';

type Fields = Record<string, unknown>;
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** One trigger and where it stands against the last price. */
export interface TriggerDistance {
  /** What the trigger is: the order's, an OCO's target or stop-loss, a plan's entry, exits or stop. */
  what: string;
  trigger: string;
  /** The trigger minus the last price, in the instrument's precision; absent without a price. */
  points?: string;
  /** The same as a percentage of the last price (two decimals, signed); absent without a price or for a change. */
  pct?: string;
  /** What the trigger is measured against when its alert watches another figure than the last price. */
  against?: string;
  /** That figure's value in the quote. */
  value?: string;
  /** Why the quote gives no such figure (no distance is shown then, never one from the last price). */
  unavailable?: string;
}

export interface MarketView {
  instrument: string;
  /** The last traded price, as `GET /quotes` answered it. */
  lastPrice?: string;
  /** Why there is no last price: the broker has none, its quote named another instrument, or the read failed. */
  priceUnavailable?: string;
  triggers: TriggerDistance[];
  tag?: string;
}

interface Subject {
  exch: string;
  tsym: string;
  triggers: { what: string; trigger: unknown; alertType?: unknown }[];
  tag?: unknown;
}

const legs = (o: Fields, prefix = ''): Subject['triggers'] =>
  (['target', 'stopLoss'] as const).map((name) => ({
    what: `${prefix}${name === 'target' ? 'target' : 'stop-loss'}`,
    trigger: (o[name] as Fields | undefined)?.trigger,
  }));

/** The instrument, the triggers and the tag the request leaves at the broker (a change: the order after it). */
const subjectOf = (request: GatewayRequest, current: GttOrder | undefined): Subject | undefined => {
  const b = request.body ?? {};
  switch (request.operation) {
    case 'PlaceGTTOrder':
    case 'ModifyGTTOrder':
      return {
        exch: str(b.exch),
        tsym: str(b.tsym),
        triggers: [{ what: 'trigger', trigger: b.d, alertType: b.ai_t }],
        tag: b.tag,
      };
    case 'PlaceOCOOrder':
    case 'ModifyOCOOrder':
      return { exch: str(b.exch), tsym: str(b.tsym), triggers: legs(b), tag: b.tag };
    case 'PatchGTTOrder':
    case 'PatchOCOOrder':
    case 'CancelGTTOrder': {
      if (!current) return undefined;
      const o = request.operation === 'CancelGTTOrder' ? (current as unknown as Fields) : changedOrder(current, b);
      const oco = o.target !== undefined || o.stopLoss !== undefined;
      return {
        exch: str(o.exch),
        tsym: str(o.tsym),
        triggers: oco ? legs(o) : [{ what: 'trigger', trigger: o.d ?? o.trigger, alertType: o.ai_t }],
        tag: o.tag,
      };
    }
    case 'CreatePlan': {
      if (b.kind === 'bracket') {
        const entry = (b.entry ?? {}) as Fields;
        return {
          exch: str(entry.exch),
          tsym: str(entry.tsym),
          triggers: [{ what: 'entry', trigger: entry.d, alertType: entry.ai_t }, ...legs(b, 'exit ')],
          tag: b.tag ?? entry.tag,
        };
      }
      const order = (b.order ?? {}) as Fields;
      return {
        exch: str(order.exch),
        tsym: str(order.tsym),
        triggers: [{ what: 'stop', trigger: order.d, alertType: order.ai_t }],
        tag: b.tag ?? order.tag,
      };
    }
    default:
      return undefined;
  }
};

/** The last price read through the gateway (and the quote, for the figures other alerts watch), or why there is none. */
const lastPriceOf = async (
  port: GatewayPort,
  exch: string,
  tsym: string,
): Promise<{ lp?: string; precision: number; unavailable?: string; quote?: WatchedQuote }> => {
  try {
    const quote = (await port.call({ operation: 'GetQuote', query: { exch, tsym } })) as Fields;
    const precision = typeof quote.precision === 'number' ? quote.precision : 2;
    const lp = str(quote.lp);
    if (typeof quote.priceUnavailable === 'string') return { precision, unavailable: quote.priceUnavailable };
    const figures = quote.figures as WatchedQuote['figures'];
    if (lp === '' || !(Number(lp) > 0))
      return { precision, unavailable: 'the broker has no quote for it yet', quote: { figures } };
    return { lp, precision, quote: { lp, figures } };
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return { precision: 2, unavailable: `the quote could not be read (${str(code) || 'error'}: ${str(message)})` };
  }
};

/**
 * The market beside the request, or undefined for a write that names no instrument (a plan's cancel, the kill
 * switch) or a change whose order was not read.
 */
export const marketOf = async (
  port: GatewayPort,
  request: GatewayRequest,
  current?: GttOrder,
): Promise<MarketView | undefined> => {
  const subject = subjectOf(request, current);
  if (!subject || !subject.exch || !subject.tsym) return undefined;
  const { lp, precision, unavailable, quote } = await lastPriceOf(port, subject.exch, subject.tsym);
  const triggers = subject.triggers
    .filter((t) => str(t.trigger) !== '')
    .map((t): TriggerDistance => {
      const alertType = str(t.alertType) || undefined;
      const trigger = str(t.trigger);
      const watched = quote ? watchedValue(alertType, quote) : undefined;
      const other = watched !== undefined && watched.what !== 'last price';
      const against = other ? { against: watched.what } : {};
      if (!watched || 'unavailable' in watched)
        return { what: t.what, trigger, ...against, ...(other ? { unavailable: watched.unavailable } : {}) };
      return {
        what: t.what,
        trigger,
        ...against,
        ...(other ? { value: watched.text } : {}),
        ...triggerDistance(alertType, trigger, watched.value, precision),
      };
    });
  const tag = str(subject.tag);
  return {
    instrument: `${subject.exch}:${subject.tsym}`,
    ...(lp === undefined ? {} : { lastPrice: lp }),
    ...(unavailable === undefined ? {} : { priceUnavailable: unavailable }),
    triggers,
    ...(tag ? { tag } : {}),
  };
};

/** The market in one sentence for the summary: `Last price of NSE:INFY-EQ 1500.00; trigger 1460 is 40.00 (2.67%) below it; tag swing-1.` */
export const marketLine = (m: MarketView): string => {
  const where = (t: TriggerDistance): string => {
    const of = t.against ? ` (${t.against})` : '';
    if (t.unavailable !== undefined) return `${t.what}${of} ${t.trigger}: ${t.against} unavailable (${t.unavailable})`;
    if (t.points === undefined) return `${t.what}${of} ${t.trigger}`;
    const n = Number(t.points);
    const it = t.against ? `the ${t.against} ${t.value}${t.against === 'change' ? '%' : ''}` : 'it';
    if (n === 0) return `${t.what}${of} ${t.trigger} is at ${it}`;
    const size = `${t.points.replace(/^[+-]/, '')}${t.pct === undefined ? (t.against === 'change' ? ' points' : '') : ` (${t.pct.replace(/^[+-]/, '')}%)`}`;
    return `${t.what}${of} ${t.trigger} is ${size} ${n > 0 ? 'above' : 'below'} ${it}`;
  };
  const price =
    m.lastPrice === undefined
      ? `Last price of ${m.instrument}: unavailable (${m.priceUnavailable ?? 'not read'})`
      : `Last price of ${m.instrument} ${m.lastPrice}`;
  return [price, ...m.triggers.map(where), m.tag ? `tag ${m.tag}` : 'no tag'].join('; ') + '.';
};
