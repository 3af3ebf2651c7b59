/**
 * What plans do (docs/reference/plans.md): created by `POST /plans` (the first GTT placed at once), carried out by the
 * scheduled watcher (`advance`), ended by `DELETE /plans/{planId}`. Every run reconciles: it reads what the broker
 * holds (truth.ts) and what each plan recorded, resolves any try left without an answer (adopted when the broker
 * shows its stamp, placed again with a new key once it cannot be in flight, said in between: unresolved.ts), and
 * acts on the difference (bracket.ts, trailing.ts). Every broker action goes through the operation table's own
 * entries (guardrails, idempotency, the order-rate governor, audit, events) with the invocation's real deadline;
 * every plan change is a write conditional on the version read, carrying its events (versioned-plan.ts); GTTs stamped by a
 * plan and not its live ones are cancelled.
 */
import { IdempotencyKeyReusedError, PlanNotFoundError, ValidationFailedError } from '../base/contract/errors.js';
import { TERMINAL } from '../base/schemas/event-types.js';
import type { Plan, PlanInput } from '../base/schemas/plans.js';
import { canonicalInput } from '../orders/safety/idempotency-input.js';
import { inFlightState, withoutTry } from './actions.js';
import { advanceBracket, armExit } from './bracket.js';
import { cancelPlan } from './cancel.js';
import { exitDryRun, planProblems } from './creation.js';
import type { PlanDeps } from './engine-needs.js';
import { advanceLegs, createLegs, legsDryRun } from './legs.js';
import { optionCheck, optionDryRun, optionPlanOf } from './option-create.js';
import { advanceOptionEntry } from './option-entry.js';
import { digest, parseStamp, planIdOf } from './stamps.js';
import { advanceTrailing, trailed } from './trailing.js';
import { armFirst, placeFirst, type StepContext } from './transitions.js';
import { readTruth, type Truth } from './truth.js';
import { sayUnresolved, type WaitingTry } from './unresolved.js';
import { Working } from './versioned-plan.js';

export { planIdOf };
export type { DirectHandler, PlanDeps } from './engine-needs.js';
export type { WaitingTry };

/** Runs stop starting plan actions this close to their deadline: an action started later could not finish. */
const RESERVE_MS = 1_500;
/** Ended plans whose stamped GTTs a run still sweeps. */
const SWEEP_ENDED_MS = 86_400_000;

export interface AdvanceResult {
  acted: string[];
  errors: { planId: string; code: string }[];
  /**
   * Tries unresolved past the deadline of the invocation that sent them, the broker not showing them yet: nothing
   * is tried again until their lease ends (docs/reference/plans.md, "Tries").
   */
  waiting?: WaitingTry[];
  /** Orphan GTTs (stamped by a plan, not its live ones) cancelled this run. */
  swept?: string[];
}

export class PlanEngine {
  constructor(private readonly deps: PlanDeps) {}

  private now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  /** Creates the plan for this key (or answers the one it already made) and places its first GTT. */
  async create(input: PlanInput, key: string, deadline: number): Promise<{ plan: Plan; replayed: boolean }> {
    const planId = planIdOf(key);
    const inputHash = digest('input', canonicalInput(input));
    const existing = await this.deps.store.get(planId);
    if (existing) return this.replay(existing.plan, inputHash, key, deadline);
    if (input.kind === 'option-legs')
      return createLegs(this.deps, input, { planId, inputHash }, deadline, (p) =>
        this.replay(p, inputHash, key, deadline),
      );
    if (input.kind === 'option-entry') {
      // Nothing at the broker until the index crosses: the checks now, then the plan stored, watching.
      const { option } = await optionCheck(input, this.deps, this.now().getTime(), deadline);
      const plan = optionPlanOf(input, option, { planId, inputHash }, this.now().toISOString());
      if (await this.deps.store.create(plan)) return { plan, replayed: false };
      const raced = await this.deps.store.get(planId);
      return this.replay(raced!.plan, inputHash, key, deadline);
    }
    const { order, exch, tsym, tick } = await this.checked(input, deadline);
    const at = this.now().toISOString();
    const tag = input.tag ?? (typeof order.tag === 'string' ? order.tag : undefined);
    const plan: Plan = {
      planId,
      kind: input.kind,
      state: 'armed',
      exch,
      tsym,
      ...(tag ? { tag } : {}),
      createdAt: at,
      updatedAt: at,
      alIds: {},
      tick,
      seq: 0,
      inputHash,
      history: [{ at, action: 'created' }],
      ...(input.kind === 'bracket'
        ? { entry: order, target: input.target, stopLoss: input.stopLoss }
        : {
            order,
            trailBy: input.trailBy,
            step: input.step ?? tick,
            trigger: String(order.d),
            price: String(order.prc ?? order.d),
          }),
    };
    if (!(await this.deps.store.create(plan))) {
      const raced = await this.deps.store.get(planId);
      return this.replay(raced!.plan, inputHash, key, deadline);
    }
    const w = new Working({ plan, version: 1, outbox: [] }, this.deps, 'gateway');
    const first = await placeFirst(w, this.deps, deadline);
    if (first.kind === 'refused') {
      // Nothing was placed: nothing of the plan is kept, and the same key may be used again.
      await this.deps.store.remove(planId, w.version);
      throw first.failure;
    }
    if (first.kind === 'unknown') {
      first.failure.message = `Plan ${planId} is recorded, but whether the broker placed its ${
        plan.kind === 'bracket' ? 'entry' : 'stop'
      } is unknown (${first.failure.message}). Nothing is placed twice: the watcher adopts the GTT if the broker shows it, or places it once the first try can no longer arrive. Retry with the same Idempotency-Key (or GET /plans/${planId}) to see it.`;
      throw first.failure;
    }
    return { plan: w.plan, replayed: false };
  }

