/**
 * Loads the broker session from Secrets Manager (cached per container) before the handler runs, so a missing or
 * malformed secret is a CONFIGURATION_ERROR before any broker call, and hands the handler a way to re-read it.
 */
import type { MiddlewareObj } from '@middy/core';

import type { SessionSource } from '../broker/session.js';
import { GatewayError } from '../contract/errors.js';
import type { OperationKind } from '../contract/operation.js';
import type { GatewayContext } from './context.js';

export const brokerSession = (
  sessions: () => SessionSource,
  kind?: OperationKind,
): MiddlewareObj<unknown, unknown, Error, GatewayContext> => ({
  name: 'brokerSession',
  before: async (request) => {
    const source = sessions();
    try {
      await source.current();
    } catch (error) {
      // A logged-out secret: nothing was sent, which callers of order and session operations are told.
      if (error instanceof GatewayError && error.code === 'SESSION_EXPIRED' && kind !== undefined && kind !== 'read')
        error.outcome ??= 'not_executed';
      throw error;
    }
    request.context.gateway.session = () => source.current();
    request.context.gateway.refreshSession = () => source.refresh();
  },
});
