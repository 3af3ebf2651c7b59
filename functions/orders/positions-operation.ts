/**
 * GET /positions: the account's positions of the day with their realised and unrealised P&L, one entry of the
 * operation table beside GetOrderBook (operations.ts), read from the broker's `PositionBook`.
 */
import { positionsJData, positionsResultOf } from '../base/broker/positions.js';
import { defineOperation } from '../base/contract/operation.js';
import { noInput } from '../base/schemas/input.js';
import { positionsReply, positionsResult } from '../base/schemas/positions.js';

export const getPositions = defineOperation({
  name: 'GetPositions',
  broker: 'PositionBook',
  id: 'get-positions',
  summary:
    "The account's positions of the day: net quantity, average price, last price, realised and unrealised P&L, and the totals",
  route: { method: 'GET', path: '/positions' },
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  input: noInput,
  example: {},
  toJData: positionsJData,
  reply: positionsReply,
  toResult: positionsResultOf,
  result: positionsResult,
  // `no data`: no position today.
  emptyReply: { emsg: 'no data', reply: [] },
});
