// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// PlaceGTTOrder: the operation table's placeGttOrder on the shared gateway stack.
import { createOutboxEvents } from '../events/outbox-events.js';
import { createGatewayStack } from '../gateway/gateway-handler.js';
import { dynamoInstrumentCopy } from '../instruments/copy.js';
import { placeGttOrder } from '../operations.js';
import { dynamoIdempotency } from '../orders/journal-factory.js';
import { dynamoTradingControls } from '../safety/trading-controls.js';

export const handler = createGatewayStack(placeGttOrder, {
  idempotency: dynamoIdempotency,
  events: createOutboxEvents,
  controls: dynamoTradingControls,
  instruments: dynamoInstrumentCopy,
  prefetchSession: true,
});
