// Lambda entry point: binds the operation table's placeOcoOrder entry to the shared gateway stack, with idempotency keys and lifecycle events.
import { dynamoIdempotency } from '../safety/idempotency.js';
import { createGatewayEvents } from '../events/producer.js';
import { createGatewayHandler } from '../gateway.js';
import { placeOcoOrder } from '../operations.js';

export const handler = createGatewayHandler(placeOcoOrder, { idempotency: dynamoIdempotency, events: createGatewayEvents, prefetchSession: true });
