/**
 * Calls one operation at the broker: builds the wire request from validated input and the session, sends it
 * once, and decodes the reply. A `Session Expired` answer means the broker did not execute the call, so after
 * re-reading the secret the call is repeated once if (and only if) the token was rotated meanwhile.
 */
import {
  BrokerTimeoutError,
  BrokerUnavailableError,
  GatewayError,
  type Outcome,
  SessionExpiredError,
} from '../contract/errors.js';
import type { AnyOperation } from '../contract/operation.js';
import { redactDeep, redactThrown } from '../contract/redact.js';
import { type BrokerAuth, buildBrokerRequest } from './jdata.js';
import { fromSnapshot, heldPage, snapshotOf } from './page-snapshots.js';
import { decodeBrokerReply, type ListDecoder, listDecoder } from './reply.js';
import type { BrokerSession } from './session.js';
import { postToBroker, TransportFailure } from './transport.js';

export interface BrokerCallDeps {
  baseUrl: string;
  auth?: BrokerAuth;
  /** Per attempt: the configured timeout, capped by what is left of the invocation. */
  timeoutMs: () => number;
  session: () => Promise<BrokerSession>;
  refreshSession: () => Promise<BrokerSession>;
  /** The exchange algo id order jData carries (the deployment's `algoId`), when the deployment sets one. */
  algoId?: string;
  /** The journaled write's stamp (order-stamps.ts), carried in the order's remarks. */
  stamp?: string;
  /** A list's own decoder (the GttWatcher's: records compared as they arrive); by default the operation's. */
  list?: () => ListDecoder;
}

export interface BrokerCallResult {
  result: unknown;
  /** How many HTTP requests were sent (2 after a rotated-token retry). */
  attempts: number;
}

const transportError = (failure: TransportFailure): GatewayError => {
  const options = { cause: failure, details: { transport: failure.kind } };
  if (failure.kind === 'timeout') return new BrokerTimeoutError(failure.message, options);
  const error = new BrokerUnavailableError(failure.message, options);
  if (!failure.requestMayHaveArrived) error.outcome = 'not_executed';
  return error;
};

export const sendOnce = async (
  operation: AnyOperation,
  input: unknown,
  session: BrokerSession,
  deps: Pick<BrokerCallDeps, 'baseUrl' | 'auth' | 'timeoutMs' | 'algoId' | 'stamp' | 'list'>,
) => {
  if (!deps.list) {
    const held = pageFromSnapshot(operation, input, session);
    if (held !== undefined) return held;
  }
  const request = buildBrokerRequest(
    deps.baseUrl,
    operation.broker,
    operation.toJData(input as never, session, {
      ...(deps.algoId ? { algoId: deps.algoId } : {}),
      ...(deps.stamp ? { stamp: deps.stamp } : {}),
    }),
    session.accessToken,
    deps.auth,
  );
  // A list is decoded record by record as it arrives (reply.ts); anything else as one text. A page read keeps the
  // list for its walk's next pages (page-snapshots.ts).
  const list = deps.list ? deps.list() : listDecoder(operation, input);
  const snapshot = deps.list || !list ? undefined : snapshotOf(operation, input, session);
  let reply;
  try {
    const sink = list && snapshot ? snapshot.sink(list.onRecord) : list?.onRecord;
    reply = await postToBroker(request, deps.timeoutMs(), sink, list?.textless, list?.unparsed);
  } catch (error) {
    throw redactThrown(error instanceof TransportFailure ? transportError(error) : error);
  }
  // What the broker (or a proxy in front of it) answered may quote the request: no token goes further, whether the
  // answer becomes an error (brokerMessage, bodyStart) or a result (stored for replays, published in events).
  try {
    const result = decodeBrokerReply(operation, reply, input, list);
    return redactDeep(snapshot ? snapshot.keep(result) : result);
  } catch (error) {
    throw redactThrown(error);
  }
};

