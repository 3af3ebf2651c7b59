/**
 * What plans do (docs/plans.md): created by `POST /plans` (the entry or stop GTT placed at once), carried out by the
 * scheduled watcher (`advancePlans`), cancelled by `DELETE /plans/{planId}`. Every broker action goes through the
 * operation table's own entries in-process (guardrails, idempotency, the order-rate governor, audit, events), with
 * idempotency keys derived from the plan and its step: two overlapping runs, or a retried run, never place an exit
 * or move a stop twice. A plan record changes only with a put conditional on the version read.
 */
import { createHash } from 'node:crypto';

import { fromDirectInvocation, OrderNotFoundError } from '../contract/errors.js';
import type { PlanDetailType } from '../schemas/event-types.js';
import type { LifecycleEvent } from '../schemas/events.js';
import { type Plan, type PlanInput, TERMINAL } from '../schemas/plans.js';
import type { PlanStore } from './store.js';

/** A table entry's handler, invoked directly (its named error on failure). */
export type DirectHandler = (input: Record<string, unknown>) => Promise<unknown>;

export interface PlanDeps {
  store: PlanStore;
  place: DirectHandler;
  placeOco: DirectHandler;
  modify: DirectHandler;
  cancel: DirectHandler;
  /** One page of the triggered history, with each fired GTT's order. */
  triggered: DirectHandler;
  /** The last traded price, or undefined. */
  lastPrice: (exch: string, tsym: string) => Promise<number | undefined>;
  /** Publishes and marks the plan's events (never throws). */
  publish: (events: LifecycleEvent[]) => Promise<void>;
  /** The deployment and account, for stable event ids. */
  scope: () => Promise<string>;
  now?: () => Date;
}

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);

export const planIdOf = (key: string): string => `pl${digest('plan', key).slice(0, 16)}`;

const fixed = (n: number) => (Math.round(n * 100) / 100).toFixed(2);

interface FiredGtt {
  al_id: string;
  order?: { status: string; filledQty: number; rejection?: { code: string; hint: string; text: string } };
}

export class PlanEngine {
  constructor(private readonly deps: PlanDeps) {}

  private now() {
    return (this.deps.now ?? (() => new Date()))().toISOString();
  }

  private async event(
    type: PlanDetailType,
    plan: Plan,
    origin: 'gateway' | 'watcher',
    extra: Record<string, unknown> = {},
  ) {
    const scope = await this.deps.scope();
    const detail = {
      eventId: digest(scope, 'plan', plan.planId, type, String(plan.history.length)),
      observedAt: this.now(),
      origin,
      planId: plan.planId,
      kind: plan.kind,
      state: plan.state,
      exch: plan.exch,
      tsym: plan.tsym,
      ...(plan.tag ? { tag: plan.tag } : {}),
      ...extra,
    };
    await this.deps.publish([{ detailType: type, detail } as LifecycleEvent]);
  }

  private record(plan: Plan, action: string, detail?: Record<string, unknown>): Plan {
    const at = this.now();
    return { ...plan, updatedAt: at, history: [...plan.history, { at, action, ...(detail ? { detail } : {}) }] };
  }

  /** Creates the plan for this key (or answers the one it already made) and places its first GTT. */
  async create(input: PlanInput, key: string): Promise<{ plan: Plan; replayed: boolean }> {
    const planId = planIdOf(key);
    const existing = await this.deps.store.get(planId);
    if (existing) return { plan: existing.plan, replayed: true };
    const order = (input.kind === 'bracket' ? input.entry : input.order) as Record<string, unknown>;
    const tag = input.tag ?? (typeof order.tag === 'string' ? order.tag : undefined);
    let placed: { al_id: string };
    try {
      placed = (await this.deps.place({ ...order, ...(tag ? { tag } : {}), idempotencyKey: `${planId}-first` })) as {
        al_id: string;
      };
    } catch (error) {
      throw fromDirectInvocation(error);
    }
    const at = this.now();
    let plan: Plan = {
      planId,
      kind: input.kind,
      state: 'armed',
      exch: String(order.exch),
      tsym: String(order.tsym),
      ...(tag ? { tag } : {}),
      createdAt: at,
      updatedAt: at,
      alIds: input.kind === 'bracket' ? { entry: placed.al_id } : { stop: placed.al_id },
      history: [],
      ...(input.kind === 'bracket'
        ? { entry: order, target: input.target, stopLoss: input.stopLoss }
        : {
            order,
            trailBy: input.trailBy,
            step: input.step ?? '0.05',
            trigger: String(order.d),
            price: String(order.prc ?? order.d),
          }),
    };
    plan = this.record(plan, input.kind === 'bracket' ? 'entry-placed' : 'stop-placed', { al_id: placed.al_id });
    if (!(await this.deps.store.create(plan)))
      return { plan: (await this.deps.store.get(planId))!.plan, replayed: true };
    await this.event('Plan Armed', plan, 'gateway', { al_id: placed.al_id });
    return { plan, replayed: false };
  }

