// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// PatchGTTOrder: the operation table's patchGttOrder on the shared gateway stack.
import { createOutboxEvents } from '../events/outbox-events.js';
import { createGatewayStack, dynamoLeases } from '../gateway/gateway-handler.js';
import { dynamoInstrumentCopy } from '../instruments/copy.js';
import { patchGttOrder } from '../operations.js';
import { dynamoIdempotency } from '../orders/journal-factory.js';
import { dynamoTradingControls } from '../safety/trading-controls.js';

export const handler = createGatewayStack(patchGttOrder, {
  idempotency: dynamoIdempotency,
  events: createOutboxEvents,
  controls: dynamoTradingControls,
  leases: dynamoLeases,
  instruments: dynamoInstrumentCopy,
  prefetchSession: true,
});
