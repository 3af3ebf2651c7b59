/**
 * The broker's operations on a session's account, by name: each operation of wire/routing.ts that needs a session
 * goes to its function in this room (the login operations are the login room's).
 */
import type { Json } from '../state/orders.js';
import type { Account } from '../state/state.js';
import type { OperationContext } from '../state/switches.js';
import type { EmulatorReply } from '../wire/reply.js';
import type { BrokerOperation, EmulatorRequest } from '../wire/routing.js';
import {
  clientDetails,
  getQuotes,
  logout,
  orderBook,
  positionBook,
  searchScrip,
  securityInfo,
  singleOrderHistory,
} from './account-operations.js';
import {
  cancel,
  getEnabledGtts,
  getPendingGtts,
  getTriggered,
  modifyGtt,
  modifyOco,
  placeGtt,
  placeOco,
} from './gtt-operations.js';
import { timePriceSeries } from './market-moves.js';
import { placeOrder } from './order-operations.js';

/** The reply of a session's operation (a Refusal thrown for input it cannot take). */
export const runOperation = (
  ctx: OperationContext,
  operation: Exclude<BrokerOperation, 'GenAcsTok' | 'QuickAuth'>,
  fields: Json,
  account: Account,
  req: EmulatorRequest,
  token: string,
): EmulatorReply => {
  switch (operation) {
    case 'PlaceGTTOrder':
      return placeGtt(ctx, fields, account, req);
    case 'PlaceOrder':
      return placeOrder(ctx, fields, account);
    case 'GetPendingGTTOrder':
      return getPendingGtts(ctx, account);
    case 'GetEnabledGTTs':
      return getEnabledGtts(ctx);
    case 'ModifyGTTOrder':
      return modifyGtt(ctx, fields, account, req);
    case 'CancelGTTOrder':
    case 'CancelOCOOrder':
      return cancel(ctx, fields, account);
    case 'PlaceOCOOrder':
      return placeOco(ctx, fields, account, req);
    case 'ModifyOCOOrder':
      return modifyOco(ctx, fields, account, req);
    case 'GetTrgOi':
      return getTriggered(ctx, fields, account);
    case 'OrderBook':
      return orderBook(ctx, account);
    case 'PositionBook':
      return positionBook(ctx, account);
    case 'SingleOrdHist':
      return singleOrderHistory(ctx, fields, account);
    case 'SearchScrip':
      return searchScrip(ctx, fields);
    case 'GetQuotes':
      return getQuotes(ctx, fields);
    case 'GetSecurityInfo':
      return securityInfo(ctx, fields);
    case 'TPSeries':
      return timePriceSeries(ctx, fields);
    case 'ClientDetails':
      return clientDetails(ctx, fields, account);
    case 'Logout':
      return logout(ctx, token);
  }
};
