/**
 * The system model's invariants (system-model.ts), checked against the emulator's own books and request log, never
 * against what the gateway says of itself:
 *
 * 1. never twice: no intent (an idempotency key, a signal alert, a plan step) has two broker orders, counting every
 *    order the broker ever created (pending, fired, cancelled);
 * 2. after a kill-switch POST answered `complete: true`, while the switch stays on, nothing placed through the
 *    gateway is pending at the broker (keep-exits: but the exits it reported kept);
 * 3. after a logout answered success, until the next login, no order write reaches the broker (the request log),
 *    except while something begun before the logout could still be on its way;
 * 4. every acknowledged place, PUT or PATCH, of a single GTT or an OCO (both legs' triggers, prices, quantities), is
 *    the broker's (unless a later one, a cancel, the kill switch or a fire superseded it); two changes of one order
 *    with the same If-Match never both answer 2xx (checked where they race, and where a change's key is retried
 *    while it is in flight);
 * 5. an unknown outcome of an HTTP write with a key is resolved: retried with its key after the late window it
 *    answers the order or a clear not-executed error, and "not executed" is true (the broker holds no order of the
 *    intent; also checked at a sequence's end for every place answered only "not executed"). Not asked of a place
 *    whose tag (27-40 characters) left no room for the gateway's stamp: that one can only be reported;
 * 6. keep-exits never removes an exit it reported kept: an al_id in a keep-exits answer's `kept` is never cancelled
 *    at the broker unless the model cancelled it since (its own cancel, or a cancel-all switch);
 * 7. an answer that says "not executed" had no effect at the broker: a change or cancel so answered, sent while nothing
 *    else could touch its order, left the order as it was (at once, and its fields at the sequence's end unless a
 *    later write was sent to it), and a place so answered has no broker order.
 *
 * The invariants of the other ways in (alerts of every action kind, assistants over /mcp) are in
 * system-invariants-ways.ts (1 for one alert, 8 and 9 for an assistant's limits) and system-exit.ts (10: an
 * exit-only key never increases exposure), checked here too; system-risk.ts (12: a crossed day's limit halts trading
 * within one run, 13: a square-off never sells more than is held), system-positions.ts (14: GET /positions is the
 * broker's PositionBook) and system-protect.ts (20, 21: autoCover covers a position once; never unprotected).
 *
 * `fail` throws the first broken invariant (or only counts it, when the run was told to skip that invariant).
 */
import type { Order } from '../../emulator/state/state.js';
import { checkCoverGap } from './system-cover-gap.js';
import { checkExit } from './system-exit.js';
import { checkExitGap } from './system-exit-gap.js';
import { checkExitPlus } from './system-exit-plus.js';
import { checkWays } from './system-invariants-ways.js';
import { checkOptions } from './system-options.js';
import { checkCoverage } from './system-protect.js';
import { type Changes, GTT_FIELDS, type Intent, OCO_FIELDS, type Sys, type Tracked } from './system-state.js';
import { type Answer, WRITE_OPERATIONS } from './system-world.js';

/** Orders placed by nobody through the gateway (the trader's own app) carry these remarks. */
export const OUTSIDE = 'outside';
/** The symbol the signal strategy's alerts name, and where their orders are counted by quantity. */
export const SIGNAL_TSYM = 'SBIN-EQ';

/** A number as the broker and the model both write it (`1500.00` and `1500` are one price). */
export const norm = (value: unknown): string => String(Number(value));

/** What every broken invariant so far looked like (the first of each), and how often each broke. */
export const violations = { count: {} as Record<number, number>, first: {} as Record<number, string> };

export const fail = (s: Sys, invariant: number, message: string): void => {
  violations.count[invariant] = (violations.count[invariant] ?? 0) + 1;
  const text = `invariant ${invariant}: ${message}\n  steps: ${s.log.slice(-16).join(' | ')}`;
  violations.first[invariant] ??= text;
  if (!s.skip.has(invariant)) throw new Error(text);
  if (process.env.SYSTEM_MODEL_TRACE) console.log(`(skipped) ${text.split('\n')[0]}`);
};

const books = (s: Sys): Order[] => [...s.w.stack.emulator.emulator.state.orders.values()];
const qtyOf = (g: Order): number => (g.kind === 'oco' ? g.legs.x.qty : g.qty);
const ids = (list: Order[]) => list.map((g) => `${g.al_id} ${g.state}`).join(', ');

/** Every broker order of an intent, ever: by the remarks the broker first held (a change may rewrite them). */
export const ordersOf = (s: Sys, intent: Intent, gtts: Order[] = books(s)): Order[] => {
  const first = (g: Order) => s.w.origins.get(g.al_id) ?? g.remarks;
  if (intent.tag !== undefined) return gtts.filter((g) => first(g).startsWith(intent.tag!));
  if (intent.stamp !== undefined) return gtts.filter((g) => first(g) === intent.stamp);
  if (intent.qty !== undefined) return gtts.filter((g) => g.tsym === SIGNAL_TSYM && qtyOf(g) === intent.qty);
  return [];
};

