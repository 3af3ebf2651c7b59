// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// GetSeries: the operation table's getSeries on the shared gateway stack.
import { createGatewayStack } from '../orders/gateway/gateway-handler.js';
import { dynamoInstrumentCopy } from '../orders/instruments/copy.js';
import { getSeries } from '../orders/operations.js';

export const handler = createGatewayStack(getSeries, { instruments: dynamoInstrumentCopy, prefetchSession: true });
