/**
 * `POST /positions/close` (docs/how-to/close-a-position.md): what a caller asks (one position, by exchange, symbol
 * and product, and at most its whole quantity) and what it answers (the one protected limit order placed through
 * the order core's plain PlaceOrder to reduce it).
 */
import './zod-config.js';

import * as z from 'zod';

import { enumOf, EXCHANGES, quantity, tradingSymbol } from './fields.js';
import { plainProduct } from './plain-order.js';
import { memo } from './values.js';

export const closeInput = z.lazy(() =>
  z.strictObject({
    exch: enumOf('exch', EXCHANGES),
    tsym: tradingSymbol(),
    prd: plainProduct().describe("the position's product: C, M or I (CNC, NRML, MIS)"),
    qty: quantity().optional().describe('how much to close; absent: the whole position (|netQty|)'),
  }),
);
export type CloseInput = z.output<typeof closeInput>;

const closeResultSchema = memo(() =>
  z.object({
    norenordno: z.string().describe("the broker's order number of the closing order"),
    exch: z.string(),
    tsym: z.string(),
    prd: z.string(),
    trantype: z.enum(['B', 'S']).describe('S closes a long, B a short'),
    qty: z.number().describe('the quantity the order closes'),
    prc: z.string().describe('the protected limit: the last price less (a sell) or plus (a buy) the band, on the tick'),
    netQty: z.number().describe('the net quantity the close was decided on'),
    lastPrice: z.number().describe('the last price the limit was priced from'),
    outcome: z
      .enum(['placed', 'replayed', 'adopted'])
      .describe(
        'placed now; replayed: this key placed it before; adopted: an earlier attempt whose reply was lost, found in the order book',
      ),
  }),
);
export const closeResult = z.lazy(closeResultSchema);
export type CloseResult = z.output<ReturnType<typeof closeResultSchema>>;
