/** Reads either entry shape and validates the operation's input before anything else happens. */
import { type GatewayRequest, readGatewayRequest } from '../../base/contract/gateway-request.js';
import type { AnyOperation } from '../../base/contract/operation.js';
import { validateInput } from '../../base/contract/validate-input.js';

/** A request that passed its operation's input schema: its options and the validated input. */
export interface ParsedRequest {
  request: GatewayRequest;
  /** The operation schema's output. */
  input: unknown;
}

/**
 * `read` is told the request before validation, so the audit record of a rejected request still shows what was
 * asked.
 */
export const parseRequest = (
  operation: AnyOperation,
  event: unknown,
  read: (request: GatewayRequest) => void = () => undefined,
): ParsedRequest => {
  const request = readGatewayRequest(operation, event);
  read(request);
  return { request, input: validateInput(operation.input, request.payload) };
};