  /** A bracket's or a trailing stop's checks at creation: its first GTT's instrument, prices and legs, its exit. */
  private async checked(input: Exclude<PlanInput, { kind: 'option-entry' | 'option-legs' }>, deadline: number) {
    const order = (input.kind === 'bracket' ? input.entry : input.order) as Record<string, unknown>;
    const exch = String(order.exch);
    const tsym = String(order.tsym);
    const { tick, lot } = await this.deps.instrument(exch, tsym, deadline);
    const problems = planProblems(input, tick, lot);
    if (problems.length)
      throw new ValidationFailedError(
        `The plan cannot be carried out as given: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}. Nothing was placed.`,
        { details: problems, outcome: 'not_executed' },
      );
    if (input.kind === 'bracket') {
      const refused = await exitDryRun(input, this.deps, deadline);
      if (refused) throw refused;
    }
    return { order, exch, tsym, tick };
  }

  /**
   * `POST /plans?dryRun=true`: what the plan would do now, nothing stored or sent. An option plan answers the contract
   * it would pick at the index's price now (option-create.ts); a bracket or a trailing stop passes its creation's
   * checks and answers the dry run of its first GTT (the entry or the stop: what PlaceGTTOrder would send).
   */
  async dryRun(input: PlanInput, deadline: number): Promise<Record<string, unknown>> {
    if (input.kind === 'option-legs') return legsDryRun(input, this.deps, deadline);
    if (input.kind === 'option-entry') return optionDryRun(input, this.deps, this.now().getTime(), deadline);
    const { order } = await this.checked(input, deadline);
    const first = (await this.deps.place({ ...order, dryRun: true }, deadline)) as Record<string, unknown>;
    return { ...first, dryRun: true, kind: input.kind };
  }

  /** The same key again: the same plan (its first GTT resolved if its try was left without an answer), or 422. */
  private async replay(plan: Plan, inputHash: string, key: string, deadline: number) {
    if (plan.inputHash !== undefined && plan.inputHash !== inputHash)
      throw new IdempotencyKeyReusedError(
        `Idempotency-Key "${key}" already created plan ${plan.planId} with another body; use a new key for a new plan.`,
        { outcome: 'not_executed' },
      );
    if (plan.inFlight && !TERMINAL.includes(plan.state)) {
      await this.advanceOne(plan.planId, await readTruth(this.deps, deadline), deadline, 'gateway');
      return { plan: await this.get(plan.planId), replayed: true };
    }
    return { plan, replayed: true };
  }

  async get(planId: string): Promise<Plan> {
    const found = await this.deps.store.get(planId);
    if (!found)
      throw new PlanNotFoundError(`No plan ${planId}: GET /plans lists the plans (ended plans are kept 30 days).`);
    return found.plan;
  }

