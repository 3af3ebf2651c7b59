/**
 * A plan being worked on by one run: its record and version as read, changed only by `commit` (a put conditional on
 * that version, carrying the change's events in the plan's outbox), and the outbox handed on after each commit.
 * Also the bounded history (the newest PLAN_HISTORY_LIMIT actions) and the stable event ids (the plan's `seq`).
 */
import type { PlanDetailType } from '../base/schemas/event-types.js';
import type { LifecycleEvent } from '../base/schemas/events.js';
import { type Plan, PLAN_HISTORY_LIMIT } from '../base/schemas/plans.js';
import type { PlanDeps } from './engine-needs.js';
import { digest } from './stamps.js';
import type { StoredPlan } from './store.js';

export interface PlanEventSpec {
  type: PlanDetailType;
  extra?: Record<string, unknown>;
}

export class Working {
  plan: Plan;
  version: number;
  outbox: LifecycleEvent[];

  constructor(
    stored: StoredPlan,
    private readonly deps: PlanDeps,
    readonly origin: 'gateway' | 'watcher',
  ) {
    this.plan = stored.plan;
    this.version = stored.version;
    this.outbox = stored.outbox;
  }

  now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  /** The plan with one more action in its history (the oldest dropped past the limit). */
  record(plan: Plan, action: string, detail?: Record<string, unknown>): Plan {
    const at = this.now().toISOString();
    const history = [...plan.history, { at, action, ...(detail ? { detail } : {}) }];
    const dropped = Math.max(0, history.length - PLAN_HISTORY_LIMIT);
    return {
      ...plan,
      updatedAt: at,
      history: history.slice(dropped),
      ...(dropped || plan.historyDropped ? { historyDropped: (plan.historyDropped ?? 0) + dropped } : {}),
    };
  }

  private async events(plan: Plan, specs: readonly PlanEventSpec[]): Promise<{ plan: Plan; events: LifecycleEvent[] }> {
    if (!specs.length) return { plan, events: [] };
    const scope = await this.deps.scope();
    let seq = plan.seq ?? 0;
    const events = specs.map(({ type, extra }) => {
      seq += 1;
      const detail = {
        eventId: digest(scope, 'plan', plan.planId, type, String(seq)),
        observedAt: this.now().toISOString(),
        origin: this.origin,
        planId: plan.planId,
        kind: plan.kind,
        state: plan.state,
        exch: plan.exch,
        tsym: plan.tsym,
        ...(plan.tag ? { tag: plan.tag } : {}),
        ...extra,
      };
      return { detailType: type, detail } as LifecycleEvent;
    });
    return { plan: { ...plan, seq }, events };
  }

  /**
   * Writes `next` (with its events) if the plan is still at the version read; false if someone else changed it
   * (this run then leaves the plan alone). The outbox is handed on after the write, never before.
   */
  async commit(next: Plan, specs: readonly PlanEventSpec[] = []): Promise<boolean> {
    const { plan, events } = await this.events(next, specs);
    const outbox = [...this.outbox, ...events];
    if (!(await this.deps.store.update(plan, this.version, outbox))) return false;
    this.plan = plan;
    this.version += 1;
    this.outbox = outbox;
    await this.flush();
    return true;
  }

  /** Hands the outbox to the EventForwarder; what fails stays in the plan's item for the next run. */
  async flush(): Promise<void> {
    if (!this.outbox.length) return;
    try {
      await this.deps.publish(this.outbox);
      await this.deps.store.clearOutbox(this.plan.planId, this.version);
      this.outbox = [];
    } catch (error) {
      this.deps.warn?.('plan events not queued: kept for the next run', {
        planId: this.plan.planId,
        events: this.outbox.length,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