  async get(planId: string): Promise<Plan> {
    const found = await this.deps.store.get(planId);
    if (!found) throw new OrderNotFoundError(`No plan ${planId}.`, { outcome: 'not_executed' });
    return found.plan;
  }

  async list(): Promise<Plan[]> {
    return (await this.deps.store.list()).map((s) => s.plan);
  }

  /** Cancels the plan's live GTT (a GTT already gone is fine) and ends it. */
  async cancel(planId: string): Promise<Plan> {
    const found = await this.deps.store.get(planId);
    if (!found) throw new OrderNotFoundError(`No plan ${planId}.`, { outcome: 'not_executed' });
    const { plan, version } = found;
    if (TERMINAL.includes(plan.state)) return plan;
    const live =
      plan.kind === 'trailing-stop' ? plan.alIds.stop : plan.state === 'armed' ? plan.alIds.entry : plan.alIds.exit;
    if (live) {
      try {
        await this.deps.cancel({ al_id: live });
      } catch (error) {
        const failure = fromDirectInvocation(error);
        if (failure.code !== 'ORDER_NOT_FOUND') throw failure;
      }
    }
    const ended = this.record({ ...plan, state: 'cancelled' }, 'cancelled', live ? { al_id: live } : undefined);
    if (!(await this.deps.store.update(ended, version))) return this.cancel(planId);
    return ended;
  }

  /** One watcher run's pass over the live plans; what each did. A plan that fails this run is retried next run. */
  async advance(): Promise<{ acted: string[]; errors: { planId: string; code: string }[] }> {
    const live = (await this.deps.store.list()).filter((s) => !TERMINAL.includes(s.plan.state));
    const out = { acted: [] as string[], errors: [] as { planId: string; code: string }[] };
    if (!live.length) return out;
    const fired = await this.firedGtts();
    for (const stored of live) {
      try {
        const acted = await this.step(stored.plan, stored.version, fired);
        if (acted) out.acted.push(`${stored.plan.planId}:${acted}`);
      } catch (error) {
        const failure = fromDirectInvocation(error);
        out.errors.push({ planId: stored.plan.planId, code: failure.code });
        if (failure.code === 'SESSION_EXPIRED') break;
      }
    }
    return out;
  }

  private async firedGtts(): Promise<Map<string, FiredGtt>> {
    const map = new Map<string, FiredGtt>();
    let cursor: string | undefined;
    do {
      const page = (await this.deps.triggered({ limit: 1_000, ...(cursor ? { cursor } : {}) })) as {
        orders: FiredGtt[];
        nextCursor?: string;
      };
      for (const o of page.orders) map.set(o.al_id, o);
      cursor = page.nextCursor;
    } while (cursor);
    return map;
  }

  private async save(plan: Plan, version: number): Promise<boolean> {
    return this.deps.store.update(plan, version);
  }

