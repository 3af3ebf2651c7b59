// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// GetPositions: the operation table's getPositions on the shared gateway stack.
import { createGatewayStack } from '../orders/gateway/gateway-handler.js';
import { getPositions } from '../orders/operations.js';

export const handler = createGatewayStack(getPositions, { prefetchSession: true });
