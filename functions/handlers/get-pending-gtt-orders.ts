// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// GetPendingGTTOrder: the operation table's getPendingGttOrders on the shared gateway stack.
import { createGatewayStack } from '../gateway/gateway-handler.js';
import { getPendingGttOrders } from '../operations.js';

export const handler = createGatewayStack(getPendingGttOrders, { prefetchSession: true });
