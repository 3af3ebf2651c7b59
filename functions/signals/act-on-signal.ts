/**
 * Acting on one signal (docs/reference/signals.md, "What happens to an alert"): each alert in turn through the operation
 * table's entries in-process, each order under the idempotency key `sg-<signalId>-<n>` (n the alert's place in the
 * signal, from 1), so a second delivery of the same message replays instead of placing again.
 *
 * How it ends:
 * - `acted` when anything was done (placed, cancelled, a plan created, a dry run in paper mode): every alert's line
 *   in `results`, refusals among them with their code and message in `detail`;
 * - `refused` when nothing was: the first refusal's code, every alert's reason; an outcome the broker left unknown
 *   (BROKER_TIMEOUT, a lost reply) is named first, with the way to check, and never placed again by this signal
 *   (its key keeps that outcome, so a redelivery could learn nothing more);
 * - thrown (`SignalRetryError`) when an order could not be sent *now* and certainly was not sent (the governor's
 *   RATE_LIMITED, the broker unreachable, a key still in flight): the worker lets the queue deliver the message again,
 *   and the orders already placed replay under their keys.
 */
import { fromDirectInvocation, type GatewayError } from '../base/contract/errors.js';
import type { KillSwitchResult } from '../base/schemas/controls.js';
import type { Plan, PlanInput } from '../base/schemas/plans.js';
import type { Alert, SignalOrder, SignalRecord, Strategy } from '../base/schemas/signals.js';
import type { DirectHandler } from '../orders/gateway/in-process.js';
import { checkExitOnly } from './exit-check.js';
import { type AlertOrder, alertOrder, strategyTag, termsOf } from './orders.js';
import type { ActOutcome, SignalResult } from './signal-actor.js';
import type { Instrument } from './symbols.js';

export interface SignalDeps {
  place: DirectHandler;
  placeOco: DirectHandler;
  pending: DirectHandler;
  /** GET /positions in-process: an exit strategy's orders are checked on it (exit-check.ts). */
  positions: DirectHandler;
  /** Every plan in the store (the plan records): an exit strategy's orders count what the live ones owe. */
  plans: (deadline: number) => Promise<Record<string, unknown>[]>;
  cancel: DirectHandler;
  /** The alert's instrument, confirmed by SearchScrip (symbols.ts). */
  instrument: (alert: Alert, order: Pick<SignalOrder, 'exch' | 'tsym'>, deadline: number) => Promise<Instrument>;
  createPlan: (input: PlanInput, key: string, deadline: number) => Promise<{ plan: Plan; replayed: boolean }>;
  killSwitchOn: (changedBy: string, deadline: number) => Promise<KillSwitchResult>;
}

/** Not now, certainly not sent: the worker leaves the message to the queue, which delivers it again. */
export class SignalRetryError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'SignalRetryError';
  }
}

/** Refusals that say "not now" rather than "no": nothing was sent, and the same order may well go later. */
const RETRY_CODES: readonly string[] = [
  'RATE_LIMITED',
  'BROKER_UNAVAILABLE',
  'IDEMPOTENCY_IN_PROGRESS',
  'ORDER_BUSY',
  'PLAN_BUSY',
];
/** An alert is not started this close to the deadline: the rest waits for the message's next delivery. */
const RESERVE_MS = 3_000;
const MAX_REASON = 1_000;

type Failed = { kind: 'refused' | 'unknown' | 'retry'; result: SignalResult; failure: GatewayError };
type Line = { kind: 'done'; result: SignalResult } | Failed;

const keyOf = (signal: SignalRecord, n: number | string) => `sg-${signal.signalId}-${n}`;

const failed = (error: unknown, ticker: string, tsym: string | undefined): Failed => {
  const failure = fromDirectInvocation(error);
  const kind = failure.outcome === 'unknown' ? 'unknown' : RETRY_CODES.includes(failure.code) ? 'retry' : 'refused';
  const what =
    kind === 'unknown'
      ? `outcome unknown (${failure.code}): ${failure.message} Check GET /gtt-orders${tsym ? `?tsym=${encodeURIComponent(tsym)}` : ''} to see what the broker holds before acting by hand; this signal does not send it again.`
      : `${kind === 'retry' ? 'not sent yet' : 'refused'} (${failure.code}): ${failure.message}`;
  return { kind, failure, result: { ticker, ...(tsym ? { tsym } : {}), detail: what } };
};

const sideWord = (body: Record<string, unknown>) => (body.trantype === 'B' ? 'BUY' : 'SELL');

