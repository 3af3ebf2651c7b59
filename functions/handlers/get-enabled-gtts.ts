// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// GetEnabledGTTs: the operation table's getEnabledGtts on the shared gateway stack.
import { createGatewayStack } from '../orders/gateway/gateway-handler.js';
import { getEnabledGtts } from '../orders/operations.js';

export const handler = createGatewayStack(getEnabledGtts, { prefetchSession: true });