/** What the broker holds of an order, field by field (an OCO's legs as target t and stop-loss s). */
const heldOf = (g: Order): Changes =>
  g.kind === 'gtt'
    ? { qty: norm(g.qty), prc: norm(g.prc), d: norm(g.d) }
    : {
        tt: norm(g.x),
        tp: norm(g.legs.x.prc),
        tq: norm(g.legs.x.qty),
        st: norm(g.y),
        sp: norm(g.legs.y.prc),
        sq: norm(g.legs.y.qty),
      };

/** A plan's GTTs by step (`e`, `s`, `x1`, ...), from their stamps (a suffix the gateway adds is allowed). */
const planSteps = (planId: string, gtts: Order[]): Map<string, Order[]> => {
  const steps = new Map<string, Order[]>();
  for (const g of gtts) {
    if (!g.remarks.startsWith(`${planId}.`)) continue;
    const step = /^(e|s|x\d+)/.exec(g.remarks.slice(planId.length + 1))?.[1] ?? g.remarks;
    steps.set(step, [...(steps.get(step) ?? []), g]);
  }
  return steps;
};

const neverTwice = (s: Sys, gtts: Order[]) => {
  for (const intent of s.intents) {
    if (intent.planId) {
      for (const [step, list] of planSteps(intent.planId, gtts))
        if (list.length > 1) fail(s, 1, `${intent.label}: step ${step} has ${list.length} broker GTTs (${ids(list)})`);
      continue;
    }
    const list = ordersOf(s, intent, gtts);
    if (list.length > 1)
      fail(s, 1, `${intent.label} (key ${intent.key ?? '-'}) has ${list.length} broker orders: ${ids(list)}`);
  }
};

const haltedClean = (s: Sys, gtts: Order[]) => {
  if (s.halt !== 'clean') return;
  // keep-exits: but the exits its answer said it kept.
  const live = gtts.filter((g) => g.state === 'pending' && !g.remarks.startsWith(OUTSIDE) && !s.kept.has(g.al_id));
  if (live.length)
    fail(
      s,
      2,
      `the kill switch answered a complete sweep and is on, yet ${live.length} orders are pending: ${live.map((g) => `${g.al_id} (${g.remarks || 'no tag'})`).join(', ')}`,
    );
};

const loggedOutQuiet = (s: Sys) => {
  if (!s.loggedOut) return;
  const writes = s.w.stack.emulator.emulator
    .requestLog()
    .filter(
      (e) =>
        (WRITE_OPERATIONS as readonly (string | null)[]).includes(e.operation) &&
        Date.parse(e.at) > s.loggedOut!.allowUntil &&
        !String(e.jData?.remarks ?? '').startsWith(OUTSIDE),
    );
  if (writes.length)
    fail(
      s,
      3,
      `logged out at ${new Date(s.loggedOut.at).toISOString()}, yet ${writes.length} order writes reached the broker: ${writes
        .map((e) => `${e.operation} at ${e.at} (${JSON.stringify(e.reply)})`)
        .join(', ')}`,
    );
};

const acknowledged = (s: Sys, gtts: Map<string, Order>, t: Tracked) => {
  const g = gtts.get(t.alId);
  if (!g) return fail(s, 4, `acknowledged order ${t.alId} (${t.tag}) is not at the broker`);
  if (!g.remarks.startsWith(t.tag)) return fail(s, 4, `order ${t.alId} is ${t.tag}'s, the broker's says ${g.remarks}`);
  if (g.state === 'cancelled' && !t.mayBeGone)
    return fail(s, 4, `acknowledged order ${t.alId} (${t.tag}) was cancelled though nothing cancelled it`);
  if (g.state !== 'pending' || g.kind !== t.kind) return;
  const held = heldOf(g);
  for (const field of g.kind === 'gtt' ? GTT_FIELDS : OCO_FIELDS) {
    if (!t.expect[field].has(held[field]!))
      fail(
        s,
        4,
        `order ${t.alId} (${t.tag || 'no tag'}): the broker holds ${field} ${held[field]}, the acknowledged changes say ${[...t.expect[field]].join(' or ')}`,
      );
  }
};

/** Invariant 6: an exit keep-exits reported kept is not cancelled, unless the model cancelled it since. */
const keptKept = (s: Sys, gtts: Map<string, Order>) => {
  for (const [alId, kept] of s.kept) {
    const g = gtts.get(alId);
    if (!kept.released && g?.state === 'cancelled')
      fail(
        s,
        6,
        `the kill switch (keep-exits, ${new Date(kept.at).toISOString()}) reported exit ${alId} (${g.remarks || 'no tag'}) kept, yet the broker cancelled it and nothing of the model's cancelled it since`,
      );
  }
};

