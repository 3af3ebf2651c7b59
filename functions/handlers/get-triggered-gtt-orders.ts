// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// GetTriggeredGTTOrders: the operation table's getTriggeredGttOrders on the shared gateway stack.
import { createGatewayHandler } from '../gateway/gateway-handler.js';
import { getTriggeredGttOrders } from '../operations.js';

export const handler = createGatewayHandler(getTriggeredGttOrders, { prefetchSession: true });
