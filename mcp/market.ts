/**
 * The market beside a previewed order write: the symbol's last price, how far each trigger is from it (points and
 * %, above or below), and the order's tag. The price is the gateway's `GET /quotes`, whose one check drops a quote
 * naming another instrument than asked (functions/base/broker/market.ts `otherInstrumentOf`; Shoonya answers so
 * now and then): then, as when the broker has no quote or the read fails, the preview says the price is unavailable
 * and why, and shows no distance. A preview is never refused for want of a price.
 */
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
  /** The same as a percentage of the last price (two decimals, signed); absent without a price. */
  pct?: string;
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
  triggers: { what: string; trigger: unknown }[];
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
      return { exch: str(b.exch), tsym: str(b.tsym), triggers: [{ what: 'trigger', trigger: b.d }], tag: b.tag };
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
        triggers: oco ? legs(o) : [{ what: 'trigger', trigger: o.d ?? o.trigger }],
        tag: o.tag,
      };
    }
    case 'CreatePlan': {
      if (b.kind === 'bracket') {
        const entry = (b.entry ?? {}) as Fields;
        return {
          exch: str(entry.exch),
          tsym: str(entry.tsym),
          triggers: [{ what: 'entry', trigger: entry.d }, ...legs(b, 'exit ')],
          tag: b.tag ?? entry.tag,
        };
      }
      const order = (b.order ?? {}) as Fields;
      return {
        exch: str(order.exch),
        tsym: str(order.tsym),
        triggers: [{ what: 'stop', trigger: order.d }],
        tag: b.tag ?? order.tag,
      };
    }
    default:
      return undefined;
  }
};

const distance = (trigger: string, lp: number, precision: number): Pick<TriggerDistance, 'points' | 'pct'> => {
  const t = Number(trigger);
  if (trigger === '' || !Number.isFinite(t)) return {};
  const points = t - lp;
  const signed = (n: number, digits: number) => `${n > 0 ? '+' : ''}${n.toFixed(digits)}`;
  return { points: signed(points, precision), pct: signed((points / lp) * 100, 2) };
};

/** The last price read through the gateway, or why there is none. */
const lastPriceOf = async (
  port: GatewayPort,
  exch: string,
  tsym: string,
): Promise<{ lp?: string; precision: number; unavailable?: string }> => {
  try {
    const quote = (await port.call({ operation: 'GetQuote', query: { exch, tsym } })) as Fields;
    const precision = typeof quote.precision === 'number' ? quote.precision : 2;
    const lp = str(quote.lp);
    if (typeof quote.priceUnavailable === 'string') return { precision, unavailable: quote.priceUnavailable };
    if (lp === '' || !(Number(lp) > 0)) return { precision, unavailable: 'the broker has no quote for it yet' };
    return { lp, precision };
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
  const { lp, precision, unavailable } = await lastPriceOf(port, subject.exch, subject.tsym);
  const triggers = subject.triggers
    .filter((t) => str(t.trigger) !== '')
    .map((t) => ({
      what: t.what,
      trigger: str(t.trigger),
      ...(lp === undefined ? {} : distance(str(t.trigger), Number(lp), precision)),
    }));
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
    if (t.points === undefined) return `${t.what} ${t.trigger}`;
    const n = Number(t.points);
    if (n === 0) return `${t.what} ${t.trigger} is at it`;
    return `${t.what} ${t.trigger} is ${t.points.replace(/^[+-]/, '')} (${t.pct!.replace(/^[+-]/, '')}%) ${n > 0 ? 'above' : 'below'} it`;
  };
  const price =
    m.lastPrice === undefined
      ? `Last price of ${m.instrument}: unavailable (${m.priceUnavailable ?? 'not read'})`
      : `Last price of ${m.instrument} ${m.lastPrice}`;
  return [price, ...m.triggers.map(where), m.tag ? `tag ${m.tag}` : 'no tag'].join('; ') + '.';
};