/** A GTT's line: side, quantity, where, trigger, alert type and limit. */
const gttLine = (body: Record<string, unknown>, where: string) =>
  `${sideWord(body)} ${String(body.qty)} ${where} GTT trigger ${String(body.d)} (${String(body.ai_t)})${body.prc ? ` limit ${String(body.prc)}` : ''}`;

type Leg = { trigger: string; order?: { prc?: string }; price?: string };
const legLine = (name: string, leg: Leg) => {
  const price = leg.order?.prc ?? leg.price;
  return `${name} ${leg.trigger}${price ? ` limit ${price}` : ''}`;
};

/** What one alert's order is (placed, or in paper mode would be): the same line either way, prices included. */
const orderLine = (order: AlertOrder, kind: string, where: string, id?: string): string => {
  if (order.kind === 'gtt') return gttLine(order.body, where);
  if (order.kind === 'oco')
    return `OCO ${where} ${legLine('target', order.body.target as Leg)}, ${legLine('stop-loss', order.body.stopLoss as Leg)}`;
  const plan = order.plan;
  const what =
    plan.kind === 'bracket'
      ? `entry ${gttLine(plan.entry, where)}; exit ${legLine('target', plan.target)}, ${legLine('stop-loss', plan.stopLoss)}`
      : plan.kind === 'trailing-stop'
        ? `stop ${gttLine(plan.order, where)}, trailing by ${plan.trailBy}${plan.step ? ` in steps of ${plan.step}` : ''}`
        : plan.kind === 'option-legs'
          ? `${plan.legs.map((l) => `${l.trantype === 'S' ? 'sell' : 'buy'} ${l.lots} lots of ${l.tsym}`).join(', ')}, as one`
          : `${plan.trantype === 'S' ? 'sell' : 'buy'} ${plan.lots} lots of ${plan.pick.strike} ${plan.pick.type} when the index is ${plan.when.above !== undefined ? `above ${plan.when.above}` : `below ${plan.when.below}`}`;
  return `${kind} plan${id ? ` ${id}` : ''} on ${where}: ${what}`;
};

/** One alert of a placing action: its instrument, its order, the call. */
const placeOne = async (
  deps: SignalDeps,
  signal: SignalRecord,
  strategy: Strategy,
  alert: Alert,
  n: number,
  deadline: number,
): Promise<Line> => {
  const action = strategy.action as Extract<Strategy['action'], { order: SignalOrder }>;
  const ticker = alert.ticker ?? action.order.tsym ?? '';
  let tsym: string | undefined;
  try {
    const instrument = await deps.instrument(alert, action.order, deadline);
    tsym = instrument.tsym;
    const order = alertOrder(action, termsOf(alert, action.order, instrument, strategy));
    const key = keyOf(signal, n);
    const where = `${instrument.exch}:${instrument.tsym}`;
    const tag = strategyTag(strategy);
    // An exit strategy: only an order that reduces an open position, on the positions read now (live or paper).
    if (strategy.scope === 'exit') await checkExitOnly(deps, order, deadline);
    if (strategy.mode === 'paper') {
      // The order (a plan's first GTT) checked as a dry run: the same checks as live, nothing sent.
      const body = order.kind === 'plan' ? order.entry : order.body;
      await (order.kind === 'oco' ? deps.placeOco : deps.place)({ ...body, dryRun: true }, deadline);
      return {
        kind: 'done',
        result: {
          ticker,
          tsym,
          dryRun: true,
          detail: `paper: ${orderLine(order, action.kind, where)}, tag ${tag}; nothing was sent`,
        },
      };
    }
    if (order.kind === 'plan') {
      const { plan, replayed } = await deps.createPlan(order.plan, key, deadline);
      const alId = plan.alIds.entry ?? plan.alIds.stop;
      return {
        kind: 'done',
        result: {
          ticker,
          tsym,
          planId: plan.planId,
          ...(alId ? { alId } : {}),
          detail: `${orderLine(order, action.kind, where, plan.planId)}${replayed ? ' (replayed)' : ''}`,
        },
      };
    }
    const placed = (await (order.kind === 'oco' ? deps.placeOco : deps.place)(
      { ...order.body, idempotencyKey: key },
      deadline,
    )) as { al_id: string; idempotency?: { replayed: boolean } };
    const replayed = placed.idempotency?.replayed ? ' (replayed)' : '';
    const detail = `${orderLine(order, action.kind, where)}${replayed}`;
    return { kind: 'done', result: { ticker, tsym, alId: placed.al_id, detail } };
  } catch (error) {
    return failed(error, ticker, tsym);
  }
};

interface PendingPage {
  orders: { al_id: string }[];
  nextCursor?: string;
}

