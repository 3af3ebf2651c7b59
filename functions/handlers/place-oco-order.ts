// Lambda entry point: binds the operation table's placeOcoOrder entry to the shared gateway stack, with idempotency keys.
import { dynamoIdempotency } from '../safety/idempotency.js';
import { createGatewayHandler } from '../gateway.js';
import { placeOcoOrder } from '../operations.js';

export const handler = createGatewayHandler(placeOcoOrder, { idempotency: dynamoIdempotency, prefetchSession: true });
