// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// CancelGTTOrder: the operation table's cancelGttOrder on the shared gateway stack.
import { createGatewayEvents } from '../events/producer.js';
import { createGatewayHandler } from '../gateway/gateway-handler.js';
import { cancelGttOrder } from '../operations.js';
import { dynamoIdempotency } from '../orders/journal-factory.js';
import { dynamoTradingControls } from '../safety/trading-controls.js';

export const handler = createGatewayHandler(cancelGttOrder, {
  idempotency: dynamoIdempotency,
  events: createGatewayEvents,
  controls: dynamoTradingControls,
  prefetchSession: true,
});
