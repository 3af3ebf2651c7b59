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
import { toGatewayError } from '../base/contract/errors.js';
import type { KillSwitchResult } from '../base/schemas/controls.js';
import type { LifecycleEvent } from '../base/schemas/events.js';
import { indiaDay } from '../base/schemas/india-time.js';
import type { PositionsResult } from '../base/schemas/positions.js';
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
  now?: () => number;
}

export type Pnl = PositionsResult['totals'];

export interface RiskRun {
  /** off: no limit set (nothing read); clear, hit (this run or before), unchecked (the read failed). */
  status: 'off' | 'clear' | 'hit' | 'unchecked';
  day?: string;
  pnl?: { realised: number; unrealised: number; total: number };
  /** hit: what this run did (the steps not yet done before it). */
  did?: ('claimed' | 'halted' | 'event')[];
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
        await followUp(current, settings, deadline, did);
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
    await followUp(current, settings, deadline, did);
    return { status: 'hit', day, pnl, did };
  };
};

export type RiskCheck = ReturnType<typeof createRiskCheck>;
