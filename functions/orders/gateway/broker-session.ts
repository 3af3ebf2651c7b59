/**
 * Loads the broker session from Secrets Manager (cached per container) before anything is sent, so a missing or
 * malformed secret is a CONFIGURATION_ERROR before any broker call, and gives the next steps a way to re-read it.
 */
import type { SessionSource } from '../../base/broker/session.js';
import { GatewayError } from '../../base/contract/errors.js';
import type { OperationKind } from '../../base/contract/operation.js';
import type { BrokerSession } from '../../base/schemas/session.js';

/** The session, loaded once: the current one (cached) and a fresh read of the secret. */
export interface LoadedSession {
  session: () => Promise<BrokerSession>;
  refreshSession: () => Promise<BrokerSession>;
}

export const brokerSession = async (source: SessionSource, kind?: OperationKind): Promise<LoadedSession> => {
  try {
    await source.current();
  } catch (error) {
    // A logged-out secret: nothing was sent, which callers of order and session operations are told.
    if (error instanceof GatewayError && error.code === 'SESSION_EXPIRED' && kind !== undefined && kind !== 'read')
      error.outcome ??= 'not_executed';
    throw error;
  }
  return { session: () => source.current(), refreshSession: () => source.refresh() };
};
