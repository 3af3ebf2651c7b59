// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// PlaceOCOOrder: the operation table's placeOcoOrder on the shared gateway stack.
import { createGatewayEvents } from '../events/producer.js';
import { createGatewayHandler } from '../gateway/gateway-handler.js';
import { dynamoInstrumentCopy } from '../instruments/copy.js';
import { placeOcoOrder } from '../operations.js';
import { dynamoIdempotency } from '../orders/journal-factory.js';
import { dynamoTradingControls } from '../safety/trading-controls.js';

export const handler = createGatewayHandler(placeOcoOrder, {
  idempotency: dynamoIdempotency,
  events: createGatewayEvents,
  controls: dynamoTradingControls,
  instruments: dynamoInstrumentCopy,
  prefetchSession: true,
});
