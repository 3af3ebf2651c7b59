// Lambda entry point: binds the operation table's modifyOcoOrder entry to the shared gateway stack, with idempotency keys, lifecycle events and the trading controls (order-rate governor, kill switch).
import { createGatewayEvents } from '../events/producer.js';
import { createGatewayHandler } from '../gateway.js';
import { modifyOcoOrder } from '../operations.js';
import { dynamoIdempotency } from '../safety/idempotency.js';
import { dynamoTradingControls } from '../safety/trading-controls.js';

export const handler = createGatewayHandler(modifyOcoOrder, {
  idempotency: dynamoIdempotency,
  events: createGatewayEvents,
  controls: dynamoTradingControls,
  prefetchSession: true,
});
