// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// GetPendingGTTOrder: the operation table's getPendingGttOrders on the shared gateway stack.
import { createGatewayStack } from '../orders/gateway/gateway-handler.js';
import { getPendingGttOrders } from '../orders/operations.js';

export const handler = createGatewayStack(getPendingGttOrders, { prefetchSession: true });
