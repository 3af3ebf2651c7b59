/**
 * The promises of docs/explanation/plans.md as checks, for the plans' model-based test (plans-model.ts): what must hold after
 * every step against the emulator's own books, what must hold after a run against the plans' records, and what
 * must hold of the events once a sequence ends.
 */
import type { BookOrder } from '../../emulator/state/order-book.js';
import type { Order } from '../../emulator/state/state.js';
import { splitRemarks } from '../../functions/base/broker/order-stamps.js';
import type { Plan } from '../../functions/base/schemas/plans.js';
import { checkLegs } from './plans-legs-model.js';
import type { Real } from './plans-model.js';
import { entrySentTwice, optionRecordProblem } from './plans-option-invariants.js';

/** Every GTT the emulator holds or held, and every order fired GTTs placed. */
const books = (r: Real): { gtts: Order[]; orders: BookOrder[] } => ({
  gtts: [...r.stack.emulator.emulator.state.orders.values()],
  orders: [...r.stack.emulator.emulator.book.orders.values()],
});

/** Whether the broker's remarks carry this plan's step (the tag; a journaled write's stamp after it split off). */
const stampedBy = (planId: string, step: RegExp) => (remarks: string) => {
  const tag = splitRemarks(remarks).tag ?? '';
  return tag.startsWith(`${planId}.`) && step.test(tag.slice(planId.length + 1));
};

const ENDED = new Set(['COMPLETE', 'REJECTED', 'CANCELED']);
const latest = (o: BookOrder) => o.history[0]!;
const qtyOf = (g: Order): number => (g.kind === 'oco' ? g.legs.x.qty : g.qty);

const fail = (r: Real, message: string): never => {
  throw new Error(`${message}\n  steps: ${r.log.slice(-12).join(' | ')}`);
};

/** What must always hold, checked against the emulator's books (and, after a run, the plans' records). */
export const checkInvariants = async (r: Real, afterRun: boolean): Promise<void> => {
  const { gtts, orders } = books(r);
  for (const planId of r.plans) {
    // Each step's stamp is on one GTT ever (pending, fired or cancelled): a step is never placed twice. A late
    // duplicate would also be cancelled by the sweep, but a second exit must not exist even for a moment.
    const stamped = new Map<string, number>();
    for (const g of gtts)
      if (g.remarks.startsWith(`${planId}.`)) stamped.set(g.remarks, (stamped.get(g.remarks) ?? 0) + 1);
    for (const [stamp, count] of stamped)
      if (count > 1) fail(r, `plan ${planId}: ${count} GTTs stamped ${stamp} (a step placed twice)`);
    // A legs plan stamps each leg's entry `<planId>.e` (one contract each): checkLegs counts them by contract.
    const kind = (await r.store.get(planId))?.plan.kind;
    const twice = kind === 'option-legs' ? undefined : entrySentTwice(planId, orders);
    if (twice) fail(r, twice);
    const liveExits = gtts.filter((g) => g.state === 'pending' && stampedBy(planId, /^x\d+$/)(g.remarks));
    if (liveExits.length > 1) fail(r, `plan ${planId}: ${liveExits.length} live exits (never two)`);
  }
  await checkLegs(r, orders, (message) => fail(r, message));
  if (!afterRun) return;
  for (const planId of r.plans) {
    const plan = (await r.store.get(planId))?.plan;
    if (!plan) continue;
    checkPlan(r, plan, gtts, orders);
  }
};

