// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// GetQuote: the operation table's getQuote on the shared gateway stack.
import { createQuoteStack } from '../orders/gateway/quote-stack.js';
import { dynamoInstrumentCopy } from '../orders/instruments/copy.js';
import { getQuote } from '../orders/operations.js';

export const handler = createQuoteStack(getQuote, { instruments: dynamoInstrumentCopy, prefetchSession: true });
