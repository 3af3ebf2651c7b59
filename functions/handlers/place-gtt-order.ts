// Lambda entry point: binds the operation table's placeGttOrder entry to the shared gateway stack, with idempotency keys, lifecycle events and the trading controls (order-rate governor, kill switch).
import { createGatewayEvents } from '../events/producer.js';
import { createGatewayHandler } from '../gateway.js';
import { placeGttOrder } from '../operations.js';
import { dynamoIdempotency } from '../safety/idempotency.js';
import { dynamoTradingControls } from '../safety/trading-controls.js';

export const handler = createGatewayHandler(placeGttOrder, {
  idempotency: dynamoIdempotency,
  events: createGatewayEvents,
  controls: dynamoTradingControls,
  prefetchSession: true,
});
