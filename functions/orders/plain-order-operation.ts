/**
 * PlaceOrder: the family's plain order (a regular exchange order, not a GTT), one entry of the operation table
 * beside the GTT writes (operations.ts), journaled and stamped like them: its idempotency key is required, its stamp
 * travels in `remarks`, and a write whose outcome is unknown is settled by reading the broker's OrderBook for the
 * stamp (books.ts), never sent twice. The exchange's rules (tick, lot, band, freeze), the guardrails and the
 * governor's permit apply as to every order write.
 *
 * In-process only: no function's definition lists it (definitions.ts `OPERATION_FUNCTIONS`), so it has no route,
 * no Lambda and no OpenAPI entry; `route` below is the table's required shape, never served. Its callers, through
 * `placeExitOrder` (plain-order.ts): the day's-limit square-off and `POST /positions/close` (functions/risk/close.ts),
 * which only ever reduces. The kill switch refuses it unless the order is an exit (`exit: true`):
 * docs/explanation/order-safety.md, "Plain orders".
 */
import { plainOrderJData } from '../base/broker/order-jdata.js';
import { defineOperation } from '../base/contract/operation.js';
import { EXAMPLE_ORDER } from '../base/schemas/examples.js';
import { plainOrderInput, plainOrderReply } from '../base/schemas/plain-order.js';

export const placeOrder = defineOperation({
  name: 'PlaceOrder',
  broker: 'PlaceOrder',
  id: 'place-order',
  summary: 'Place a regular limit order at the exchange (in-process only: a square-off or a close of a position)',
  // Not served (module comment): the entry is in no function's definition.
  route: { method: 'POST', path: '/orders' },
  successStatus: 201,
  kind: 'order',
  retrySafe: false,
  idempotency: 'required',
  refusedWhileHalted: true,
  haltExempt: (input) => input.exit,
  // The guardrails see it as an order whose reference price is its own limit.
  guardedOrders: (input) => [
    { exch: input.exch, tsym: input.tsym, qty: input.qty, prc: input.prc, prd: input.prd, prctyp: 'LMT', d: input.prc },
  ],
  input: plainOrderInput,
  example: {
    exch: EXAMPLE_ORDER.exch,
    tsym: EXAMPLE_ORDER.tsym,
    trantype: 'S',
    qty: 1,
    prc: '1495',
    prd: 'C',
    prctyp: 'LMT',
    exit: true,
  },
  toJData: plainOrderJData,
  reply: plainOrderReply,
});
