/**
 * Coverage at work (docs/explanation/coverage.md): the reads behind `GET /positions/coverage` (the positions and
 * the whole pending list, through the operation table's own entries in-process, so decoding is the gateway's in
 * every dialect), and each watcher run's step: with `watch` on, every position not covered raises one
 * `Position Unprotected` (its id stable per IST day, position, net quantity and uncovered quantity, so a run that
 * sees the same thing publishes nothing), and with `autoCover`, an OCO is placed for it through the order core with
 * a key of the day, position and net quantity (coverage-cover.ts): a retry or a later run is answered by the journal
 * with the first, never a second OCO. A refused OCO (the band, the kill switch) is said in the event.
 *
 * The plans are read too (their store, every page): what the live ones owe a position and is not at the broker yet
 * is said beside its cover (`owedQty`), and autoCover places only the rest (`uncoveredQty - owedQty`), none when
 * the plans owe the whole of it: the plan's exit, once it lands, is the one exit, never a second beside autoCover's.
 * When the plans cannot be read, the coverage still answers (the broker's cover, with a `note`), and autoCover
 * places nothing that run: never a guess that could sell twice; the next run reads them again.
 */
import type { Logger } from '@aws-lambda-powertools/logger';

import { instrumentRules } from '../base/broker/instruments.js';
import { ConfigurationError, fromDirectInvocation, toGatewayError } from '../base/contract/errors.js';
import { type GatewaySettings } from '../base/runtime/config.js';
import { envName } from '../base/runtime/env.js';
import type { CoverageResult, CoverageSettings, PositionCoverage } from '../base/schemas/coverage.js';
import type { LifecycleEvent } from '../base/schemas/events.js';
import { indiaDay } from '../base/schemas/india-time.js';
import type { PositionsResult } from '../base/schemas/positions.js';
import { eventIds } from '../events/core/views.js';
import { type DirectHandler, inProcessGateway } from '../orders/gateway/in-process.js';
import { getPendingGttOrders, getPositions, placeOcoOrder } from '../orders/operations.js';
import { exitOrderDryRun, exitOrders } from '../orders/plain-order.js';
import { PlanStore } from '../plans/store.js';
import type { CloseDeps } from './close.js';
import { dynamoClosePlans } from './close-store.js';
import { coverageOf, coverageTotals, owedOfPlans, type PendingExit } from './coverage.js';
import { coverKey, coverOrder, positionKey } from './coverage-cover.js';
import { CoverageStore } from './coverage-store.js';
import { exitPriceOn } from './exit-price.js';

export interface CoverageDeps {
  store: CoverageStore;
  positions: DirectHandler;
  pending: DirectHandler;
  placeOco: DirectHandler;
  /** Every plan record (their store, every page; the ended ones too: owedExitsOf skips them). */
  plans: () => Promise<Record<string, unknown>[]>;
  /** The instrument's tick (SearchScrip, through the container's cache). */
  tick: (exch: string, tsym: string, deadline: number) => Promise<string>;
  /** Who the account is, for the events' ids. */
  scope: () => Promise<string>;
  /** `POST /positions/close` (close.ts): the closing price, the exit order, the plans kept by key. */
  close?: Pick<CloseDeps, 'exitPrice' | 'placeExit' | 'dryRunExit' | 'plans'>;
  now?: () => number;
}

