// Lambda entry point: binds the operation table's logout entry to the shared gateway stack.
import { createGatewayHandler } from '../gateway.js';
import { logout } from '../operations.js';

export const handler = createGatewayHandler(logout, { prefetchSession: true });
