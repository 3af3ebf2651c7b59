/**
 * The order path: the steps one request of a table entry goes through, each given what the steps before it returned
 * (typed as present) and returning a new value, never rewriting a shared one:
 *
 *   parseRequest -> orderSafety -> brokerSession -> orderLease -> exchangeRules -> executor
 *     ParsedRequest  CheckedOrder   LoadedSession    AskedLease     RuledOrder
 *
 * A PATCH reads the order first, so every check judges the merged order:
 *
 *   parseRequest -> brokerSession -> orderLease -> orderPatch -> orderSafety -> exchangeRules -> executor
 *                                                  PatchedOrder
 *
 * The path writes the request's record (context.ts) as it goes, for the observing middlewares: the request as read,
 * the order as the last step had it, what the executor did. A lease asked for is given back before the reply (or
 * kept for the late window when the outcome is unknown), after a refused symbol got its suggestions.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';

import type { SessionSource } from '../../base/broker/session.js';
import { type AnyOperation, changesAnOrder } from '../../base/contract/operation.js';
import type { GatewayConfig } from '../../base/runtime/config.js';
import { writeLog } from '../../base/runtime/logger.js';
import type { GatewayEvents } from '../events/producer.js';
import type { InstrumentCopy } from '../instruments/copy.js';
import type { OrderJournal } from '../journal.js';
import type { OrderLeases } from '../lease.js';
import type { TradingControls } from '../safety/trading-controls.js';
import { brokerSession, type LoadedSession } from './broker-session.js';
import type { RequestRecord } from './context.js';
import { brokerDeps, exchangeRules, type RuledOrder, suggestSymbols } from './exchange-rules.js';
import { execute } from './executor.js';
import type { OrderCopy } from './order-copy.js';
import { type AskedLease, orderLease } from './order-lease.js';
import { orderPatch, type PatchedOrder } from './order-patch.js';
import { type CheckedOrder, orderSafety } from './order-safety.js';
import { readBeforeChange } from './order-stamp.js';
import { type ParsedRequest, parseRequest } from './parse-request.js';

/** What the container built for one table entry (gateway-handler.ts), on first use. */
export interface PathParts {
  config: GatewayConfig;
  sessions: SessionSource;
  idempotency?: OrderJournal;
  events?: GatewayEvents;
  controls?: TradingControls;
  /** One change per order at a time (modify, PATCH, cancel): the leases on the control table. */
  leases?: OrderLeases;
  /** The one-order read: the watcher's copy of the pending list, where the deployment has the events table. */
  copy?: OrderCopy;
  /** The account's copy of the instruments' rules (place and modify). */
  instruments?: InstrumentCopy;
}

/** Runs `steps`, then gives the lease back: after a failure's symbol suggestions, before the reply. */
const holding = async <T>(lease: AskedLease | undefined, steps: () => Promise<T>): Promise<T> => {
  let result: T;
  try {
    result = await steps();
  } catch (error) {
    await lease?.end(error);
    throw error;
  }
  await lease?.end();
  return result;
};

export const orderPath = (operation: AnyOperation, parts: () => PathParts, logger: Logger) => {
  const onCopyError = (error: unknown, what: 'read' | 'write') =>
    writeLog(logger, 'warn', `instrument copy ${what} failed; the broker is read instead`, {
      error: error instanceof Error ? error.message : String(error),
    });

  /** One order by id from the watcher's copy while fresh, else the executor: dry run, idempotent or plain call. */
  const run = async (
    parsed: ParsedRequest,
    order: RuledOrder,
    session: LoadedSession,
    context: Context,
    record: RequestRecord,
    lease?: AskedLease,
    patched?: PatchedOrder,
  ): Promise<unknown> => {
    const { config, idempotency, controls, sessions, events, copy } = parts();
    // One order by id: the watcher's copy while fresh (order-copy.ts), unless the caller asks the broker.
    const wanted = order.input as { al_id?: string; fresh?: boolean };
    if (copy && wanted.al_id !== undefined) {
      const read = wanted.fresh
        ? ({ miss: 'fresh-asked' } as const)
        : await copy.read(wanted.al_id, (await session.session()).uid);
      if ('order' in read) {
        record.facts.copy = 'hit';
        record.facts.brokerStat = 'Ok';
        return read.order;
      }
      record.facts.copy = read.miss;
    }
    // The record's facts learn what happened as it happens; the success's events are in the outbox (or said not to
    // be) by the time it returns.
    const { result } = await execute(
      {
        operation,
        config,
        input: order.input,
        converted: order.converted,
        idempotencyInput: patched?.idempotencyInput,
        // A PATCH's second read, or a modify's read of the order right before sending (the stamp it carries).
        beforeSend:
          patched?.beforeSend ??
          readBeforeChange(
            operation,
            order.input,
            brokerDeps(context, config, session),
            idempotency,
            parsed.request.options.dryRun,
          ),
        lease: lease?.hold,
        endLease: lease?.end,
        options: parsed.request.options,
        session: session.session,
        refreshSession: session.refreshSession,
        sessions,
        idempotency,
        controls,
        events,
        context,
        logger,
        exchangeRules: order.exchangeRules,
      },
      record.facts,
    );
    record.facts.brokerStat =
      typeof result === 'object' && result !== null && 'stat' in result ? String(result.stat) : 'Ok';
    return result;
  };

  /** The exchange's rules, then `run`; a refused symbol's error names the closest listed ones. */
  const ruleAndRun = async (
    parsed: ParsedRequest,
    checked: CheckedOrder,
    session: LoadedSession,
    context: Context,
    record: RequestRecord,
    lease?: AskedLease,
    patched?: PatchedOrder,
  ): Promise<unknown> => {
    const settings = parts().config;
    const deps = brokerDeps(context, settings, session);
    let input = checked.input;
    try {
      const reader = { settings, deps, copy: parts().instruments, onCopyError };
      const ruled = await exchangeRules(operation, checked, reader, (order) => {
        record.order = order;
        input = order.input;
      });
      return await run(parsed, ruled, session, context, record, lease, patched);
    } catch (error) {
      await suggestSymbols(operation, input, error, deps);
      throw error;
    }
  };

  return async (event: unknown, context: Context, record: RequestRecord): Promise<unknown> => {
    const parsed = parseRequest(operation, event, (request) => (record.request = request));
    record.order = { input: parsed.input };
    const { source, options } = parsed.request;
    const remainingMs = () => context.getRemainingTimeInMillis();
    const recordOrder = (order: CheckedOrder) => (record.order = order);
    if (operation.patch) {
      const patch = operation.patch;
      const session = await brokerSession(parts().sessions, operation.kind);
      const lease = await orderLease(operation.name, parts().leases, options, parsed.input, session, remainingMs);
      return holding(lease, async () => {
        const patched = await orderPatch(patch, parsed, brokerDeps(context, parts().config, session));
        record.order = { input: patched.input };
        const checked = orderSafety(operation, { source, options, input: patched.input }, parts().config, recordOrder);
        return ruleAndRun(parsed, checked, session, context, record, lease, patched);
      });
    }
    const checked = orderSafety(operation, { source, options, input: parsed.input }, parts().config, recordOrder);
    const session = await brokerSession(parts().sessions, operation.kind);
    const lease = changesAnOrder(operation)
      ? await orderLease(operation.name, parts().leases, options, checked.input, session, remainingMs)
      : undefined;
    return holding(lease, () => ruleAndRun(parsed, checked, session, context, record, lease));
  };
};