/** One alert of the cancel action: every pending GTT (single or OCO) of its instrument. */
const cancelOne = async (
  deps: SignalDeps,
  signal: SignalRecord,
  strategy: Strategy,
  alert: Alert,
  deadline: number,
): Promise<Line[]> => {
  const action = strategy.action as Extract<Strategy['action'], { kind: 'cancel' }>;
  const ticker = alert.ticker ?? '';
  let tsym: string | undefined;
  try {
    const instrument = await deps.instrument(alert, action.exch ? { exch: action.exch } : {}, deadline);
    tsym = instrument.tsym;
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await deps.pending(
        { tsym, exch: instrument.exch, limit: 1_000, ...(cursor ? { cursor } : {}) },
        deadline,
      )) as PendingPage;
      ids.push(...page.orders.map((o) => o.al_id));
      cursor = page.nextCursor;
    } while (cursor);
    if (ids.length === 0)
      return [{ kind: 'done', result: { ticker, tsym, detail: `no pending GTT of ${instrument.exch}:${tsym}` } }];
    const lines: Line[] = [];
    for (const alId of ids) {
      try {
        const paper = strategy.mode === 'paper';
        await deps.cancel(
          { al_id: alId, ...(paper ? { dryRun: true } : { idempotencyKey: keyOf(signal, `c${alId}`) }) },
          deadline,
        );
        lines.push({
          kind: 'done',
          result: paper
            ? { ticker, tsym, alId, dryRun: true, detail: `paper: the cancel as a dry run; nothing was sent` }
            : { ticker, tsym, alId, detail: `cancelled ${alId}` },
        });
      } catch (error) {
        lines.push(failed(error, ticker, tsym));
      }
    }
    return lines;
  } catch (error) {
    return [failed(error, ticker, tsym)];
  }
};

const killSwitch = async (deps: SignalDeps, strategy: Strategy, deadline: number): Promise<Line> => {
  if (strategy.mode === 'paper')
    return {
      kind: 'done',
      result: {
        ticker: '',
        dryRun: true,
        detail: 'paper: the kill switch would be turned on (every pending GTT cancelled); nothing was done',
      },
    };
  try {
    const state = await deps.killSwitchOn(`signal:${strategy.strategyId}`, deadline);
    const sweep = state.sweep;
    return {
      kind: 'done',
      result: {
        ticker: '',
        detail: `kill switch on${sweep ? `: ${sweep.cancelled.length} cancelled, ${sweep.failed.length} not cancelled` : ''}`,
      },
    };
  } catch (error) {
    return failed(error, '', undefined);
  }
};

const conclude = (lines: Line[]): ActOutcome => {
  const failures = lines.filter((l): l is Failed => l.kind !== 'done');
  const retry = failures.filter((l) => l.kind === 'retry');
  if (retry.length > 0) {
    const first = retry[0]!.failure;
    throw new SignalRetryError(
      `${retry.length} order(s) of the signal could not be sent now (${first.code}: ${first.message}); the message is delivered again and what was already placed replays under its key.`,
      first.code,
    );
  }
  const results = lines.map((l) => l.result);
  if (lines.some((l) => l.kind === 'done')) return { state: 'acted', results };
  const first = failures.find((l) => l.kind === 'unknown') ?? failures[0];
  if (!first) return { state: 'refused', reason: 'The signal carries no alert.', results };
  const reason =
    failures.length === 1
      ? first.result.detail!
      : failures.map((l) => `${l.result.tsym ?? l.result.ticker}: ${l.result.detail}`).join('; ');
  return {
    state: 'refused',
    reason: reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason,
    code: first.failure.code,
    results,
  };
};

/** Acts on one signal as its strategy says (the SignalActor of signal-actor.ts, given its deps). */
export const actOn = async (
  deps: SignalDeps,
  signal: SignalRecord,
  strategy: Strategy,
  deadline: number,
): Promise<ActOutcome> => {
  if (strategy.action.kind === 'kill-switch') return conclude([await killSwitch(deps, strategy, deadline)]);
  const lines: Line[] = [];
  for (const [i, alert] of signal.alerts.entries()) {
    if (deadline - Date.now() < RESERVE_MS)
      throw new SignalRetryError(
        `The invocation's time ran out after ${i} of ${signal.alerts.length} alerts; the message is delivered again and what was placed replays.`,
        'DEADLINE',
      );
    if (strategy.action.kind === 'cancel') lines.push(...(await cancelOne(deps, signal, strategy, alert, deadline)));
    else lines.push(await placeOne(deps, signal, strategy, alert, i + 1, deadline));
  }
  return conclude(lines);
};
