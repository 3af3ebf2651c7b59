/**
 * Loads the broker session from Secrets Manager (cached per container) before the handler runs, so a missing or
 * malformed secret is a CONFIGURATION_ERROR before any broker call, and hands the handler a way to re-read it.
 */
import type { MiddlewareObj } from '@middy/core';
import type { SessionSource } from '../broker/session.js';
import type { GatewayContext } from './context.js';

export const brokerSession = (
  sessions: () => SessionSource,
): MiddlewareObj<unknown, unknown, Error, GatewayContext> => ({
  name: 'brokerSession',
  before: async (request) => {
    const source = sessions();
    await source.current();
    request.context.gateway.session = () => source.current();
    request.context.gateway.refreshSession = () => source.refresh();
  },
});
