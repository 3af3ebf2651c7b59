// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// GetTriggeredGTTOrders: the operation table's getTriggeredGttOrders on the shared gateway stack.
import { createGatewayStack } from '../orders/gateway/gateway-handler.js';
import { getTriggeredGttOrders } from '../orders/operations.js';

export const handler = createGatewayStack(getTriggeredGttOrders, { prefetchSession: true });
