/**
 * A plan engine's parts in memory for the option plan's unit tests (test/unit/option-entry-plan.test.ts): a plan
 * store with the real one's versioned writes, a day's chain, prices by instrument, and a broker that keeps its
 * orders by idempotency key as the order core's journal does (a key sent again answers the order it placed, never a
 * second one), with a lost reply on demand. The engine under test is the real one.
 */
import { GatewayError, TradingHaltedError } from '../../functions/base/contract/errors.js';
import type { LifecycleEvent } from '../../functions/base/schemas/events.js';
import type { Plan } from '../../functions/base/schemas/plans.js';
import type { ChainExpiry, OptionChains } from '../../functions/orders/instruments/option-pick.js';
import type { PlanDeps } from '../../functions/plans/engine.js';
import type { StoredPlan } from '../../functions/plans/store.js';

class LostReplyError extends GatewayError {
  readonly code = 'BROKER_TIMEOUT' as const;
}

/** One NIFTY expiry of 50-point strikes, lot 65. */
export const chainOf = (expiry: string, strikes: number[], lot = 65): ChainExpiry => {
  const tag = `${expiry.slice(8, 10)}${['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'][Number(expiry.slice(5, 7)) - 1]}${expiry.slice(2, 4)}`;
  return {
    underlying: 'NIFTY',
    exch: 'NFO',
    expiry,
    lot,
    tick: '0.05',
    strikes: strikes.map((strike) => ({
      strike,
      CE: { tsym: `NIFTY${tag}C${strike}`, token: `c${strike}` },
      PE: { tsym: `NIFTY${tag}P${strike}`, token: `p${strike}` },
    })),
  };
};

export interface BookOrder {
  norenordno: string;
  exch: string;
  tsym: string;
  qty: number;
  prc: string;
  ret: string;
  tag?: string;
  status: 'open' | 'filled' | 'partially-filled' | 'rejected' | 'cancelled';
  brokerStatus?: string;
  filledQty: number;
  averagePrice?: string;
}

export const memoryDeps = (chains: ChainExpiry[], now: () => Date) => {
  const plans = new Map<string, StoredPlan>();
  const prices = new Map<string, number>();
  const book: BookOrder[] = [];
  const byKey = new Map<string, string>();
  const sent: Record<string, unknown>[] = [];
  const ocos: Record<string, unknown>[] = [];
  const events: LifecycleEvent[] = [];
  const broker = {
    /** What the next entry does: fill (at its limit, or `average`), a part of it, nothing. */
    fill: 'all' as 'all' | 'part' | 'none',
    average: undefined as string | undefined,
    halted: false,
    /** The next entry's reply is lost on the way back (the order placed). */
    loseReply: false,
    freeze: undefined as number | undefined,
    /** Today's price band of every contract (GetQuotes lc/uc), or none given. */
    band: undefined as { lc: string; uc: string } | undefined,
    chainFails: false,
  };
  const copy = (p: StoredPlan): StoredPlan => structuredClone(p);
  const store = {
    get: (id: string) => Promise.resolve(plans.has(id) ? copy(plans.get(id)!) : undefined),
    create: (plan: Plan) => {
      if (plans.has(plan.planId)) return Promise.resolve(false);
      plans.set(plan.planId, { plan: structuredClone(plan), version: 1, outbox: [] });
      return Promise.resolve(true);
    },
    update: (plan: Plan, version: number, outbox: readonly LifecycleEvent[]) => {
      const was = plans.get(plan.planId);
      if (!was || was.version !== version) return Promise.resolve(false);
      plans.set(plan.planId, { plan: structuredClone(plan), version: version + 1, outbox: [...outbox] });
      return Promise.resolve(true);
    },
    clearOutbox: (id: string, version: number) => {
      const was = plans.get(id);
      if (was && was.version === version) was.outbox = [];
      return Promise.resolve();
    },
    remove: (id: string) => Promise.resolve(plans.delete(id)),
    list: () => Promise.resolve([...plans.values()].map(copy)),
    page: () => Promise.resolve({ plans: [...plans.values()].map(copy) }),
  };
  const memoryChains: OptionChains = {
    expiries: () =>
      broker.chainFails
        ? Promise.reject(new Error('table not reachable'))
        : Promise.resolve(chains.map((c) => c.expiry).sort()),
    chain: (_exch, _underlying, expiry) => Promise.resolve(chains.find((c) => c.expiry === expiry)),
  };
  const placeOrder = (input: unknown) => {
    const order = input as Record<string, unknown> & { idempotencyKey: string };
    const known = byKey.get(order.idempotencyKey);
    if (known) return Promise.resolve({ norenordno: known, idempotency: { replayed: true, adopted: true } });
    if (broker.halted)
      return Promise.reject(new TradingHaltedError('the kill switch is on', { outcome: 'not_executed' }));
    sent.push(order);
    const norenordno = String(26_000_000 + book.length + 1);
    const qty = Number(order.qty);
    const filledQty = broker.fill === 'all' ? qty : broker.fill === 'part' ? qty / 2 : 0;
    book.push({
      norenordno,
      exch: String(order.exch),
      tsym: String(order.tsym),
      qty,
      prc: String(order.prc),
      ret: String(order.ret),
      tag: String(order.tag),
      status: filledQty === qty ? 'filled' : filledQty > 0 ? 'partially-filled' : 'cancelled',
      brokerStatus: filledQty === qty ? 'COMPLETE' : 'CANCELED',
      filledQty,
      ...(filledQty ? { averagePrice: broker.average ?? String(order.prc) } : {}),
    });
    byKey.set(order.idempotencyKey, norenordno);
    if (broker.loseReply) {
      broker.loseReply = false;
      return Promise.reject(new LostReplyError('the reply was lost', { outcome: 'unknown' }));
    }
    return Promise.resolve({ norenordno, idempotency: { replayed: false } });
  };
  const deps: PlanDeps = {
    store: store as unknown as PlanDeps['store'],
    place: () => Promise.reject(new Error('an option plan places no GTT entry')),
    placeOco: (input) => {
      ocos.push(input as Record<string, unknown>);
      return Promise.resolve({ al_id: String(9000 + ocos.length) });
    },
    modify: () => Promise.reject(new Error('not used')),
    cancel: () => Promise.resolve({}),
    pending: () =>
      Promise.resolve({
        orders: ocos.map((o, i) => ({ al_id: String(9001 + i), tag: o.tag, type: 'oco', ...o })),
      }),
    triggered: () => Promise.resolve({ orders: [] }),
    instrument: () => Promise.resolve({ tick: '0.05', lot: 65 }),
    lastPrice: (exch, tsym) => {
      const price = prices.get(`${exch}:${tsym}`);
      return price === undefined ? Promise.reject(new Error(`no quote of ${exch}:${tsym}`)) : Promise.resolve(price);
    },
    placeOrder,
    orderBook: () => Promise.resolve({ orders: structuredClone(book) }),
    chains: memoryChains,
    band: () => Promise.resolve(broker.band),
    freeze: () => Promise.resolve(broker.freeze),
    expiryCutoffMinutes: 30,
    protectionPercent: 'auto',
    publish: (e) => {
      events.push(...e);
      return Promise.resolve();
    },
    scope: () => Promise.resolve('test'),
    now,
  };
  return { deps, plans, prices, book, sent, ocos, events, broker };
};