  async list(limit: number, cursor?: string): Promise<{ plans: Plan[]; nextCursor?: string }> {
    const page = await this.deps.store.page(limit, cursor);
    return { plans: page.plans.map((s) => s.plan), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  }

  /** Ends the plan (docs/reference/plans.md, "Cancel"): what it leaves open is in its `left`. */
  async cancel(planId: string, deadline: number): Promise<Plan> {
    return cancelPlan(this.deps, planId, deadline, (w, truth) => this.resolve(w, truth));
  }

  /** One watcher run's pass over the plans: what each did, and what failed (retried next run). */
  async advance(deadline: number): Promise<AdvanceResult> {
    const all = await this.deps.store.list();
    const out: AdvanceResult = { acted: [], errors: [] };
    for (const stored of all.filter((s) => s.outbox.length)) await new Working(stored, this.deps, 'watcher').flush();
    const now = this.now().getTime();
    const live = all.filter((s) => !TERMINAL.includes(s.plan.state));
    const recent = all.filter(
      (s) => TERMINAL.includes(s.plan.state) && now - Date.parse(s.plan.updatedAt) < SWEEP_ENDED_MS,
    );
    if (!live.length && !recent.length) return out;
    const truth = await readTruth(this.deps, deadline);
    const waiting: WaitingTry[] = [];
    let expired = false;
    for (const stored of live) {
      if (deadline - Date.now() < RESERVE_MS) break;
      try {
        const acted = await this.advanceOne(stored.plan.planId, truth, deadline, 'watcher', stored, waiting);
        if (acted) out.acted.push(`${stored.plan.planId}:${acted}`);
      } catch (error) {
        const failure = error as { code?: string };
        out.errors.push({ planId: stored.plan.planId, code: failure.code ?? 'INTERNAL_ERROR' });
        if (failure.code === 'SESSION_EXPIRED') {
          expired = true;
          break;
        }
      }
    }
    if (waiting.length) out.waiting = waiting;
    if (expired) return out;
    const swept = await this.sweep(truth, deadline, new Map(all.map((s) => [s.plan.planId, s.plan])));
    if (swept.length) out.swept = swept;
    return out;
  }

  /**
   * One plan's step in this run: its try resolved, then its kind's next action. A try still within its lease is
   * left alone, and said (into `waiting`) once the invocation that sent it is over.
   */
  private async advanceOne(
    planId: string,
    truth: Truth,
    deadline: number,
    origin: 'gateway' | 'watcher',
    stored?: Awaited<ReturnType<PlanDeps['store']['get']>>,
    waiting?: WaitingTry[],
  ): Promise<string | undefined> {
    const read = stored ?? (await this.deps.store.get(planId));
    if (!read || TERMINAL.includes(read.plan.state)) return undefined;
    const w = new Working(read, this.deps, origin);
    const resolved = await this.resolve(w, truth);
    if (resolved === 'busy') {
      const was = w.plan.state;
      const said = await sayUnresolved(w, this.deps.warn);
      if (said) waiting?.push(said);
      return w.plan.state !== was ? w.plan.state : undefined;
    }
    const ctx: StepContext = { deps: this.deps, truth, deadline };
    const acted =
      w.plan.kind === 'bracket'
        ? await advanceBracket(w, ctx)
        : w.plan.kind === 'option-entry'
          ? await advanceOptionEntry(w, ctx)
          : w.plan.kind === 'option-legs'
            ? await advanceLegs(w, ctx)
            : await advanceTrailing(w, ctx);
    return acted ?? (resolved === 'adopted' ? 'adopted' : undefined);
  }

  /** The plan's unresolved try, settled by what the broker shows: adopted, lapsed (cleared), or still in flight. */
  private async resolve(w: Working, truth: Truth): Promise<'none' | 'adopted' | 'busy'> {
    const state = inFlightState(w.plan, truth, this.now());
    if (state.kind === 'none') return 'none';
    if (state.kind === 'busy') return 'busy';
    const f = w.plan.inFlight!;
    if (state.kind === 'lapsed') {
      await w.commit(w.record(withoutTry(w.plan), 'try-lapsed', { key: f.key }));
      return 'none';
    }
    const step = parseStamp(f.stamp)?.step;
    if (f.trigger !== undefined) await trailed(w, f.trigger, f.price ?? f.trigger, true);
    else if (step === 'e' || step === 's') await armFirst(w, state.alId, true);
    else await armExit(w, state.alId, true);
    return 'adopted';
  }

  /** Cancels pending GTTs stamped by a known plan that are not its live ones (a late duplicate, an ended plan's). */
  private async sweep(truth: Truth, deadline: number, read: Map<string, Plan>): Promise<string[]> {
    const swept: string[] = [];
    for (const gtt of truth.pending) {
      const stamp = parseStamp(gtt.tag);
      if (!stamp) continue;
      // Held on purpose as the run began: no read. What looks orphaned is read again, for a step started meanwhile.
      const known = read.get(stamp.planId);
      if (!known || isHeld(known, gtt.al_id, gtt.tag!, this.now())) continue;
      const fresh = await this.deps.store.get(stamp.planId);
      if (!fresh) continue; // another deployment's plan on this account, or one expired: not ours to judge
      if (isHeld(fresh.plan, gtt.al_id, gtt.tag!, this.now())) continue;
      if (deadline - Date.now() < RESERVE_MS) break;
      try {
        await this.deps.cancel({ al_id: gtt.al_id }, deadline);
        swept.push(gtt.al_id);
        this.deps.warn?.('plan: a GTT stamped by the plan and not its live one was cancelled', {
          planId: stamp.planId,
          al_id: gtt.al_id,
          stamp: gtt.tag,
          state: fresh.plan.state,
          metric: 'PlanOrphanCancelled',
        });
      } catch {
        // Gone already, or the broker unreachable: the next run looks again.
      }
    }
    return swept;
  }
}

/** Whether the plan holds this GTT on purpose: its live GTT, or one a step in flight may have placed. */
const isHeld = (plan: Plan, alId: string, stamp: string, now: Date): boolean =>
  liveIds(plan).has(alId) || (plan.inFlight?.stamp === stamp && Date.parse(plan.inFlight.leaseUntil) > now.getTime());

/** The GTTs a plan holds at the broker on purpose. */
const liveIds = (plan: Plan): Set<string> => {
  const ids = new Set<string>();
  if (TERMINAL.includes(plan.state)) return ids;
  if (plan.state === 'armed' && plan.alIds.entry) ids.add(plan.alIds.entry);
  if (plan.alIds.exit && (plan.state === 'exit-armed' || plan.state === 'unprotected')) ids.add(plan.alIds.exit);
  if (plan.alIds.stop) ids.add(plan.alIds.stop);
  return ids;
};
