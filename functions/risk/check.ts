/**
 * The day's limits checked, once per GttWatcher run (check-wiring.ts builds it; the watcher runs it right after its
 * own diff, so a run that saw fills checks them in that same run, before the plans act):
 *
 * - no limit set: nothing read (no PositionBook call);
 * - else one PositionBook read; a failed read decides nothing and says why (`unchecked`, never a halt and never a
 *   silent pass), unless the day was already hit;
 * - the day's P&L (realised + unrealised, the broker's figures) at or below minus the loss limit, or at or above the
 *   target: the day is claimed `hit` (a write conditional on the version read: claimed once), then the kill switch goes
 *   on in the chosen mode, then one `Risk Limit Hit` event goes to the outbox (its id stable per account and day),
 *   each step recorded once done, so a run that stopped half-way is finished by the next and never repeated;
 * - a day already hit stays hit (the trader who turns the switch off again is not overruled that day); the next
 *   India day has no state yet and starts clear.
 */
import { createHash } from 'node:crypto';

import { toGatewayError } from '../base/contract/errors.js';
import type { KillSwitchResult } from '../base/schemas/controls.js';
import type { LifecycleEvent } from '../base/schemas/events.js';
import { type OwedExit, waitingExits } from '../base/schemas/exit-only.js';
import { indiaDay } from '../base/schemas/india-time.js';
import type { Position, PositionsResult } from '../base/schemas/positions.js';
import type { RiskSettings, RiskToday } from '../base/schemas/risk.js';
import type { RiskStore } from './store.js';

export interface RiskCheckDeps {
  store: RiskStore;
  positions: (deadline: number) => Promise<PositionsResult>;
  killSwitchOn: (changedBy: string, deadline: number, mode: RiskSettings['mode']) => Promise<KillSwitchResult>;
  /** Into the outbox: the EventForwarder publishes it and keeps it in the history. */
  publish: (events: LifecycleEvent[]) => Promise<void>;
  /** The event's id: the account's scope and the day. */
  eventId: (day: string) => Promise<string>;
  /** Square-off (absent: not offered): the protected limit price closing a position, and the order placed. */
  exitPrice?: (position: Position, deadline: number) => Promise<string>;
  placeExit?: (order: SquareOffOrder, deadline: number) => Promise<{ norenordno: string }>;
  /**
   * What waits to close each position, read when the square-off is planned: the pending list and what the live plans
   * owe (coverage.ts `owedOfPlans`). A square-off closes only the rest, so an exit the switch kept (keep-exits) that
   * fires later never takes the position past flat.
   */
  waiting?: (deadline: number) => Promise<{ pending: Record<string, unknown>[]; owed: OwedExit[] }>;
  now?: () => number;
}

export interface SquareOffOrder {
  exch: string;
  tsym: string;
  prd: string;
  trantype: 'B' | 'S';
  qty: number;
  prc: string;
  key: string;
}

export type Pnl = PositionsResult['totals'];

export interface RiskRun {
  /** off: no limit set (nothing read); clear, hit (this run or before), unchecked (the read failed). */
  status: 'off' | 'clear' | 'hit' | 'unchecked';
  day?: string;
  pnl?: { realised: number; unrealised: number; total: number };
  /** hit: what this run did (the steps not yet done before it). */
  did?: ('claimed' | 'halted' | 'event' | 'planned' | 'squared')[];
  reason?: string;
}

/** Whether the settings set any limit (none: the watcher reads no positions). */
export const hasLimits = (s: RiskSettings | undefined): s is RiskSettings =>
  s !== undefined && (s.dayLossLimit !== undefined || s.dayProfitTarget !== undefined);

type Hit = NonNullable<RiskToday['hit']>;

/** Which limit the P&L crossed, if any: the loss limit first (at or below its negative), then the target. */
export const crossed = (
  settings: RiskSettings,
  total: number,
): { limit: Hit['limit']; threshold: number } | undefined => {
  if (settings.dayLossLimit !== undefined && total <= -settings.dayLossLimit)
    return { limit: 'dayLossLimit', threshold: -settings.dayLossLimit };
  if (settings.dayProfitTarget !== undefined && total >= settings.dayProfitTarget)
    return { limit: 'dayProfitTarget', threshold: settings.dayProfitTarget };
  return undefined;
};

