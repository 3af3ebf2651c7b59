// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// GetGTTOrder: the operation table's getGttOrder on the shared gateway stack.
import { createGatewayHandler } from '../gateway/gateway-handler.js';
import { getGttOrder } from '../operations.js';

export const handler = createGatewayHandler(getGttOrder, { prefetchSession: true });
