// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// ClientDetails: the operation table's clientDetails on the shared gateway stack.
import { createGatewayStack } from '../orders/gateway/gateway-handler.js';
import { clientDetails } from '../orders/operations.js';

export const handler = createGatewayStack(clientDetails, { prefetchSession: true });
