/**
 * Turns what the broker answered into the operation's result or one GatewayError. Every broker text the gateway
 * recognises is matched here and nowhere else.
 */
import {
  BrokerBadReplyError,
  BrokerRejectedError,
  BrokerTimeoutError,
  BrokerUnavailableError,
  type GatewayError,
  OrderNotFoundError,
  RateLimitedError,
  SessionExpiredError,
} from '../contract/errors.js';
import type { AnyOperation } from '../contract/operation.js';
import { isRecord } from '../schemas/values.js';
import { INVALID_OI, toCanonicalDialect } from './dialects.js';
import type { BrokerHttpReply } from './transport.js';

/** Classify a broker failure text (`emsg` of a Not_Ok reply, or a non-Ok `stat`). */
export const classifyBrokerFailure = (text: string): GatewayError => {
  const brokerMessage = text;
  if (/^Session Expired\s*:/i.test(text)) {
    return new SessionExpiredError('The broker session has expired or is invalid; the request was not executed.', {
      brokerMessage,
    });
  }
  if (/^Server Timeout\s*:/i.test(text)) {
    return new BrokerTimeoutError('The broker reported a server timeout.', { brokerMessage });
  }
  // e.g. "Order Recieved 11 in a current second exceeds Limit 10" (the broker's spelling).
  if (/exceeds\s+limit|rate\s*limit|too many requests/i.test(text)) {
    return new RateLimitedError('The broker rejected the request for exceeding its rate limit; it was not executed.', {
      brokerMessage,
    });
  }
  if (/^Invalid Oi\b/i.test(text)) {
    return new OrderNotFoundError('The broker has no pending GTT order with this al_id.', { brokerMessage });
  }
  return new BrokerRejectedError(`The broker rejected the request: ${text}`, { brokerMessage });
};

export const decodeBrokerReply = (operation: AnyOperation, reply: BrokerHttpReply, input: unknown): unknown => {
  let json: unknown;
  try {
    // Read in any dialect of the family (dialects.ts), then checked by the strict schema of the canonical one.
    json = toCanonicalDialect(JSON.parse(reply.text));
  } catch {
    if (reply.status >= 500) {
      throw new BrokerUnavailableError(`The broker answered HTTP ${reply.status}.`, {
        details: { httpStatus: reply.status },
      });
    }
    throw new BrokerBadReplyError(`The broker answered HTTP ${reply.status} with a body that is not JSON.`, {
      details: { httpStatus: reply.status, contentType: reply.contentType, bodyStart: reply.text.slice(0, 120) },
    });
  }

  // Brokers of this family may send Not_Ok with a 4xx status: the body decides, whatever the status.
  if (isRecord(json) && json.stat === 'Not_Ok') {
    const emsg = typeof json.emsg === 'string' ? json.emsg : '';
    if (operation.emptyReply && emsg.trim().toLowerCase() === operation.emptyReply.emsg) {
      return operation.toResult(operation.emptyReply.reply, input);
    }
    throw classifyBrokerFailure(emsg || 'Not_Ok without emsg');
  }
  if (reply.status >= 500) {
    throw new BrokerUnavailableError(`The broker answered HTTP ${reply.status}.`, {
      details: { httpStatus: reply.status },
    });
  }
  if (isRecord(json) && json.stat === INVALID_OI) {
    throw classifyBrokerFailure(INVALID_OI);
  }

  const parsed = operation.reply.safeParse(json);
  if (!parsed.success) {
    throw new BrokerBadReplyError(`The broker's ${operation.broker} reply does not have the documented shape.`, {
      details: {
        httpStatus: reply.status,
        issues: parsed.error.issues.slice(0, 10).map((i) => ({ path: i.path.join('.'), message: i.message })),
      },
    });
  }
  return operation.toResult(parsed.data, input);
};