/** The broker's order as one text (every field: a change or a cancel shows), or `absent`. */
export const snapshotOf = (s: Sys, alId: string): string =>
  JSON.stringify(s.w.stack.emulator.emulator.state.orders.get(alId) ?? 'absent');
const fieldsOf = (s: Sys, alId: string): string => {
  const g = s.w.stack.emulator.emulator.state.orders.get(alId);
  return g ? JSON.stringify(heldOf(g)) : 'absent';
};

/**
 * Invariant 7 for a change or cancel answered "not executed", sent while nothing else could touch its order: the
 * order is as it was before (`before`, a snapshotOf), now; its fields are checked again at the sequence's end.
 */
export const checkNoEffect = (s: Sys, intent: Intent, alId: string, before: string): void => {
  const now = snapshotOf(s, alId);
  if (now !== before)
    return fail(s, 7, `${intent.label} answered not executed, yet the broker's order changed: ${before} -> ${now}`);
  s.claims.push({ intent, alId, before: fieldsOf(s, alId), at: s.sends ?? 0 });
};

/**
 * At a sequence's end: a change answered not executed left its fields, unless a later write was sent to the order (a
 * later intent, or an earlier one retried after it: the settle's retries of open outcomes).
 */
const claimsKept = (s: Sys) => {
  for (const { intent, alId, before, at } of s.claims) {
    const later = s.intents.some(
      (i) =>
        i !== intent &&
        i.order?.alId === alId &&
        (s.intents.indexOf(i) > s.intents.indexOf(intent) || (i.sentAt ?? 0) > at),
    );
    const now = fieldsOf(s, alId);
    if (!later && before !== 'absent' && now !== 'absent' && now !== before)
      fail(s, 7, `${intent.label} answered not executed, yet later the broker's order changed: ${before} -> ${now}`);
  }
};

/** Invariants 1 to 4, after every step. */
export const checkAll = (s: Sys): void => {
  const gtts = books(s);
  neverTwice(s, gtts);
  haltedClean(s, gtts);
  loggedOutQuiet(s);
  const byId = new Map(gtts.map((g) => [g.al_id, g]));
  for (const t of s.orders) acknowledged(s, byId, t);
  keptKept(s, byId);
  // 1 for one alert of any action kind, 8 and 9 (an assistant's limits): system-invariants-ways.ts.
  checkWays(s, gtts);
  // 10: an exit-only key never increases exposure (system-exit.ts).
  checkExit(s, gtts);
  checkExitPlus(s, gtts);
  checkExitGap(s, gtts);
  // 20 (autoCover never covers one position twice): system-protect.ts.
  checkCoverage(s);
  checkCoverGap(s, gtts);
  // 1 for an option plan's entry, a plain order stamped in remarks (system-options.ts).
  checkOptions(s);
};

/** Invariant 5: an intent retried after its late window is answered, and "not executed" is true. */
export const checkResolved = (s: Sys, intent: Intent, a: Answer): void => {
  if (a.verdict === 'unknown' || a.verdict === 'in_flight')
    return fail(
      s,
      5,
      `${intent.label} (key ${intent.key}) retried after its late window still answers ${a.status} ${a.code ?? ''} (${a.verdict})`,
    );
  if (a.verdict === 'not_executed') checkNotExecuted(s, intent, `retried after its late window it answers ${a.code}`);
};

const checkNotExecuted = (s: Sys, intent: Intent, said: string, invariant = 5) => {
  const held = ordersOf(s, intent);
  if (held.length)
    fail(s, invariant, `${intent.label} (key ${intent.key ?? '-'}): ${said}, yet the broker holds ${ids(held)}`);
};

/** Invariant 7 for a place: answered only "not executed" so far, it has no broker order. */
export const checkPlaceNoEffect = (s: Sys, intent: Intent): void => {
  if (intent.verdicts.length && intent.verdicts.every((v) => v === 'not_executed'))
    checkNotExecuted(s, intent, `every answer said not executed (${intent.verdicts.join(', ')})`, 7);
};

/** At a sequence's end: every place answered only "not executed" left no order at the broker (5), and 7's claims. */
export const checkHonest = (s: Sys): void => {
  claimsKept(s);
  for (const intent of s.intents)
    if (
      (intent.kind === 'gtt' || intent.kind === 'oco') &&
      intent.verdicts.length &&
      intent.verdicts.every((v) => v === 'not_executed')
    )
      checkNotExecuted(s, intent, `every answer said not executed (${intent.verdicts.length})`);
};