const checkPlan = (r: Real, plan: Plan, gtts: Order[], orders: BookOrder[]) => {
  const id = plan.planId;
  const errored = r.runErrors.has(id);
  const filled = (step: RegExp, endedOnly: boolean) =>
    orders
      .filter((o) => stampedBy(id, step)(o.remarks) && (!endedOnly || ENDED.has(latest(o).status)))
      .reduce((sum, o) => sum + latest(o).fillshares, 0);
  const option = optionRecordProblem(plan, orders, errored);
  if (option) fail(r, option);
  // An option plan whose entry filled is a bracket on its contract: the same promises of its exit.
  if (plan.kind === 'bracket' || plan.kind === 'option-entry') {
    const open = filled(/^e$/, true) - filled(/^x\d+$/, false);
    if (plan.state === 'done' && open > 0) fail(r, `plan ${id} is done with ${open} still open`);
    const exitsInProgress = orders.some((o) => stampedBy(id, /^x\d+$/)(o.remarks) && !ENDED.has(latest(o).status));
    if (open > 0 && plan.state !== 'cancelled' && plan.state !== 'unprotected' && !exitsInProgress) {
      const covering = gtts.find(
        (g) => g.state === 'pending' && stampedBy(id, /^x\d+$/)(g.remarks) && qtyOf(g) === open,
      );
      // An option plan's entry whose answer the run did not get (its error said) is settled by the next run.
      const settling = errored && (plan.inFlight !== undefined || plan.state === 'entry-placed');
      if (!covering && !settling)
        fail(r, `plan ${id} (${plan.state}): a position of ${open} without a pending exit and not unprotected`);
    }
    if (plan.state === 'exit-armed' && !plan.inFlight) {
      const exit = gtts.find((g) => g.al_id === plan.alIds.exit);
      if (!exit || !stampedBy(id, /^x\d+$/)(exit.remarks) || exit.state === 'cancelled')
        fail(r, `plan ${id}: its recorded exit ${plan.alIds.exit} is not the broker's (${exit?.state ?? 'absent'})`);
    }
  }
  // No silent wait: a try its invocation left unresolved (that invocation over before the run began) is said by the
  // run, in its `waiting`, until it resolves.
  const f = plan.inFlight;
  if (f?.deadline !== undefined && Date.parse(f.deadline) < r.runStartedAt && !errored && !r.runWaiting.has(id))
    fail(r, `plan ${id} (${plan.state}): its try ${f.key} outlived its invocation and the run did not say so`);
  if (plan.kind === 'trailing-stop' && plan.state === 'armed' && !plan.inFlight && plan.alIds.stop && !errored) {
    const stop = gtts.find((g) => g.al_id === plan.alIds.stop);
    if (!stop || stop.state === 'cancelled') fail(r, `plan ${id}: armed, its stop is ${stop?.state ?? 'absent'}`);
    if (stop?.state === 'pending' && stop.kind === 'gtt' && Number(stop.d) !== Number(plan.trigger))
      fail(r, `plan ${id}: records trigger ${plan.trigger}, the broker holds ${stop.d}`);
  }
};

/** After a sequence: every plan event published once, and each in GET /events. */
export const checkEvents = async (r: Real): Promise<void> => {
  await r.stack.eventsForwarded();
  const ids = new Set(r.plans);
  const published = r.stack.eventBridge.events.filter((e) => ids.has(String(e.detail.planId)));
  const eventIds = published.map((e) => String(e.detail.eventId));
  if (new Set(eventIds).size !== eventIds.length) fail(r, 'a plan event was published twice');
  for (const planId of r.plans) {
    const plan = (await r.store.get(planId))?.plan;
    const types = published.filter((e) => e.detail.planId === planId).map((e) => e['detail-type']);
    if (plan && (plan.alIds.entry || plan.alIds.stop) && types.filter((t) => t === 'Plan Armed').length !== 1)
      fail(r, `plan ${planId}: ${types.filter((t) => t === 'Plan Armed').length} Plan Armed events`);
    if (plan?.state === 'unprotected' && !types.includes('Plan Unprotected'))
      fail(r, `plan ${planId} is unprotected and no Plan Unprotected event was published`);
    if (types.filter((t) => t === 'Plan Done' || t === 'Plan Failed').length > 1)
      fail(r, `plan ${planId}: ended twice (${types.join(', ')})`);
  }
  const history = new Set<string>();
  let cursor: string | undefined;
  do {
    const res = await fetch(`${r.stack.api.url}/events?limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
    const page = (await res.json()) as { events: { detail: { eventId: string } }[]; nextCursor?: string };
    for (const e of page.events) history.add(e.detail.eventId);
    cursor = page.nextCursor;
  } while (cursor);
  const missing = eventIds.filter((id) => !history.has(id));
  if (missing.length) fail(r, `${missing.length} plan events missing from GET /events`);
};
