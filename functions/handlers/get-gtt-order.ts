// Lambda entry point: binds the operation table's getGttOrder entry to the shared gateway stack.
import { createGatewayHandler } from '../gateway.js';
import { getGttOrder } from '../operations.js';

export const handler = createGatewayHandler(getGttOrder, { prefetchSession: true });
