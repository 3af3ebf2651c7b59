// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// GetOrderBook: the operation table's getOrderBook on the shared gateway stack.
import { createGatewayStack } from '../orders/gateway/gateway-handler.js';
import { getOrderBook } from '../orders/operations.js';

export const handler = createGatewayStack(getOrderBook, { prefetchSession: true });
