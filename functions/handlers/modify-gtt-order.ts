// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// ModifyGTTOrder: the operation table's modifyGttOrder on the shared gateway stack.
import { createOutboxEvents } from '../events/core/outbox-events.js';
import { dynamoLeases } from '../orders/gateway/collaborators.js';
import { createGatewayStack } from '../orders/gateway/gateway-handler.js';
import { dynamoInstrumentCopy } from '../orders/instruments/copy.js';
import { dynamoJournal } from '../orders/journal-factory.js';
import { modifyGttOrder } from '../orders/operations.js';
import { dynamoTradingControls } from '../orders/safety/trading-controls.js';

export const handler = createGatewayStack(modifyGttOrder, {
  journal: dynamoJournal,
  events: createOutboxEvents,
  controls: dynamoTradingControls,
  leases: dynamoLeases,
  instruments: dynamoInstrumentCopy,
  prefetchSession: true,
});
