/**
 * One structured audit record per order action (place, modify, cancel): who asked how, with which key, and what
 * happened (`succeeded`, `replayed`, `dry_run`, `rejected`, `unknown`). Never the token.
 */
import type { Logger } from '@aws-lambda-powertools/logger';

import { boundedView, capText } from '../../base/contract/bounded.js';
import { toGatewayError } from '../../base/contract/errors.js';
import type { AnyOperation } from '../../base/contract/operation.js';
import { writeLog } from '../../base/runtime/logger.js';
import type { RequestObserver, RequestRecord } from './context.js';

const ORDER_FIELDS = [
  'al_id',
  'exch',
  'tsym',
  'qty',
  'prc',
  'prd',
  'trantype',
  'prctyp',
  'ret',
  'ai_t',
  'validity',
  'd',
  'tag',
  'target',
  'stopLoss',
  'ltp',
];

/**
 * The order fields of the validated input, or (for a request refused before validation passed) a bounded view of
 * the caller's raw fields: strings capped at 256 characters, depth and keys limited. Never a whole raw body.
 */
const orderSummary = (input: unknown): Record<string, unknown> => {
  if (typeof input !== 'object' || input === null) return {};
  const record = input as Record<string, unknown>;
  return Object.fromEntries(
    ORDER_FIELDS.filter((f) => Object.hasOwn(record, f) && record[f] !== undefined).map((f) => [
      f,
      boundedView(record[f]),
    ]),
  );
};

/** For order operations only; other operations get no audit middleware (undefined). */
export const auditLog = (operation: AnyOperation, logger: Logger): RequestObserver | undefined => {
  if (operation.kind !== 'order') return undefined;
  const record = (state: RequestRecord, fields: Record<string, unknown>) => {
    writeLog(logger, 'info', 'order action', {
      audit: {
        action: operation.name,
        source: state.source,
        idempotencyKey: state.request?.options.idempotencyKey,
        dryRun: state.request?.options.dryRun ?? false,
        order: orderSummary(state.order?.input ?? state.request?.payload),
        // Both, when the gateway changed the order (a market order sent as a protected limit order).
        ...(state.order?.requested === undefined ? {} : { requestedOrder: orderSummary(state.order.requested) }),
        // What was done to a market order: the price type and price sent, the band and the tick.
        ...(state.order?.converted === undefined ? {} : { converted: state.order.converted }),
        ...fields,
      },
    });
  };
  return {
    name: 'auditLog',
    after: (state, response) => {
      const result = (response ?? {}) as Record<string, unknown>;
      const outcome = state.request?.options.dryRun ? 'dry_run' : state.facts.replayed ? 'replayed' : 'succeeded';
      record(state, {
        outcome,
        al_id: boundedView(result.al_id),
        brokerStat: boundedView(result.stat),
        brokerAttempts: state.facts.brokerAttempts,
      });
    },
    onError: (state, thrown) => {
      const error = toGatewayError(thrown);
      record(state, {
        outcome: error.outcome === 'unknown' ? 'unknown' : 'rejected',
        code: error.code,
        brokerMessage: error.brokerMessage === undefined ? undefined : capText(error.brokerMessage),
        al_id: (state.order?.input as { al_id?: unknown } | undefined)?.al_id,
      });
    },
  };
};