/** The deployment's coverage: the events table for the settings, the order core in-process for reads and covers. */
export const createCoverage = (settings: GatewaySettings, logger: Logger, name: string): CoverageDeps => {
  const gateway = inProcessGateway(settings, logger, name);
  const { config } = gateway;
  if (!config.eventsTableName)
    throw new ConfigurationError(
      `Coverage needs the events table, which holds its settings (${envName('eventsTableName')}).`,
    );
  const plans = new PlanStore({ tableName: config.eventsTableName, endpoint: config.dynamodbEndpoint });
  return {
    store: new CoverageStore({ tableName: config.eventsTableName, endpoint: config.dynamodbEndpoint }),
    plans: () => everyPlan(plans),
    positions: gateway.direct(getPositions),
    pending: gateway.direct(getPendingGttOrders),
    placeOco: gateway.direct(placeOcoOrder),
    tick: async (exch, tsym, deadline) => (await instrumentRules(exch, tsym, gateway.reads(deadline))).tick,
    scope: async () => {
      const s = await gateway.sessions.current();
      return [config.eventBusName ?? '', s.uid, s.actid].join('\u0001');
    },
    ...(config.idempotencyTableName
      ? {
          close: {
            exitPrice: exitPriceOn(gateway),
            placeExit: exitOrders(gateway),
            dryRunExit: exitOrderDryRun(gateway),
            plans: dynamoClosePlans({
              tableName: config.idempotencyTableName,
              endpoint: config.dynamodbEndpoint,
              ttlSeconds: config.idempotencyTtlSeconds,
            }),
          },
        }
      : {}),
  };
};

/** What a close reads and places with (close.ts), on the coverage's own reads. */
export const closeDeps = (deps: CoverageDeps): CloseDeps => {
  if (!deps.close)
    throw new ConfigurationError(
      `Closing a position needs the idempotency table (${envName('idempotencyTableName')}).`,
    );
  return {
    ...deps.close,
    positions: async (deadline) => (await deps.positions({}, deadline)) as PositionsResult,
    pending: (deadline) => pendingList(deps, deadline),
    owed: async (pending) => owedOfPlans(await deps.plans(), pending),
  };
};

