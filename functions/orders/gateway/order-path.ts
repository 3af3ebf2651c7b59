/**
 * The order path: the steps one request of a table entry goes through, read top to bottom, each a function of its
 * own given the typed values the steps before it returned:
 *
 *   parse -> check -> session -> lease -> [PATCH: read and merge, then check] -> rules -> [copy | dry run]
 *     -> permit -> claim (journal) -> send -> complete
 *
 * The path writes the request's record (context.ts) as it goes, for the observers: the request as read, the order
 * as the last step had it, what happened. A lease asked for is given back before the reply (kept for the late window
 * when the outcome is unknown), after a refused symbol got its suggestions.
 */
import type { Logger } from '@aws-lambda-powertools/logger';

import { stampedRemarks, stampOf } from '../../base/broker/order-stamps.js';
import type { AnyOperation } from '../../base/contract/operation.js';
import { redactDeep } from '../../base/contract/redact.js';
import { writeLog } from '../../base/runtime/logger.js';
import type { LifecycleEvent } from '../../base/schemas/events.js';
import { settledByBooks } from '../books.js';
import { dryRun } from '../safety/dry-run.js';
import { brokerDeps } from './broker-deps.js';
import type { Collaborators } from './collaborators.js';
import type { RequestRecord } from './context.js';
import { exchangeRules, suggestSymbols } from './exchange-rules.js';
import { adoptWrite } from './order-adopt.js';
import { checkOrder, parseRequest } from './order-checks.js';
import { readFromCopy } from './order-copy.js';
import { carriedEvents } from './order-events.js';
import { askLease, askPermit, openSession } from './order-holds.js';
import { orderPatch } from './order-patch.js';
import { completeUnkeyed, sendWrite, withConversion, type Write, writeBounds } from './order-send.js';
import { readBeforeChange } from './order-stamp.js';

export type OrderPath = (event: unknown, deadline: number, record: RequestRecord) => Promise<unknown>;

export const orderPath = (operation: AnyOperation, parts: () => Collaborators, logger: Logger): OrderPath => {
  const onCopyError = (error: unknown, what: 'read' | 'write') =>
    writeLog(logger, 'warn', `instrument copy ${what} failed; the broker is read instead`, {
      error: error instanceof Error ? error.message : String(error),
    });

  return async (event, deadline, record) => {
    const { config, sessions, journal, leases, controls, copy, instruments, events: producer } = parts();
    const facts = record.facts;
    const parsed = parseRequest(operation, event, (request) => (record.request = request));
    const { request } = parsed;
    record.order = { input: parsed.input };
    // A PATCH is checked once merged with the order it changes.
    const early = operation.patch ? undefined : checkOrder(operation, request, parsed.input, config, !!journal);
    const session = await openSession(sessions, operation.kind);
    const reads = brokerDeps(config, session, deadline);
    const lease = leases
      ? await askLease(operation.name, leases, request.options, parsed.input, session, deadline)
      : undefined;
    try {
      const patched = operation.patch ? await orderPatch(operation.patch, parsed, reads) : undefined;
      if (patched) record.order = { input: patched.input };
      const checked = early ?? checkOrder(operation, request, patched!.input, config, !!journal);
      const rules = { settings: config, deps: reads, copy: instruments, onCopyError };
      const ruled = await exchangeRules(operation, checked, rules, (order) => (record.order = order));
      record.order = ruled;
      const fromCopy = copy ? await readFromCopy(copy, ruled.input, session, facts) : undefined;
      if (fromCopy) return await ended(fromCopy);
      const beforeSend =
        patched?.beforeSend ?? readBeforeChange(operation, ruled.input, reads, journal, request.options.dryRun);
      if (request.options.dryRun) {
        await beforeSend?.();
        const { brokerBaseUrl: url, brokerAuth: auth, algoId } = config;
        const asked = dryRun(operation, ruled.input, await session.session(), url, auth, algoId, ruled.exchangeRules);
        return await ended(withConversion(ruled.converted, asked));
      }
      const bounds = writeBounds(config.brokerTimeoutMs, deadline, beforeSend !== undefined);
      const { input, converted } = ruled;
      const write: Write = {
        operation,
        config,
        input,
        converted,
        deadline,
        bounds,
        session,
        sessions,
        journal,
        controls,
        producer,
        logger,
        facts,
      };
      const permit =
        operation.kind === 'order' && controls
          ? askPermit(
              controls,
              operation,
              session,
              sessions,
              bounds.writesEndBy + config.orderLateWindowMs,
              facts,
              input,
            )
          : undefined;
      const key = request.options.idempotencyKey;
      if (key === undefined || !journal) {
        permit?.wanted(true);
        return await ended(await completeUnkeyed(write, await sendWrite(write, { lease, permit, beforeSend })));
      }
      // The write's stamp: sent in the order's remarks (a cancel's is only its name in the journal), so a write whose
      // outcome is unknown is found in the broker's books. None when the caller's tag leaves no room.
      const named = settledByBooks(operation) ? stampOf(operation.name, key) : undefined;
      const tag = (ruled.input as { tag?: string }).tag;
      const stamp = named && stampedRemarks(tag, named) !== undefined ? named : undefined;
      let carried: readonly LifecycleEvent[] = [];
      try {
        const run = await journal
          .run(key, patched?.idempotencyInput ?? ruled.input, {
            stamp,
            deadline: bounds.writesEndBy,
            send: async () => {
              permit?.wanted(true);
              const sent = await sendWrite(write, { lease, permit, beforeSend, stamp });
              carried = sent.events;
              return sent;
            },
            adopt: () => adoptWrite(write, journal, key, stamp!, lease),
          })
          .finally(() => permit?.wanted(false));
        facts.replayed = run.replayed;
        carried = run.events;
        // A replay is redacted again on its way out: a record stored before a token was known is no exception.
        const answer = { key, replayed: run.replayed, ...(run.adopted ? { adopted: true } : {}) };
        return await ended({ ...(redactDeep(run.result) as object), idempotency: answer });
      } finally {
        // Said even when completing the record failed after the broker's success: the watcher publishes that change.
        const fate = carriedEvents(carried);
        if (fate) facts.event = fate;
      }
    } catch (error) {
      await suggestSymbols(operation, record.order.input, error, reads);
      await lease?.end(error);
      throw error;
    }

    /** The reply: the broker's `stat` recorded, the lease given back first. */
    async function ended(result: unknown): Promise<unknown> {
      facts.brokerStat ??=
        typeof result === 'object' && result !== null && 'stat' in result ? String(result.stat) : 'Ok';
      await lease?.end();
      return result;
    }
  };
};
