/**
 * What decides a permit of the trading controls (trading-controls.ts), whichever keeps the account's item: DynamoDB
 * in the deployment (`DynamoTradingControls`), memory in the tests (test/support/memory-trading-controls.ts). The
 * order-rate governor's sliding-window log, the kill switch's refusal, a session ended since the secret was read, and
 * the item as a permit or the switch leaves it: pure functions of the item and the time, so both decide alike.
 */
import { RateLimitedError, TradingHaltedError } from '../../base/contract/errors.js';
import { indiaTimeText } from '../../base/schemas/india-time.js';
import type { HaltMode, HaltState, OrderRateLimits } from './trading-controls.js';

/** The account's trading controls as its one item holds them. */
export interface ControlState {
  /** Changes with every write: a permit's conditional write assumes the version it read. */
  version: number;
  /** The send times (ms) of the last minute's permits. */
  log: number[];
  halt: HaltState;
  /** Until when a place or modify permitted so far may still land at the broker (ms): the kill switch waits for it. */
  liveUntil: number;
  /** When the session was last ended (a logout, ms): a container that read its secret before re-reads it. */
  sessionEndedAt: number;
}

/** An account whose item was never written. */
export const NO_CONTROLS: ControlState = Object.freeze({
  version: 0,
  log: [],
  halt: { halted: false },
  liveUntil: 0,
  sessionEndedAt: 0,
});

const MINUTE_MS = 60_000;
/** Clocks of containers differ by milliseconds; a secret read this close after a logout is read again anyway. */
const SESSION_SKEW_MS = 1_000;

/** The kill switch's refusal of a place or modify while it is on. */
export const haltedRefusal = (halt: HaltState): TradingHaltedError =>
  new TradingHaltedError(
    `The kill switch is on${halt.changedAt ? ` (since ${indiaTimeText(halt.changedAt)}, ${halt.changedAt})` : ''}${halt.mode === 'keep-exits' ? ', keeping the exits at the broker' : ''}: places and modifies are refused until it is turned off (DELETE /kill-switch). Nothing was sent.`,
    { outcome: 'not_executed' },
  );

/** Whether a logout came after the container read its secret at `readAt` (ms): the secret is read again first. */
export const sessionEndedSince = (state: ControlState, readAt: number): boolean =>
  state.sessionEndedAt > 0 && state.sessionEndedAt + SESSION_SKEW_MS > readAt;

const rateRefusal = (window: 'second' | 'minute', limit: number, waitMs: number): RateLimitedError => {
  const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1_000));
  return new RateLimitedError(
    `Over this deployment's order rate (${limit} a ${window}); nothing was sent to the broker. Retry after ${retryAfterSeconds} s.`,
    { outcome: 'not_executed', details: { window, limit, retryAfterSeconds } },
  );
};

/**
 * The governor's window at `now`: the last minute's permits, oldest first, and the refusal when one more would be
 * the `perSecond`-th within a second (plus the arrival margin) or the `perMinute`-th within a minute, with when the
 * oldest permit that blocks it leaves its window.
 */
export const rateWindow = (
  log: readonly number[],
  now: number,
  limits: OrderRateLimits,
  marginMs: number,
): { lastMinute: number[]; refusal?: RateLimitedError } => {
  const secondWindow = 1_000 + marginMs;
  const lastMinute = log.filter((t) => t > now - MINUTE_MS).sort((a, b) => a - b);
  const lastSecond = lastMinute.filter((t) => t > now - secondWindow);
  if (lastSecond.length >= limits.perSecond)
    return {
      lastMinute,
      refusal: rateRefusal(
        'second',
        limits.perSecond,
        lastSecond[lastSecond.length - limits.perSecond]! + secondWindow - now,
      ),
    };
  if (lastMinute.length >= limits.perMinute)
    return {
      lastMinute,
      refusal: rateRefusal(
        'minute',
        limits.perMinute,
        lastMinute[lastMinute.length - limits.perMinute]! + MINUTE_MS - now,
      ),
    };
  return { lastMinute };
};

/**
 * The item with a permit taken at `now`: its time in the log, and (a write the kill switch refuses: a place or a
 * modify) until when it may land.
 */
export const withPermit = (
  state: ControlState,
  lastMinute: readonly number[],
  now: number,
  refuseWhenHalted: boolean,
  landBy: number | undefined,
): ControlState => ({
  version: state.version + 1,
  log: [...lastMinute, now],
  halt: state.halt,
  liveUntil: refuseWhenHalted && landBy ? Math.max(state.liveUntil, landBy) : state.liveUntil,
  sessionEndedAt: state.sessionEndedAt,
});

/** The kill switch as turning it on (in `mode`, default cancel-all) or off at `at` (ms) leaves it. */
export const haltChanged = (
  halted: boolean,
  at: number,
  changedBy?: string,
  mode?: HaltMode,
): HaltState & { changedAt: string } => {
  const kept = halted ? (mode ?? 'cancel-all') : undefined;
  return {
    halted,
    changedAt: new Date(at).toISOString(),
    ...(changedBy ? { changedBy } : {}),
    ...(kept ? { mode: kept } : {}),
  };
};
