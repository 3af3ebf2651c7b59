/**
 * The kill switch (docs/explanation/compliance.md): `POST /kill-switch` turns it on and sweeps the book, `DELETE` turns it off,
 * `GET` reads it. Direct invocation: `{"action": "on" | "off" | "status"}` (`on`: `body: {"mode": ...}` as well).
 *
 * Two modes: `cancel-all` (the default) sweeps every pending GTT and OCO; `keep-exits` sweeps only what would open a
 * position (single GTTs and plan entries) and leaves the exits at the broker: every OCO, and a plan's exit OCO and
 * trailing stop (known by their stamps; the rule is the order core's, orders/safety/exits.ts), so no plan is left
 * unprotected. Places and modifies are refused in both; a place or change of an exit that took its permit before a
 * keep-exits switch and lands after it is kept, as the sweep keeps the exit (orders/gateway/landed-after-halt.ts).
 *
 * On: the switch is written first (from then on every place and modify, in every container, is refused with
 * TRADING_HALTED: the governor reads it with each permit), then the pending list is read and every order cancelled
 * through the operation table's own CancelGTTOrder entry on the shared stack (each cancel takes a governor permit,
 * is audited and publishes `GTT Cancelled`). A cancel refused as RATE_LIMITED waits its Retry-After and goes again.
 * The list is read once more at the end: a place that took its permit just before the switch went on may land
 * during the sweep.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';

import { createEventPublisher } from '../base/aws/publisher.js';
import { splitRemarks } from '../base/broker/order-stamps.js';
import type { SessionSource } from '../base/broker/session.js';
import {
  ConfigurationError,
  type ErrorBody,
  fromDirectInvocation,
  retryAfterSeconds,
} from '../base/contract/errors.js';
import { isHttpApiEvent } from '../base/contract/gateway-request.js';
import { validateInput } from '../base/contract/validate-input.js';
import { createRoutedFunction } from '../base/middleware/routed-function.js';
import type { RoutedRequest } from '../base/middleware/routed-request.js';
import { deployedEnv, type GatewayConfig, type GatewaySettings, parseGatewayConfig } from '../base/runtime/config.js';
import { envName } from '../base/runtime/env.js';
import { logger as defaultLogger, writeLog } from '../base/runtime/logger.js';
import { killSwitchInput, type KillSwitchResult } from '../base/schemas/controls.js';
import { eventIds } from '../events/core/views.js';
import { deadlineOf } from '../orders/gateway/broker-deps.js';
import { type DirectHandler, inProcessGateway } from '../orders/gateway/in-process.js';
import { recordGone } from '../orders/gone.js';
import { cancelGttOrder, getPendingGttOrders } from '../orders/operations.js';
import { isExit } from '../orders/safety/exits.js';
import { dynamoTradingControls, type HaltMode, type TradingControls } from '../orders/safety/trading-controls.js';
import { KILL_SWITCH_ROUTES } from './kill-switch-routes.js';

export interface KillSwitchOptions {
  config?: GatewaySettings;
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /** Waits between rate-limited cancels (tests pass a fast one); default: the real clock. */
  sleep?: (ms: number) => Promise<void>;
}

interface Runtime {
  config: GatewayConfig;
  controls: TradingControls;
  sessions: SessionSource;
  list: DirectHandler;
  cancel: DirectHandler;
}

/** The switch itself, for the routes below and for other functions in-process (a signal's kill-switch action). */
export interface KillSwitchControl {
  status: () => Promise<KillSwitchResult>;
  /**
   * On, then the sweep; `changedBy` names who turned it (an IAM identity, `signal:<strategyId>`), `mode` what the
   * sweep takes down (default cancel-all); the sweep ends by `deadline` (epoch ms).
   */
  on: (changedBy: string, deadline: number, mode?: HaltMode) => Promise<KillSwitchResult>;
  off: (changedBy: string) => Promise<KillSwitchResult>;
}

