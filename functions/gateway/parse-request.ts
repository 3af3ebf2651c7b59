/** Reads either entry shape and validates the operation's input before anything else happens. */
import type { MiddlewareObj } from '@middy/core';

import { readGatewayRequest } from '../contract/gateway-request.js';
import type { AnyOperation } from '../contract/operation.js';
import { validateInput } from '../contract/validate-input.js';
import type { GatewayContext } from './context.js';

export const parseRequest = (operation: AnyOperation): MiddlewareObj<unknown, unknown, Error, GatewayContext> => ({
  name: 'parseRequest',
  before: (request) => {
    const gatewayRequest = readGatewayRequest(operation, request.event);
    // Kept before validation so the audit record of a rejected request still shows what was asked.
    request.context.gateway.request = gatewayRequest;
    request.context.gateway.input = validateInput(operation.input, gatewayRequest.payload);
  },
});
