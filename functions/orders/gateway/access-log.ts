/**
 * One structured log line per invocation: operation, source, latency, outcome. Never the token or the body. Written
 * with writeLog, so it never throws: every request gets its line, whatever it carried.
 */
import type { Logger } from '@aws-lambda-powertools/logger';

import { capText } from '../../base/contract/bounded.js';
import { toGatewayError } from '../../base/contract/errors.js';
import type { AnyOperation } from '../../base/contract/operation.js';
import { writeLog } from '../../base/runtime/logger.js';
import type { RequestObserver } from './context.js';

/** `String(cause)`, capped, and safe for causes whose `toString` throws or is not a function. */
const describeCause = (cause: unknown): string => {
  try {
    return capText(cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause), 1_000);
  } catch {
    return `a thrown ${typeof cause}`;
  }
};

export const accessLog = (operation: AnyOperation, logger: Logger): RequestObserver => ({
  name: 'accessLog',
  after: (state) => {
    writeLog(logger, 'info', 'operation succeeded', {
      operation: operation.name,
      source: state.source,
      latencyMs: Math.round((performance.now() - state.startedAt) * 10) / 10,
      brokerStat: state.facts.brokerStat,
      brokerAttempts: state.facts.brokerAttempts,
      ...(state.facts.copy ? { copy: state.facts.copy } : {}),
    });
  },
  onError: (state, thrown) => {
    const error = toGatewayError(thrown);
    const fields = {
      operation: operation.name,
      source: state.source,
      latencyMs: Math.round((performance.now() - state.startedAt) * 10) / 10,
    };
    writeLog(logger, error.status >= 500 ? 'error' : 'warn', 'operation failed', {
      ...fields,
      code: error.code,
      status: error.status,
      outcome: error.outcome,
      brokerMessage: error.brokerMessage === undefined ? undefined : capText(error.brokerMessage),
      // The cause of an INTERNAL_ERROR is what an operator needs; it never carries the token.
      ...(error.code === 'INTERNAL_ERROR' ? { cause: describeCause(error.cause) } : {}),
    });
  },
});