const pnlOf = (totals: Pnl) => ({ realised: totals.realised, unrealised: totals.unrealised, total: totals.total });

/** A square-off order's key: the day and the position (the journal answers a replay with the order it placed). */
export const squareOffKey = (day: string, p: { exch: string; tsym: string; product: string }): string =>
  `risk-sq:${day}:${createHash('sha256').update(`${p.exch}|${p.tsym}|${p.product}`).digest('hex').slice(0, 24)}`;

export const createRiskCheck = (deps: RiskCheckDeps) => {
  const now = deps.now ?? Date.now;

  /** The day's state written over the version read; another writer first: read again and go on from there. */
  const save = async (today: RiskToday, version: number): Promise<{ today: RiskToday; version: number }> => {
    const next = await deps.store.writeDay(today, version, now());
    if (next !== undefined) return { today, version: next };
    const fresh = await deps.store.day(today.day);
    return fresh;
  };

  /** The steps of a hit not done yet: the switch on, the event queued; each recorded as it is done. */
  const followUp = async (
    start: { today: RiskToday; version: number },
    settings: RiskSettings,
    deadline: number,
    did: NonNullable<RiskRun['did']>,
    book: PositionsResult | undefined,
  ) => {
    let current = start;
    const hit = (): Hit => current.today.hit!;
    if (!hit().halted) {
      await deps.killSwitchOn(`risk:${hit().limit}`, deadline, hit().mode);
      current = await save({ ...current.today, hit: { ...hit(), halted: true } }, current.version);
      did.push('halted');
    }
    if (!hit().eventSent) {
      const day = current.today.day;
      const event: LifecycleEvent<'Risk Limit Hit'> = {
        detailType: 'Risk Limit Hit',
        detail: {
          eventId: await deps.eventId(day),
          observedAt: hit().at,
          origin: 'watcher',
          day,
          limit: hit().limit,
          threshold: hit().threshold,
          pnl: hit().pnl,
          mode: hit().mode,
          squareOff: settings.squareOff,
        },
      };
      await deps.publish([event]);
      current = await save({ ...current.today, hit: { ...hit(), eventSent: true } }, current.version);
      did.push('event');
    }
    if (settings.squareOff && deps.exitPrice && deps.placeExit)
      current = await squareOff(current, deadline, did, book, deps.exitPrice, deps.placeExit);
    return current;
  };

  /**
   * Each open position closed by one protected LIMIT order, for exactly its quantity (netQty of the read the hit was
   * decided on, or of this run's when the plan is made later). The plan (side, quantity, price, key) is recorded
   * before any order is sent; each order goes with its key (the day and the position), so a run cut short sends the
   * same order again and the journal answers the one already placed, never a second. Placed or refused, an order is
   * never sent again by a later run; an outcome the gateway could not know is retried with its key.
   */
  const squareOff = async (
    start: { today: RiskToday; version: number },
    deadline: number,
    did: NonNullable<RiskRun['did']>,
    book: PositionsResult | undefined,
    exitPrice: NonNullable<RiskCheckDeps['exitPrice']>,
    placeExit: NonNullable<RiskCheckDeps['placeExit']>,
  ) => {
    let current = start;
    const day = current.today.day;
    if (!current.today.hit!.squareOff) {
      if (!book) return current;
      // Unread, no plan: a later run makes it with its own reads (never a close that could cross an exit kept).
      const waiting = deps.waiting ? await deps.waiting(deadline).catch(() => undefined) : { pending: [], owed: [] };
      if (!waiting) return current;
      const plan: NonNullable<Hit['squareOff']> = [];
      for (const p of book.positions.filter((q) => q.netQty !== 0)) {
        const side = p.netQty > 0 ? ('S' as const) : ('B' as const);
        const at = { exch: p.exch, tsym: p.tsym, prd: p.product };
        const kept = waitingExits(waiting.pending, waiting.owed, at, side).total;
        const entry = { exch: p.exch, tsym: p.tsym, product: p.product, side, qty: Math.abs(p.netQty) - kept };
        if (entry.qty <= 0) {
          const word = `not closed: the exits kept for it (pending, or owed by a plan) would close ${kept} of ${Math.abs(p.netQty)}`;
          plan.push({ ...entry, qty: 0, error: word });
          continue;
        }
        const price = await exitPrice(p, deadline).catch((error: unknown) => toGatewayError(error));
        plan.push(
          typeof price === 'string'
            ? { ...entry, price }
            : { ...entry, error: `no protected price (${price.code}): ${price.message}`.slice(0, 300) },
        );
      }
      current = await save({ ...current.today, hit: { ...current.today.hit!, squareOff: plan } }, current.version);
      did.push('planned');
    }
    const plan = current.today.hit!.squareOff ?? [];
    for (const [i, entry] of plan.entries()) {
      if (entry.norenordno || entry.price === undefined || (entry.error && !entry.error.startsWith('unknown')))
        continue;
      const order: SquareOffOrder = {
        exch: entry.exch,
        tsym: entry.tsym,
        prd: entry.product,
        trantype: entry.side,
        qty: entry.qty,
        prc: entry.price,
        key: squareOffKey(day, entry),
      };
      const done = await placeExit(order, deadline).then(
        (r) => ({ norenordno: r.norenordno }),
        (error: unknown) => {
          const failure = toGatewayError(error);
          // Unknown: the next run sends it again with its key (the journal settles it); else final, said here.
          const word = failure.outcome === 'unknown' ? 'unknown' : 'refused';
          return { error: `${word} (${failure.code}): ${failure.message}`.slice(0, 300) };
        },
      );
      const next = [...plan];
      const { error: _old, ...rest } = entry;
      next[i] = { ...rest, ...done };
      plan[i] = next[i]!;
      current = await save({ ...current.today, hit: { ...current.today.hit!, squareOff: next } }, current.version);
      if ('norenordno' in done) did.push('squared');
    }
    return current;
  };

  return async (deadline: number): Promise<RiskRun> => {
    const settings = await deps.store.settings();
    if (!hasLimits(settings)) return { status: 'off' };
    const at = now();
    const day = indiaDay(at);
    let current = await deps.store.day(day);
    let book: PositionsResult;
    try {
      book = await deps.positions(deadline);
    } catch (error) {
      const failure = toGatewayError(error);
      const reason = `positions not read (${failure.code}): ${failure.message}`.slice(0, 500);
      const iso = new Date(at).toISOString();
      if (current.today.state === 'hit') {
        // Decided already: the steps left are finished; the read's failure is the last check's word.
        const did: NonNullable<RiskRun['did']> = [];
        current = await save({ ...current.today, lastCheck: { at: iso }, reason }, current.version);
        await followUp(current, settings, deadline, did, undefined);
        return { status: 'hit', day, did, reason };
      }
      await save({ day, state: 'unchecked', reason, lastCheck: { at: iso } }, current.version);
      return { status: 'unchecked', day, reason };
    }
    const pnl = pnlOf(book.totals);
    const lastCheck = { at: new Date(at).toISOString(), pnl };
    const did: NonNullable<RiskRun['did']> = [];
    if (current.today.state !== 'hit') {
      const over = crossed(settings, pnl.total);
      if (!over) {
        await save({ day, state: 'clear', lastCheck }, current.version);
        return { status: 'clear', day, pnl };
      }
      const hit: Hit = { at: lastCheck.at, ...over, pnl, mode: settings.mode, halted: false, eventSent: false };
      const next = await deps.store.writeDay({ day, state: 'hit', hit, lastCheck }, current.version, at);
      if (next === undefined) current = await deps.store.day(day);
      else {
        current = { today: { day, state: 'hit', hit, lastCheck }, version: next };
        did.push('claimed');
      }
      if (current.today.state !== 'hit') return { status: 'unchecked', day, pnl, reason: 'another check wrote first' };
    } else {
      const { reason: _reason, ...kept } = current.today;
      current = await save({ ...kept, lastCheck }, current.version);
    }
    await followUp(current, settings, deadline, did, book);
    return { status: 'hit', day, pnl, did };
  };
};

export type RiskCheck = ReturnType<typeof createRiskCheck>;
