// Lambda entry point: binds the operation table's clientDetails entry to the shared gateway stack.
import { createGatewayHandler } from '../gateway.js';
import { clientDetails } from '../operations.js';

export const handler = createGatewayHandler(clientDetails, { prefetchSession: true });
