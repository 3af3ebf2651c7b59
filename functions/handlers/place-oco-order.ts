// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// PlaceOCOOrder: the operation table's placeOcoOrder on the shared gateway stack.
import { createOutboxEvents } from '../events/core/outbox-events.js';
import { dynamoLeases } from '../orders/gateway/collaborators.js';
import { createGatewayStack } from '../orders/gateway/gateway-handler.js';
import { dynamoInstrumentCopy } from '../orders/instruments/copy.js';
import { dynamoJournal } from '../orders/journal-factory.js';
import { placeOcoOrder } from '../orders/operations.js';
import { dynamoTradingControls } from '../orders/safety/trading-controls.js';

export const handler = createGatewayStack(placeOcoOrder, {
  journal: dynamoJournal,
  events: createOutboxEvents,
  controls: dynamoTradingControls,
  leases: dynamoLeases,
  instruments: dynamoInstrumentCopy,
  prefetchSession: true,
});
