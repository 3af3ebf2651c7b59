/** Injected faults: what a broker or the network in front of it does on a bad day, per operation. */
import { requestTime } from '../state/formats.js';
import type { Order } from '../state/state.js';
import { type EmulatorReply, json, notOk } from '../wire/reply.js';

export const FAULT_KINDS = [
  'delay',
  'http5xx',
  'nonJson',
  'drop',
  'serverTimeout',
  'rateLimit',
  'notOk',
  'otherInstrument',
  'swappedLegs',
] as const;
/** The operations a kind is for, where it is not for every one. */
export const FAULT_OPERATIONS: Partial<Record<FaultKind, readonly string[]>> = {
  otherInstrument: ['GetQuotes'],
  swappedLegs: ['PlaceOCOOrder'],
};
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  id: string;
  /** An operation name, or `*` for every operation. */
  operation: string;
  kind: FaultKind;
  /** How many more matching requests it applies to. */
  remaining: number;
  delayMs: number;
  status?: number;
  message?: string;
  /** Carry the operation out first, then misbehave (the broker acted but the client never hears). */
  executed: boolean;
  /** A delay: carry the operation out when the delay ends even if the client gave up (a broker acting late). */
  late?: boolean;
}

export class FaultBook {
  private faults: Fault[] = [];
  private seq = 0;

  add(spec: Omit<Fault, 'id' | 'remaining'> & { times: number }): Fault {
    const { times, ...rest } = spec;
    const fault: Fault = { ...rest, id: `f${++this.seq}`, remaining: times };
    this.faults.push(fault);
    return fault;
  }

  /** The next fault for this operation, consumed by one use. */
  take(operation: string): Fault | undefined {
    const fault = this.faults.find((f) => f.operation === operation || f.operation === '*');
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return { ...fault };
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  clear(): void {
    this.faults = [];
  }
}

/** What the client gets instead of the operation's reply. */
export const faultReply = (fault: Fault, invalidInputAs400: boolean): EmulatorReply => {
  switch (fault.kind) {
    case 'http5xx':
      return {
        status: fault.status ?? 503,
        body: `<html><body><h1>${fault.status ?? 503} Service Unavailable</h1></body></html>`,
        contentType: 'text/html',
      };
    case 'nonJson':
      return { status: 200, body: '<html>gateway error</html>', contentType: 'text/html' };
    case 'drop':
      return { status: 0, body: '', contentType: 'text/plain', fault: { kind: 'drop' } };
    case 'serverTimeout':
      return notOk(`Server Timeout :  ${fault.message ?? 'Please try after some time'}`);
    case 'rateLimit':
      // The broker's own spelling.
      return notOk(fault.message ?? 'Order Recieved 11 in a current second exceeds Limit 10');
    case 'notOk': {
      const message = fault.message ?? 'Invalid Input : rejected by fault injection';
      return notOk(message, invalidInputAs400 && message.startsWith('Invalid Input') ? 400 : 200);
    }
    case 'otherInstrument':
      // Shoonya's GetQuotes now and then answers a complete `stat: Ok` snapshot of another instrument, the NSE index
      // in every case counted (marketcalls/openalgo issue #1792): its exch, token and tsym say so, nothing else does.
      return json(200, {
        request_time: requestTime(),
        stat: 'Ok',
        exch: 'NSE',
        tsym: 'Nifty 50',
        token: '26000',
        lp: fault.message ?? '24584.85',
      });
    case 'delay':
    case 'swappedLegs':
      // Neither stands instead of a reply: a delay answers later, swapped legs answer as usual (withFaultApplied).
      return json(200, { stat: 'Not_Ok', emsg: `${fault.kind} fault without a reply` });
  }
};

/**
 * A `swappedLegs` fault (PlaceOCOOrder, carried out): the trap of this family, a broker that pairs an OCO's legs
 * (x/y) otherwise than the client sent them. The OCO the reply names is kept with its triggers swapped: the target's
 * order rests at the stop-loss's trigger and the other way round, so the stop-loss order fires at entry. The reply
 * is the broker's usual `OI created`.
 */
export const withFaultApplied = (orders: Map<string, Order>, fault: Fault | undefined, reply: EmulatorReply) => {
  if (fault?.kind !== 'swappedLegs') return reply;
  let alId: unknown;
  try {
    alId = (JSON.parse(reply.body) as { al_id?: unknown }).al_id;
  } catch {
    return reply;
  }
  const order = typeof alId === 'string' ? orders.get(alId) : undefined;
  if (order?.kind === 'oco')
    Object.assign(order, { x: order.y, y: order.x, xRises: order.yRises, yRises: order.xRises });
  return reply;
};
