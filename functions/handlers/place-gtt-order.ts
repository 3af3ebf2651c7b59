// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// PlaceGTTOrder: the operation table's placeGttOrder on the shared gateway stack.
import { createOutboxEvents } from '../events/core/outbox-events.js';
import { createGatewayStack } from '../orders/gateway/gateway-handler.js';
import { dynamoInstrumentCopy } from '../orders/instruments/copy.js';
import { dynamoJournal } from '../orders/journal-factory.js';
import { placeGttOrder } from '../orders/operations.js';
import { dynamoTradingControls } from '../orders/safety/trading-controls.js';

export const handler = createGatewayStack(placeGttOrder, {
  journal: dynamoJournal,
  events: createOutboxEvents,
  controls: dynamoTradingControls,
  instruments: dynamoInstrumentCopy,
  prefetchSession: true,
});
