// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// Logout: the operation table's logout on the shared gateway stack.
import { createGatewayStack } from '../orders/gateway/gateway-handler.js';
import { logout } from '../orders/operations.js';
import { dynamoTradingControls } from '../orders/safety/trading-controls.js';

export const handler = createGatewayStack(logout, { controls: dynamoTradingControls, prefetchSession: true });
