// Lambda entry point: binds the operation table's getEnabledGtts entry to the shared gateway stack.
import { createGatewayHandler } from '../gateway.js';
import { getEnabledGtts } from '../operations.js';

export const handler = createGatewayHandler(getEnabledGtts, { prefetchSession: true });
