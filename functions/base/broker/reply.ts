/**
 * Turns what the broker answered into the operation's result or one GatewayError. Every broker text the gateway
 * recognises is matched here and nowhere else.
 *
 * A list (an operation whose reply schema is an array) is decoded record by record as the transport reads it
 * (`listDecoder`): each record is read in its dialect and checked by the record schema on arrival, so the reply's
 * text, its parsed copy and the checked records never exist whole at once.
 */
import * as z from 'zod';

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
import { oneRecordDecoder } from './one-record.js';
import { isPageRead, PageRecords } from './page-records.js';
import type { BrokerHttpReply, RecordSink } from './transport.js';

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
  // The broker's words are in `brokerMessage` only: the message is the gateway's own sentence.
  return new BrokerRejectedError('The broker refused the request (Not_Ok); its own words are in brokerMessage.', {
    brokerMessage,
  });
};

type Issue = { path: string; message: string };

/** A list's records as they arrived, each checked on arrival; the first issues of those that failed. */
export interface ListDecoder {
  onRecord: RecordSink;
  records: unknown[];
  issues: Issue[];
  /**
   * The result of a list that arrived as an array and whose records all passed (a decoder of its own, such as the
   * GttWatcher's, that keeps what it needs as the records arrive); without it, `toResult` of `records`.
   */
  finish?: () => unknown;
  /** The sink does not read the records' texts (the transport may then parse a small list whole). */
  textless?: true;
  /** The sink takes the records' bytes only and decodes those it needs (the GttWatcher's). */
  unparsed?: true;
}

/** The schema of one record of an operation's list reply; undefined when its reply is not a list. */
const recordSchemaOf = (operation: AnyOperation): z.ZodType | undefined => {
  let schema: unknown = operation.reply;
  if (schema instanceof z.ZodLazy) schema = schema.unwrap();
  return schema instanceof z.ZodArray ? (schema.element as z.ZodType) : undefined;
};

/**
 * A record sink for an operation whose reply is a list, or undefined: then the reply is read as one text. A read of
 * one page (`limit` in the input) keeps and decodes only the page's records (page-records.ts), a read of one order
 * only that order's (one-record.ts).
 */
export const listDecoder = (operation: AnyOperation, input?: unknown): ListDecoder | undefined => {
  const schema = recordSchemaOf(operation);
  if (!schema) return undefined;
  if (isPageRead(input)) return pageDecoder(operation, schema, input);
  // The one-order read: only that order's records are decoded (one-record.ts).
  const alId = operation.oneRecord?.(input);
  return typeof alId === 'string' ? oneRecordDecoder(operation, schema, input, alId) : recordDecoder(schema);
};

const pageDecoder = (operation: AnyOperation, schema: z.ZodType, input: unknown): ListDecoder => {
  const page = new PageRecords(input as ConstructorParameters<typeof PageRecords>[0]);
  let unplaced: { record: unknown; index: number } | undefined;
  return {
    records: [],
    issues: [],
    textless: true,
    onRecord: (record, index) => {
      const before = page.unplaced;
      page.offer(record, index);
      if (page.unplaced > before) unplaced ??= { record, index };
    },
    finish: () => {
      const issues: Issue[] = [];
      const records: unknown[] = [];
      // A record without a usable al_id cannot be placed in the order: every page fails on it, with its issues.
      if (unplaced) unplacedIssues(schema, unplaced, issues);
      if (!issues.length) {
        page.records().forEach((record, i) => {
          const checked = checkRecord(schema, record, i, issues);
          if (checked.ok) records.push(checked.data);
        });
      }
      if (issues.length) throw badShape(operation, 200, issues);
      return operation.toResult(records, input);
    },
  };
};

/** A reply not in the operation's documented shape: BROKER_BAD_REPLY with the issues found (the first ten). */
export const badShape = (operation: AnyOperation, httpStatus: number, issues: readonly Issue[]): BrokerBadReplyError =>
  new BrokerBadReplyError(`The broker's ${operation.broker} reply does not have the documented shape.`, {
    details: { httpStatus, issues },
  });

/**
 * A record without a usable al_id (it could be any order's, so no page and no one-order read can leave it out): its
 * own issues, or, if it is otherwise well formed, that it has no al_id.
 */
export const unplacedIssues = (schema: z.ZodType, unplaced: { record: unknown; index: number }, issues: Issue[]) => {
  checkRecord(schema, unplaced.record, unplaced.index, issues);
  if (!issues.length) issues.push({ path: `${unplaced.index}.al_id`, message: 'no al_id' });
};

/** Reads one record in its dialect and checks it; the first issues of a failed one are kept (path from `index`). */
export const checkRecord = (
  schema: z.ZodType,
  record: unknown,
  index: number,
  issues: Issue[],
): { ok: true; data: unknown } | { ok: false } => {
  const parsed = schema.safeParse(toCanonicalDialect(record));
  if (parsed.success) return { ok: true, data: parsed.data };
  for (const i of parsed.error.issues) {
    if (issues.length < 10) issues.push({ path: [index, ...i.path].join('.'), message: i.message });
  }
  return { ok: false };
};

/** The schema of one record of a list operation's reply (the operation must have a list reply). */
export const recordSchema = (operation: AnyOperation): z.ZodType => {
  const schema = recordSchemaOf(operation);
  if (!schema) throw new Error(`${operation.name} has no list reply`);
  return schema;
};

const recordDecoder = (schema: z.ZodType): ListDecoder => {
  const decoder: ListDecoder = {
    records: [],
    issues: [],
    textless: true,
    onRecord: (record, index) => {
      // Once one record failed, the reply fails: the rest are only looked at for the first issues.
      const checked = checkRecord(schema, record, index, decoder.issues);
      if (checked.ok) {
        if (!decoder.issues.length) decoder.records.push(checked.data);
        return;
      }
      decoder.records = [];
    },
  };
  return decoder;
};

export const decodeBrokerReply = (
  operation: AnyOperation,
  reply: BrokerHttpReply,
  input: unknown,
  list?: ListDecoder,
): unknown => {
  if (reply.records !== undefined && list) return decodeList(operation, reply, input, list);
  let json: unknown;
  try {
    if (reply.notJson) throw new Error('not JSON');
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
    // The text alone, or quoted after an error number as ShoonyaApi-py's samples show it: `Error Occurred : 5 "no data"`.
    const text = emsg.trim().toLowerCase();
    const empty = operation.emptyReply?.emsg;
    if (operation.emptyReply && (text === empty || new RegExp(`^error occurred : \\d+ "${empty}"$`).test(text))) {
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
    throw badShape(
      operation,
      reply.status,
      parsed.error.issues.slice(0, 10).map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  }
  return operation.toResult(parsed.data, input);
};

/** A list read record by record: every record was checked on arrival. */
const decodeList = (operation: AnyOperation, reply: BrokerHttpReply, input: unknown, list: ListDecoder): unknown => {
  if (reply.status >= 500) {
    throw new BrokerUnavailableError(`The broker answered HTTP ${reply.status}.`, {
      details: { httpStatus: reply.status },
    });
  }
  if (list.issues.length) throw badShape(operation, reply.status, list.issues);
  return list.finish ? list.finish() : operation.toResult(list.records, input);
};
