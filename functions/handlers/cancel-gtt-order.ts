// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// CancelGTTOrder: the operation table's cancelGttOrder on the shared gateway stack.
import { createOutboxEvents } from '../events/core/outbox-events.js';
import { dynamoLeases } from '../orders/gateway/collaborators.js';
import { createGatewayStack } from '../orders/gateway/gateway-handler.js';
import { dynamoJournal } from '../orders/journal-factory.js';
import { cancelGttOrder } from '../orders/operations.js';
import { dynamoTradingControls } from '../orders/safety/trading-controls.js';

export const handler = createGatewayStack(cancelGttOrder, {
  journal: dynamoJournal,
  events: createOutboxEvents,
  controls: dynamoTradingControls,
  leases: dynamoLeases,
  prefetchSession: true,
});
