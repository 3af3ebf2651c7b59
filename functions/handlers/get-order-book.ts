// Lambda entry point: binds the operation table's getOrderBook entry to the shared gateway stack.
import { createGatewayHandler } from '../gateway.js';
import { getOrderBook } from '../operations.js';

export const handler = createGatewayHandler(getOrderBook, { prefetchSession: true });