/** A later page of a walk, cut from the snapshot its first page kept, when this container holds it; else undefined. */
const pageFromSnapshot = (operation: AnyOperation, input: unknown, session: BrokerSession): unknown => {
  const page = heldPage(operation, input, session);
  const list = page && listDecoder(operation, input);
  if (!page || !list) return undefined;
  for (const { record, index, text } of page.records) list.onRecord(record, index, text);
  const reply = { status: 200, contentType: 'application/json', text: '', records: page.records.length };
  try {
    return redactDeep(fromSnapshot(page, decodeBrokerReply(operation, reply, input, list)));
  } catch (error) {
    throw redactThrown(error);
  }
};

/** What the order operation does, from the event its entry publishes (`GTT Placed` -> placed). */
const verbOf = (operation: AnyOperation): string =>
  operation.lifecycle?.detailType.replace(/^GTT /, '').toLowerCase() ?? 'executed';

/**
 * For operations that change something at the broker (orders, and the session: logout), say whether the broker may
 * have acted. Errors where the request may have arrived but no usable answer came back leave the outcome unknown:
 * a blind retry could place a second order. Reads change nothing and carry no outcome.
 */
export const annotateOutcome = (operation: AnyOperation, error: GatewayError): GatewayError => {
  if (operation.kind === 'read' || error.outcome !== undefined) return error;
  const unknown =
    error.code === 'BROKER_TIMEOUT' || error.code === 'BROKER_UNAVAILABLE' || error.code === 'BROKER_BAD_REPLY';
  const outcome: Outcome = unknown ? 'unknown' : 'not_executed';
  error.outcome = outcome;
  if (unknown && operation.kind === 'order') {
    const verb = verbOf(operation);
    // A plain order (PlaceOrder) is in the day's order book, a GTT in the pending list.
    const where =
      operation.broker === 'PlaceOrder' ? "the day's orders (GET /orders)" : 'the pending orders (GET /gtt-orders)';
    error.message =
      `${error.message} The order may or may not have been ${verb}: check ${where} ` +
      'before retrying, or a retry may act twice.';
  } else if (unknown) {
    error.message =
      `${error.message} ${operation.name} may or may not have taken effect at the broker: check the session before ` +
      'relying on it (after a logout, every call answers SESSION_EXPIRED).';
  }
  return error;
};

export const callBroker = async (
  operation: AnyOperation,
  input: unknown,
  deps: BrokerCallDeps,
): Promise<BrokerCallResult> => {
  const session = await deps.session();
  try {
    return { result: await sendOnce(operation, input, session, deps), attempts: 1 };
  } catch (error) {
    if (!(error instanceof SessionExpiredError)) throw annotate(operation, error);
    let fresh: BrokerSession;
    try {
      // SESSION_EXPIRED without a second call when the secret was marked logged out meanwhile.
      fresh = await deps.refreshSession();
    } catch (refreshError) {
      // Logged out: say so, with what the broker said of the token this container still held.
      const loggedOut =
        refreshError instanceof SessionExpiredError
          ? new SessionExpiredError(refreshError.message, { brokerMessage: error.brokerMessage, cause: refreshError })
          : refreshError;
      throw annotate(operation, loggedOut);
    }
    if (fresh.accessToken === session.accessToken) {
      throw annotate(
        operation,
        new SessionExpiredError(
          'The broker session has expired and the secret still holds the same access token: store a fresh token in the secret.',
          { brokerMessage: error.brokerMessage, outcome: operation.kind === 'read' ? undefined : 'not_executed' },
        ),
      );
    }
    try {
      return { result: await sendOnce(operation, input, fresh, deps), attempts: 2 };
    } catch (retryError) {
      throw annotate(operation, retryError);
    }
  }
};

export const annotate = (operation: AnyOperation, error: unknown): unknown =>
  error instanceof GatewayError ? annotateOutcome(operation, error) : error;
