// Lambda entry point: binds the operation table's getPendingGttOrders entry to the shared gateway stack.
import { createGatewayHandler } from '../gateway.js';
import { getPendingGttOrders } from '../operations.js';

export const handler = createGatewayHandler(getPendingGttOrders, { prefetchSession: true });