export const createKillSwitchControl = (options: KillSwitchOptions = {}): KillSwitchControl => {
  const logger = options.logger ?? defaultLogger;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let runtime: Runtime | undefined;
  const load = (): Runtime => {
    if (runtime) return runtime;
    const settings = options.config ?? options.env ?? deployedEnv();
    const config = parseGatewayConfig(settings);
    if (!config.controlTableName)
      throw new ConfigurationError(
        `The kill switch needs the trading controls table (${envName('controlTableName')}).`,
      );
    // The table's own entries on the order core: the same validation, governor, audit and events as any call.
    const gateway = inProcessGateway(settings, logger, 'KillSwitch');
    runtime = {
      config,
      controls: dynamoTradingControls({ ...config, controlTableName: config.controlTableName }),
      sessions: gateway.sessions,
      list: gateway.direct(getPendingGttOrders),
      cancel: gateway.direct(cancelGttOrder),
    };
    return runtime;
  };

  const audit = (fields: Record<string, unknown>) =>
    writeLog(logger, 'info', 'kill switch', { audit: { action: 'KillSwitch', ...fields } });

  const publish = async (
    config: GatewayConfig,
    halted: boolean,
    changedAt: string,
    extra: { changedBy?: string; mode?: HaltMode; cancelled?: number; kept?: number; failed?: number },
  ) => {
    if (!config.eventBusName) return;
    const eventId = eventIds.killSwitch(halted, changedAt);
    const result = await createEventPublisher({
      busName: config.eventBusName,
      endpoint: config.eventbridgeEndpoint,
    }).publish([
      {
        detailType: 'Kill Switch',
        detail: { eventId, observedAt: new Date().toISOString(), origin: 'gateway', halted, ...extra },
      },
    ]);
    if (result.failed.length)
      writeLog(logger, 'error', 'Kill Switch not published', { eventId, reason: result.failed[0]!.reason });
  };

  /** Cancels every pending order of one read of the list; RATE_LIMITED and ORDER_BUSY cancels wait and go again. */
  const cancelPending = async (
    rt: Runtime,
    deadline: number,
    cancelled: string[],
    failed: Map<string, { al_id: string; code: string; message: string }>,
    kept: Set<string> | undefined,
  ) => {
    // Every page of the pending list (it answers at most 1,000 orders a page).
    const pendingOrders: PendingOrder[] = [];
    let cursor: string | undefined;
    do {
      const page = (await rt.list({ limit: 1_000, ...(cursor ? { cursor } : {}) }, deadline)) as {
        orders: PendingOrder[];
        nextCursor?: string;
      };
      pendingOrders.push(...page.orders);
      cursor = page.nextCursor;
    } while (cursor);
    const sweepable = pendingOrders.filter((o) => {
      if (kept && isExit(o)) {
        kept.add(o.al_id);
        return false;
      }
      return !cancelled.includes(o.al_id);
    });
    for (const { al_id: alId, remarks } of sweepable) {
      for (;;) {
        try {
          await rt.cancel({ al_id: alId }, deadline);
          cancelled.push(alId);
          failed.delete(alId);
          // A journaled write's order (its stamp in the remarks): a retry of its key answers this order, never a
          // second one, though the broker's lists no longer show it.
          const stamp = splitRemarks(remarks).stamp;
          if (stamp && rt.config.idempotencyTableName)
            await recordGone(
              {
                tableName: rt.config.idempotencyTableName,
                ttlSeconds: rt.config.idempotencyTtlSeconds,
                endpoint: rt.config.dynamodbEndpoint,
              },
              stamp,
              alId,
            ).catch((error: unknown) =>
              writeLog(logger, 'error', 'swept order not recorded for its key', { al_id: alId, error }),
            );
          break;
        } catch (error) {
          const body = parseDirectError(error);
          const wait = retryAfterSeconds(body.details) * 1_000;
          // Over the rate, or another change of the order in flight (its lease): wait and cancel it then.
          if ((body.code === 'RATE_LIMITED' || body.code === 'ORDER_BUSY') && deadline - Date.now() > wait + 5_000) {
            await sleep(wait);
            continue;
          }
          // Gone meanwhile (fired or cancelled elsewhere): nothing left to cancel.
          if (body.code !== 'ORDER_NOT_FOUND')
            failed.set(alId, { al_id: alId, code: body.code, message: body.message });
          break;
        }
      }
    }
  };

  /**
   * The sweep: every pending order cancelled, then, once no place or modify permitted before the switch can still
   * land (its deadline plus the late window, recorded with its permit), the list read and swept again. Complete only
   * then: what landed after the first pass is cancelled by the second (or by the order core itself, which cancels a
   * write that lands while the switch is on). When the invocation cannot wait that long, `inFlightUntil` says when.
   */
  const sweep = async (
    rt: Runtime,
    uid: string,
    deadline: number,
    mode: HaltMode,
  ): Promise<NonNullable<KillSwitchResult['sweep']>> => {
    const startedAt = new Date().toISOString();
    const cancelled: string[] = [];
    const failed = new Map<string, { al_id: string; code: string; message: string }>();
    const kept = mode === 'keep-exits' ? new Set<string>() : undefined;
    await cancelPending(rt, deadline, cancelled, failed, kept);
    const until = await rt.controls.inFlightUntil(uid);
    const wait = until - Date.now();
    const canWait = wait <= 0 || deadline - Date.now() > wait + 5_000;
    if (wait > 0 && canWait) await sleep(wait);
    await cancelPending(rt, deadline, cancelled, failed, kept);
    return {
      startedAt,
      finishedAt: new Date().toISOString(),
      cancelled,
      ...(kept ? { kept: [...kept] } : {}),
      failed: [...failed.values()],
      complete: failed.size === 0 && canWait,
      ...(canWait ? {} : { inFlightUntil: new Date(until).toISOString() }),
    };
  };

  return {
    status: async () => {
      const rt = load();
      const { uid } = await rt.sessions.current();
      return rt.controls.haltState(uid);
    },
    off: async (changedBy) => {
      const rt = load();
      const { uid } = await rt.sessions.current();
      const state = await rt.controls.setHalt(uid, false, changedBy);
      audit({ halted: false, changedAt: state.changedAt, changedBy });
      await publish(rt.config, false, state.changedAt!, { changedBy });
      return state;
    },
    on: async (changedBy, deadline, mode = 'cancel-all') => {
      const rt = load();
      const { uid } = await rt.sessions.current();
      const state = await rt.controls.setHalt(uid, true, changedBy, mode);
      audit({ halted: true, mode, changedAt: state.changedAt, changedBy, phase: 'on' });
      const result = await sweep(rt, uid, deadline, mode);
      audit({
        halted: true,
        mode,
        changedAt: state.changedAt,
        changedBy,
        phase: 'swept',
        sweptAt: result.finishedAt,
        cancelled: result.cancelled,
        ...(result.kept ? { kept: result.kept } : {}),
        failed: result.failed,
      });
      await publish(rt.config, true, state.changedAt!, {
        changedBy,
        mode,
        cancelled: result.cancelled.length,
        ...(result.kept ? { kept: result.kept.length } : {}),
        failed: result.failed.length,
      });
      return { ...state, sweep: result };
    },
  };
};

