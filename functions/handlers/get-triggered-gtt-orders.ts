// Lambda entry point: binds the operation table's getTriggeredGttOrders entry to the shared gateway stack.
import { createGatewayHandler } from '../gateway.js';
import { getTriggeredGttOrders } from '../operations.js';

export const handler = createGatewayHandler(getTriggeredGttOrders, { prefetchSession: true });