  private async step(plan: Plan, version: number, fired: Map<string, FiredGtt>): Promise<string | undefined> {
    if (plan.kind === 'bracket') {
      if (plan.state === 'exit-armed') {
        if (!plan.alIds.exit || !fired.has(plan.alIds.exit)) return undefined;
        const done = this.record({ ...plan, state: 'done' }, 'exit-fired', { al_id: plan.alIds.exit });
        if (!(await this.save(done, version))) return undefined;
        await this.event('Plan Done', done, 'watcher', { al_id: plan.alIds.exit });
        return 'done';
      }
      const entry = plan.alIds.entry ? fired.get(plan.alIds.entry) : undefined;
      if (plan.state === 'armed') {
        if (!entry?.order) return undefined;
        const { status } = entry.order;
        if (status === 'rejected' || status === 'cancelled') {
          const rejection = entry.order.rejection;
          const reason = `the entry order was ${status}${rejection ? `: ${rejection.code} (${rejection.text})` : ''}`;
          const failed = this.record({ ...plan, state: 'failed', reason }, 'entry-' + status);
          if (!(await this.save(failed, version))) return undefined;
          await this.event('Plan Failed', failed, 'watcher', { al_id: plan.alIds.entry, reason });
          return 'failed';
        }
        if (status !== 'filled') return undefined;
      }
      // Filled (armed now, or entry-filled from a run whose exit place failed): the exit OCO, keyed by the plan.
      const filledQty = entry?.order?.filledQty ?? Number((plan.entry as { qty?: unknown }).qty);
      const side = (plan.entry as { trantype?: string }).trantype === 'B' ? 'S' : 'B';
      const prd = String((plan.entry as { prd?: unknown }).prd ?? 'C');
      let filled = plan;
      if (plan.state === 'armed') {
        filled = this.record({ ...plan, state: 'entry-filled' }, 'entry-filled', { filledQty });
        if (!(await this.save(filled, version))) return undefined;
        version += 1;
      }
      const leg = (l: { trigger: string; price: string }) => ({
        trigger: l.trigger,
        order: { trantype: side, prctyp: 'LMT', qty: filledQty, prc: l.price, prd },
      });
      const exit = (await this.deps.placeOco({
        exch: plan.exch,
        tsym: plan.tsym,
        target: leg(plan.target!),
        stopLoss: leg(plan.stopLoss!),
        ...(plan.tag ? { tag: plan.tag } : {}),
        idempotencyKey: `${plan.planId}-exit`,
      })) as { al_id: string };
      const armed = this.record(
        { ...filled, state: 'exit-armed', alIds: { ...filled.alIds, exit: exit.al_id } },
        'exit-placed',
        { al_id: exit.al_id, quantity: filledQty },
      );
      if (!(await this.save(armed, version))) return undefined;
      await this.event('Plan Step', armed, 'watcher', { step: 'exit-armed', al_id: exit.al_id });
      return 'exit-armed';
    }

    // Trailing stop.
    if (plan.alIds.stop && fired.has(plan.alIds.stop)) {
      const done = this.record({ ...plan, state: 'done' }, 'stop-fired', { al_id: plan.alIds.stop });
      if (!(await this.save(done, version))) return undefined;
      await this.event('Plan Done', done, 'watcher', { al_id: plan.alIds.stop });
      return 'done';
    }
    const ltp = await this.deps.lastPrice(plan.exch, plan.tsym);
    if (ltp === undefined) return undefined;
    const order = plan.order as Record<string, unknown>;
    const sell = order.trantype === 'S';
    const previousBest = plan.best === undefined ? ltp : Number(plan.best);
    const best = sell ? Math.max(previousBest, ltp) : Math.min(previousBest, ltp);
    const trigger = Number(plan.trigger);
    const gap = Number(plan.price) - trigger;
    const wanted = sell ? best - Number(plan.trailBy) : best + Number(plan.trailBy);
    const moveBy = sell ? wanted - trigger : trigger - wanted;
    if (moveBy < Number(plan.step ?? '0.05') - 1e-9 || wanted <= 0) {
      if (String(best) === plan.best) return undefined;
      // Only the best price changed: remember it (never backwards).
      await this.save({ ...plan, best: String(best) }, version);
      return undefined;
    }
    const newTrigger = fixed(wanted);
    const newPrice = fixed(Math.max(0.05, wanted + gap));
    const trails = plan.history.filter((h) => h.action === 'stop-trailed').length + 1;
    await this.deps.modify({
      ...order,
      al_id: plan.alIds.stop,
      d: newTrigger,
      prc: newPrice,
      ...(plan.tag ? { tag: plan.tag } : {}),
      idempotencyKey: `${plan.planId}-trail-${trails}`,
    });
    const moved = this.record({ ...plan, best: String(best), trigger: newTrigger, price: newPrice }, 'stop-trailed', {
      from: plan.trigger,
      to: newTrigger,
      ltp,
    });
    if (!(await this.save(moved, version))) return undefined;
    await this.event('Plan Step', moved, 'watcher', {
      step: 'stop-trailed',
      al_id: plan.alIds.stop,
      oldTrigger: plan.trigger,
      newTrigger,
    });
    return 'stop-trailed';
  }
}