/**
 * How long a sweep asked over HTTP may take before it answers: API Gateway ends an HTTP answer at 30 s and the MCP
 * server's client waits 20 s, so a sweep that would wait longer for a write in flight answers `complete: false`
 * with `inFlightUntil` instead (the order core cancels what lands while the switch is on). A direct invocation (a
 * workflow's) has the function's whole KILL_SWITCH_TIMEOUT_SECONDS.
 */
export const KILL_SWITCH_HTTP_ANSWER_MS = 15_000;

export const createKillSwitch = (options: KillSwitchOptions = {}) => {
  const control = createKillSwitchControl(options);
  const run = (request: RoutedRequest, context: Context, event: unknown): Promise<KillSwitchResult> => {
    const action = request.route.action;
    if (action === 'status') return control.status();
    if (action === 'off') return control.off(request.caller);
    const input = validateInput(killSwitchInput, request.body ?? {});
    // The signed caller stays first: `onBehalfOf` is its word for whom it acts (the MCP server's assistant).
    const by = input.onBehalfOf ? `${request.caller} for ${input.onBehalfOf}` : request.caller;
    const deadline = isHttpApiEvent(event)
      ? Math.min(deadlineOf(context), Date.now() + KILL_SWITCH_HTTP_ANSWER_MS)
      : deadlineOf(context);
    return control.on(by, deadline, input.mode);
  };
  return createRoutedFunction(
    KILL_SWITCH_ROUTES,
    async (request, context, event) => ({ body: await run(request, context, event) }),
    {
      logger: options.logger ?? defaultLogger,
    },
  );
};

/** A pending order as the sweep reads it: enough to tell an exit from an entry. */
interface PendingOrder {
  al_id: string;
  type?: 'single' | 'oco';
  tag?: string;
  remarks?: string;
}

/** The error contract body of a failure inside the sweep (never an unexpected error's own text). */
const parseDirectError = (error: unknown): ErrorBody => fromDirectInvocation(error).toBody();