/** Every page of the pending list, through the operation table's GetPendingGTTOrder entry. */
export const everyPending = async (pending: DirectHandler, deadline: number): Promise<PendingExit[]> => {
  const out: PendingExit[] = [];
  let cursor: string | undefined;
  do {
    const page = (await pending({ limit: 1_000, ...(cursor ? { cursor } : {}) }, deadline)) as {
      orders: PendingExit[];
      nextCursor?: string;
    };
    out.push(...page.orders);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
};

/** Every plan record in the store (the ended ones too: owedOfPlans skips them). */
export const everyPlan = async (store: PlanStore): Promise<Record<string, unknown>[]> =>
  (await store.list()).map((stored) => stored.plan as unknown as Record<string, unknown>);

const pendingList = (deps: CoverageDeps, deadline: number): Promise<PendingExit[]> =>
  everyPending(deps.pending, deadline);

/** Every plan record, or the code of the failed read of their store. */
const plansNow = async (deps: CoverageDeps): Promise<{ plans: Record<string, unknown>[] } | { failed: string }> => {
  try {
    return { plans: await deps.plans() };
  } catch (error) {
    return { failed: toGatewayError(error).code };
  }
};

/** The coverage of every open position now, with the settings, and the code of a failed plans read. */
const coverageNow = async (deps: CoverageDeps, deadline: number, settings?: CoverageSettings) => {
  const [read, pending, current, plans] = await Promise.all([
    deps.positions({}, deadline) as Promise<PositionsResult>,
    pendingList(deps, deadline),
    settings ? Promise.resolve(settings) : deps.store.get(),
    plansNow(deps),
  ]);
  const failed = 'failed' in plans ? plans.failed : undefined;
  const positions = coverageOf(read.positions, pending, 'plans' in plans ? owedOfPlans(plans.plans, pending) : []);
  const result: CoverageResult = {
    positions,
    totals: coverageTotals(positions),
    settings: current,
    ...(failed
      ? {
          note: `The plans could not be read (${failed}): what live plans owe is not said, and autoCover places nothing until they are.`,
        }
      : {}),
  };
  // The day's traded quantities by position (the cover's key): what tells a position opened again from the same one.
  const traded = new Map(
    read.positions.map((p) => [positionKey(p), { boughtQty: p.boughtQty, soldQty: p.soldQty }] as const),
  );
  return { result, failed, traded };
};

/** The coverage of every open position now, with the settings. */
export const readCoverage = async (
  deps: CoverageDeps,
  deadline: number,
  settings?: CoverageSettings,
): Promise<CoverageResult> => (await coverageNow(deps, deadline, settings)).result;

type AutoCover = NonNullable<LifecycleEvent<'Position Unprotected'>['detail']['autoCover']>;

/** autoCover for one position: the OCO placed (or answered again by its key), or why not. */
const cover = async (
  deps: CoverageDeps,
  position: PositionCoverage,
  autoCover: NonNullable<CoverageSettings['autoCover']>,
  deadline: number,
  now: number,
  traded?: { boughtQty: number; soldQty: number },
): Promise<AutoCover> => {
  const owed = position.owedQty ?? 0;
  if (owed >= position.uncoveredQty) {
    const plans = (position.owedBy ?? []).map((o) => `plan ${o.planId} owes ${o.qty} (${o.what})`).join('; ');
    return {
      placed: false,
      reason: `Not placed: the live plans owe the whole uncovered ${position.uncoveredQty}, not at the broker yet (${plans}); their exit covers it once it lands, and a second exit beside it could close the position twice.`,
    };
  }
  try {
    const tick = await deps.tick(position.exch, position.tsym, deadline);
    const order = coverOrder(position, autoCover, tick, position.uncoveredQty - owed);
    if (!order.ok) return { placed: false, code: 'VALIDATION_FAILED', reason: order.reason };
    const result = (await deps.placeOco(
      { ...order.input, idempotencyKey: coverKey(position, now, order.qty, traded) },
      deadline,
    )) as {
      al_id?: string;
      idempotency?: { replayed?: boolean };
    };
    return {
      placed: true,
      ...(result.al_id ? { al_id: String(result.al_id) } : {}),
      ...(result.idempotency?.replayed ? { replayed: true } : {}),
      target: order.target,
      stopLoss: order.stopLoss,
      qty: order.qty,
    };
  } catch (error) {
    const failure = fromDirectInvocation(error);
    const words = failure.brokerMessage ? `${failure.message} The broker: ${failure.brokerMessage}` : failure.message;
    return { placed: false, code: failure.code, reason: words.slice(0, 500) };
  }
};

export interface CoverageRun {
  checked: number;
  /** The events of the positions not covered (already published ones included: the caller skips them). */
  events: LifecycleEvent<'Position Unprotected'>[];
}

/** One watcher run's step: undefined when coverage is off. */
export const watchCoverage = async (deps: CoverageDeps, deadline: number): Promise<CoverageRun | undefined> => {
  const settings = await deps.store.get();
  if (!settings.watch) return undefined;
  const now = (deps.now ?? Date.now)();
  const { result, failed, traded } = await coverageNow(deps, deadline, settings);
  const { positions } = result;
  const scope = await deps.scope();
  const events: LifecycleEvent<'Position Unprotected'>[] = [];
  for (const position of positions) {
    if (position.status === 'covered') continue;
    const autoCover = !settings.autoCover
      ? undefined
      : failed
        ? {
            placed: false,
            code: failed,
            reason: `Not placed: the plans could not be read (${failed}), so what they owe this position is not known; the next run tries again.`,
          }
        : await cover(deps, position, settings.autoCover, deadline, now, traded.get(positionKey(position)));
    events.push({
      detailType: 'Position Unprotected',
      detail: {
        eventId: eventIds.positionUnprotected(
          scope,
          indiaDay(now),
          positionKey(position),
          position.netQty,
          position.uncoveredQty,
        ),
        observedAt: new Date(now).toISOString(),
        origin: 'watcher',
        exch: position.exch,
        tsym: position.tsym,
        product: position.product,
        netQty: position.netQty,
        averagePrice: position.averagePrice,
        status: position.status as 'partly' | 'target-only' | 'uncovered',
        uncoveredQty: position.uncoveredQty,
        exits: position.exits.map((e) => e.al_id),
        ...(position.owedQty
          ? { owedQty: position.owedQty, owedBy: (position.owedBy ?? []).map((o) => o.planId) }
          : {}),
        ...(autoCover ? { autoCover } : {}),
      },
    });
  }
  return { checked: positions.length, events };
};
