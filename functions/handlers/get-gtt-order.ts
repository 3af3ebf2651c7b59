// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// GetGTTOrder: the operation table's getGttOrder on the shared gateway stack.
import { dynamoOrderCopy } from '../orders/gateway/collaborators.js';
import { createGatewayStack } from '../orders/gateway/gateway-handler.js';
import { getGttOrder } from '../orders/operations.js';

export const handler = createGatewayStack(getGttOrder, { copy: dynamoOrderCopy, prefetchSession: true });
