/**
 * The broker's GTT service (docs/broker-wire.md), with the OCO, triggered-history and login extensions of
 * docs/emulator-extensions.md, as request -> reply logic with no sockets, so tests can call it directly and the
 * listener (server.ts) stays small. Synchronous on purpose: Node runs it to completion per request, so concurrent
 * clients can never interleave between reading and writing state.
 */
import { compactRequestTime, instrumentToken, requestTime } from './formats.js';
import { OrderBook, type NextOutcome } from './order-book.js';
import { FAULT_KINDS, FaultBook, type Fault, type FaultKind } from './faults.js';
import { checkOco, ocoDirections, ocoFiringLeg } from './oco.js';
import { isListedSymbol, searchListed, UNKNOWN_SYMBOL_REASON } from './symbols.js';
import { OCO_ALERT_TYPE, Refusal, checkGtt, gttFires, requireAlId, requireString, type Json } from './orders.js';
import { pendingRecord, triggeredRecord } from './records.js';
import { json, notOk, type EmulatorReply } from './reply.js';
import { RequestLog, type LoggedRequest } from './request-log.js';
import { SessionLogin, type LoginCredentials, type LoginOptions, type OAuthApp } from './session-login.js';
import {
  DEMO_ACTID,
  DEMO_UID,
  EmulatorState,
  ltpKey,
  newToken,
  type Account,
  type GttOrder,
  type LegName,
  type OcoOrder,
  type Order,
} from './state.js';

export type { EmulatorReply } from './reply.js';
export type { LoggedRequest } from './request-log.js';

export const OPERATIONS = [
  'PlaceGTTOrder',
  'GetPendingGTTOrder',
  'GetEnabledGTTs',
  'ModifyGTTOrder',
  'CancelGTTOrder',
  'ClientDetails',
  'Logout',
  'PlaceOCOOrder',
  'ModifyOCOOrder',
  'CancelOCOOrder',
  'GetTrgOi',
  'GenAcsTok',
  'QuickAuth',
  'OrderBook',
  'SingleOrdHist',
  'SearchScrip',
  'GetQuotes',
] as const;
export type BrokerOperation = (typeof OPERATIONS)[number];

/** Operations whose request may leave out `uid`; when it is there it must still be the session's user. */
const UID_OPTIONAL: readonly BrokerOperation[] = ['GetTrgOi', 'CancelOCOOrder'];

/** `/<any prefix>/<Operation>`, also with `//` before the operation and a trailing `/`, as real servers take them. */
const OPERATION_PATH = /^\/[^/]+\/+([^/]+)\/?$/;
/**
 * The Noren login page in every form seen: `.../authorize/oauth` under any prefix (`/OAuthlogin`, `/NorenWeb2.0`),
 * `/OAuthlogin` itself and `/OAuthlogin/investor-entry-level/login`.
 */
const LOGIN_PATH = /^(?:(?:\/[^/]+)*\/authorize\/oauth|\/OAuthlogin(?:\/investor-entry-level\/login)?)\/?$/;
/** Flattrade's token exchange (a JSON POST on its own host: here, on the emulator's). */
const FLATTRADE_TOKEN_PATH = /^\/trade\/apitoken\/?$/;

export const MAX_BODY_BYTES = 64 * 1024;

export interface EmulatorRequest {
  method: string;
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  body: string;
  remoteAddress?: string;
  /** Set by the listener when the body was cut off at MAX_BODY_BYTES. */
  bodyTooLarge?: boolean;
}

export interface Switches {
  /** Accept the demo token and OAuth access tokens as `&jKey=` too (QuickAuth and Flattrade tokens always are). */
  acceptJKey: boolean;
  invalidInputAs400: boolean;
  emptyListAsArray: boolean;
  /** The login pages pass a `state` through to the redirect (off: `code` only, as the live brokers are seen to). */
  echoOAuthState: boolean;
  /** Accept jKey tokens (QuickAuth, Flattrade) as Bearer too (off: no client does it, and a broker may refuse it). */
  acceptJKeyTokenAsBearer: boolean;
  /** Take an order for any symbol (off: only the shipped list, emulator/symbols.ts, as a broker lists its own). */
  acceptAnySymbol: boolean;
}

export const SWITCH_NAMES = ['acceptJKey', 'invalidInputAs400', 'emptyListAsArray', 'echoOAuthState', 'acceptJKeyTokenAsBearer', 'acceptAnySymbol'] as const;

export interface EmulatorOptions extends Partial<Switches>, LoginOptions {
  /** The demo account's session token (random when absent); 8 to 256 printable characters. */
  token?: string;
  /** How the demo token travels: `bearer` (default, as an OAuth access token) or `jkey` (as a QuickAuth token). */
  demoTokenStyle?: 'bearer' | 'jkey';
  /** The clock (tests): request times, OAuth code expiry and TOTP windows read it. */
  now?: () => Date;
}

/** One order fired by a last traded price. */
export interface FiredOrder {
  al_id: string;
  kind: Order['kind'];
  leg: LegName;
  d: string;
  /** The order it placed in the order book, and that order's status. */
  norenordno: string;
  status: string;
}

const TOKEN_PATTERN = /^[\x21-\x7e]{8,256}$/;

function* chain(...lists: Iterable<string>[]): Generator<string> {
  for (const list of lists) yield* list;
}

export class BrokerEmulator {
  readonly state: EmulatorState;
  readonly faults = new FaultBook();
  /** The orders fired GTTs placed. */
  readonly book: OrderBook;
  readonly uid = DEMO_UID;
  readonly actid = DEMO_ACTID;
  readonly token: string;
  readonly login: SessionLogin;
  switches: Switches;
  private readonly startSwitches: Switches;
  private readonly log: RequestLog;
  private readonly now: () => Date;
  private readonly demoTokenStyle: 'bearer' | 'jkey';

  constructor(options: EmulatorOptions = {}) {
    this.demoTokenStyle = options.demoTokenStyle ?? 'bearer';
    this.now = options.now ?? (() => new Date());
    if (options.token !== undefined && !TOKEN_PATTERN.test(options.token)) throw new Error('token must be 8 to 256 printable characters without spaces');
    this.token = options.token ?? newToken();
    this.state = new EmulatorState(this.now());
    this.book = new OrderBook(() => this.state.newOrderNumber());
    this.login = new SessionLogin(options, this.state, this.now);
    const loginSecrets = this.login.secrets();
    this.log = new RequestLog(() => chain(this.state.knownTokens, loginSecrets));
    this.startSwitches = {
      acceptJKey: options.acceptJKey ?? false,
      invalidInputAs400: options.invalidInputAs400 ?? false,
      emptyListAsArray: options.emptyListAsArray ?? false,
      echoOAuthState: options.echoOAuthState ?? false,
      acceptJKeyTokenAsBearer: options.acceptJKeyTokenAsBearer ?? false,
      acceptAnySymbol: options.acceptAnySymbol ?? false,
    };
    this.switches = { ...this.startSwitches };
    this.state.addAccount(DEMO_UID, DEMO_ACTID);
    this.state.addSession(DEMO_UID, this.token, this.demoTokenStyle);
  }

  /** The OAuth app (client id, secret, registered redirect URL). */
  get oauth(): OAuthApp {
    return { ...this.login.oauth };
  }

  /** The demo account's login credentials (QuickAuth). */
  get credentials(): LoginCredentials {
    return { ...this.login.credentials };
  }

  /** Back to the start: demo account and token only, no orders, prices, codes, faults, log or switched behaviour. */
  reset(): void {
    this.state.clearOrdersAndSessions();
    this.book.clear();
    for (const uid of [...this.state.accounts.keys()]) if (uid !== DEMO_UID) this.state.accounts.delete(uid);
    this.state.addSession(DEMO_UID, this.token, this.demoTokenStyle);
    this.faults.clear();
    this.log.clear();
    this.switches = { ...this.startSwitches };
  }

  requestLog(): LoggedRequest[] {
    return this.log.list().map((entry) => ({ ...entry }));
  }

  handle(req: EmulatorRequest): EmulatorReply {
    const queryAt = req.path.indexOf('?');
    const path = queryAt < 0 ? req.path : req.path.slice(0, queryAt);
    if (path === '/_emulator' || path.startsWith('/_emulator/')) return this.control(req, path);

    const query = new URLSearchParams(queryAt < 0 ? '' : req.path.slice(queryAt + 1));
    const flattradePage = path === '/' && query.has('app_key');
    if (LOGIN_PATH.test(path) || flattradePage) {
      const entry = this.startEntry(req, 'OAuthAuthorize');
      return this.finish(entry, this.login.loginPage(req.method, query, req.body, flattradePage ? 'flattrade' : 'oauth', this.switches.echoOAuthState));
    }
    if (FLATTRADE_TOKEN_PATH.test(path)) {
      const entry = this.startEntry(req, 'FlattradeApiToken');
      if (req.method !== 'POST') return this.finish(entry, json(405, { stat: 'Not_Ok', emsg: `method ${req.method} not allowed, use POST` }));
      let fields: unknown;
      try {
        fields = JSON.parse(req.body);
      } catch {
        return this.finish(entry, json(400, { stat: 'Not_Ok', emsg: 'body must be a JSON object' }));
      }
      if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return this.finish(entry, json(400, { stat: 'Not_Ok', emsg: 'body must be a JSON object' }));
      this.log.setJData(entry, fields as Json);
      return this.finish(entry, this.login.flattradeToken(fields as Json));
    }

    const match = OPERATION_PATH.exec(path);
    const operation = match && (OPERATIONS as readonly string[]).includes(match[1]!) ? (match[1] as BrokerOperation) : null;
    const entry = this.startEntry(req, operation);
    const finish = (reply: EmulatorReply) => this.finish(entry, reply);

    if (!match) return finish(notOk(`Invalid Input : unknown path ${path}`, 404));
    if (!operation) return finish(notOk(`Invalid Input : unknown operation ${match[1]}`, 404));
    if (req.method !== 'POST') return finish(notOk(`Invalid Input : method ${req.method} not allowed, use POST`, 405));

    const fault = this.faults.take(operation);
    if (fault && !fault.executed) {
      if (fault.kind === 'delay') {
        return {
          ...finish(json(200, { stat: 'pending', note: `delayed ${fault.delayMs} ms` })),
          fault: { kind: 'delay', ms: fault.delayMs, answer: () => finish(this.serve(req, operation, entry)) },
        };
      }
      return finish(this.faultReply(fault));
    }
    const reply = this.serve(req, operation, entry);
    if (!fault) return finish(reply);
    // executed: the broker acted; the client gets the fault instead of the real answer.
    if (fault.kind === 'delay') return { ...finish(reply), fault: { kind: 'delay', ms: fault.delayMs, answer: () => reply } };
    return finish(this.faultReply(fault));
  }

  private startEntry(req: EmulatorRequest, operation: string | null): LoggedRequest {
    return this.log.start({
      method: req.method,
      path: req.path,
      operation,
      headers: req.headers,
      body: req.body,
      bodyContainedToken: [...this.state.knownTokens].some((t) => req.body.includes(t)),
    });
  }

  private finish(entry: LoggedRequest, reply: EmulatorReply): EmulatorReply {
    this.log.setReply(entry, reply.fault?.kind === 'drop' ? 0 : reply.status, reply.logReply ?? parseReply(reply));
    return reply;
  }

  // ---- the broker operations --------------------------------------------------------------------------------

  private serve(req: EmulatorRequest, operation: BrokerOperation, entry: LoggedRequest): EmulatorReply {
    const invalidStatus = this.switches.invalidInputAs400 ? 400 : 200;
    const invalid = (text: string) => notOk(`Invalid Input : ${text}`, invalidStatus);
    if (req.bodyTooLarge || Buffer.byteLength(req.body) > MAX_BODY_BYTES) {
      return invalid(`request body exceeds ${MAX_BODY_BYTES} bytes`);
    }
    if (!req.body.startsWith('jData=')) return invalid('body must be jData=<json object>');
    let text = req.body.slice('jData='.length);
    let jKey: string | undefined;
    const jKeyAt = text.lastIndexOf('&jKey=');
    if (jKeyAt >= 0) {
      jKey = text.slice(jKeyAt + '&jKey='.length);
      text = text.slice(0, jKeyAt);
    }
    let jData: unknown;
    try {
      jData = JSON.parse(text);
    } catch {
      return invalid('jData is not valid JSON');
    }
    if (typeof jData !== 'object' || jData === null || Array.isArray(jData)) return invalid('jData must be a JSON object');
    const fields = jData as Json;
    this.log.setJData(entry, fields);

    // The login operations need no session: they create one.
    if (operation === 'GenAcsTok') return this.login.genAcsTok(fields, invalidStatus);
    if (operation === 'QuickAuth') return this.login.quickAuth(fields, invalidStatus);

    // Authentication, by how the token was issued: Bearer for OAuth access tokens (and the demo token), `&jKey=` for
    // QuickAuth and Flattrade tokens. The other way round only when switched on. Never a token in jData.
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const jKeyToken = jKey === undefined ? undefined : safeDecode(jKey);
    const bearerOk = bearer !== undefined && (!this.state.jkeyTokens.has(bearer) || this.switches.acceptJKeyTokenAsBearer);
    const jKeyOk = jKeyToken !== undefined && (this.state.jkeyTokens.has(jKeyToken) || this.switches.acceptJKey);
    const token = bearer !== undefined ? (bearerOk ? bearer : undefined) : jKeyOk ? jKeyToken : undefined;
    const sessionUid = token === undefined ? undefined : this.state.sessions.get(token);
    if (sessionUid === undefined) return notOk('Session Expired :  Invalid Session Key');
    this.log.setAuthUid(entry, sessionUid);
    const uidOptional = UID_OPTIONAL.includes(operation) && (fields.uid === undefined || fields.uid === null);
    if (!uidOptional && fields.uid !== sessionUid) return notOk('Session Expired :  Invalid User Id');
    const account = this.state.accounts.get(sessionUid)!;

    try {
      switch (operation) {
        case 'PlaceGTTOrder':
          return this.placeGtt(fields, account, req);
        case 'GetPendingGTTOrder':
          return this.list(this.ordersOf(account.uid, 'pending'), pendingRecord);
        case 'GetEnabledGTTs':
          return json(200, {
            stat: 'Ok',
            request_time: compactRequestTime(this.now()),
            ai_ts: [{ ai_t: 'LTP_A_O' }, { ai_t: 'LTP_B_O' }, { ai_t: OCO_ALERT_TYPE }],
          });
        case 'ModifyGTTOrder':
          return this.modifyGtt(fields, account, req);
        case 'CancelGTTOrder':
        case 'CancelOCOOrder':
          return this.cancel(fields, account);
        case 'PlaceOCOOrder':
          return this.placeOco(fields, account, req);
        case 'ModifyOCOOrder':
          return this.modifyOco(fields, account, req);
        case 'GetTrgOi': {
          requireString(fields, 'actid');
          if (fields.actid !== account.actid) throw new Refusal('Invalid Account Id');
          const fired = this.ordersOf(account.uid, 'triggered').sort((a, b) => a.trigger!.seq - b.trigger!.seq);
          return this.list(fired, triggeredRecord);
        }
        case 'OrderBook': {
          const orders = this.book.bookOf(account.uid);
          return orders.length === 0 && !this.switches.emptyListAsArray ? notOk('no data') : json(200, orders);
        }
        case 'SingleOrdHist':
          return json(200, this.book.historyOf(account.uid, fields));
        case 'SearchScrip': {
          const exch = requireString(fields, 'exch');
          const stext = decodeURIComponent(requireString(fields, 'stext'));
          const found = this.switches.acceptAnySymbol ? [stext] : searchListed(exch, stext, this.now());
          if (found.length === 0) return notOk('no data');
          return json(200, { stat: 'Ok', values: found.map((tsym) => ({ exch, tsym, token: instrumentToken(exch, tsym), pp: '2', ls: '1', ti: '0.05' })) });
        }
        case 'GetQuotes': {
          const exch = requireString(fields, 'exch');
          const token = requireString(fields, 'token');
          const known = [...this.state.ltps].find(([key]) => {
            const [e, ...rest] = key.split('|');
            return e === exch && instrumentToken(exch, rest.join('|')) === token;
          });
          if (!known) return notOk('no data');
          const tsym = known[0].slice(exch.length + 1);
          return json(200, { request_time: requestTime(this.now()), stat: 'Ok', exch, tsym, token, lp: String(known[1]), pp: '2', ls: '1', ti: '0.05' });
        }
        case 'ClientDetails': {
          requireString(fields, 'actid');
          if (fields.actid !== account.actid) throw new Refusal('Invalid Account Id');
          return json(200, { request_time: requestTime(this.now()), stat: 'Ok', ...account.client });
        }
        case 'Logout':
          this.state.sessions.delete(token!);
          return json(200, { request_time: requestTime(this.now()), stat: 'Ok' });
      }
    } catch (error) {
      if (error instanceof Refusal) return invalid(error.message);
      throw error;
    }
  }

  private ordersOf(uid: string, state: Order['state']): Order[] {
    return [...this.state.orders.values()].filter((o) => o.uid === uid && o.state === state);
  }

  /** A list reply: the records, or `no data` (an object, or `[]` with the switch) when there are none. */
  private list(orders: Order[], record: (o: Order) => unknown): EmulatorReply {
    if (orders.length === 0 && !this.switches.emptyListAsArray) return notOk('no data');
    return json(200, orders.map(record));
  }

  private entryFacts(req: EmulatorRequest) {
    return { ipaddr: req.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1', norentm: requestTime(this.now()) };
  }

  private placeGtt(fields: Json, account: Account, req: EmulatorRequest): EmulatorReply {
    const order: GttOrder = {
      kind: 'gtt',
      ...this.listed(checkGtt(fields, account)),
      al_id: this.state.newAlId(),
      uid: account.uid,
      state: 'pending',
      ...this.entryFacts(req),
    };
    this.state.orders.set(order.al_id, order);
    return json(200, { request_time: requestTime(this.now()), stat: 'OI created', al_id: order.al_id });
  }

  private placeOco(fields: Json, account: Account, req: EmulatorRequest): EmulatorReply {
    const checked = this.listed(checkOco(fields, account));
    const order: OcoOrder = {
      kind: 'oco',
      ...checked,
      ...ocoDirections(checked.x, checked.y, this.state.ltps.get(ltpKey(checked.exch, checked.tsym))),
      al_id: this.state.newAlId(),
      uid: account.uid,
      state: 'pending',
      ...this.entryFacts(req),
    };
    this.state.orders.set(order.al_id, order);
    return json(200, { request_time: requestTime(this.now()), stat: 'OI created', al_id: order.al_id });
  }

  /** The checked order, if its exchange lists its symbol (or any symbol is taken); the broker's refusal otherwise. */
  private listed<T extends { exch: string; tsym: string }>(checked: T): T {
    if (!this.switches.acceptAnySymbol && !isListedSymbol(checked.exch, checked.tsym, this.now())) throw new Refusal(UNKNOWN_SYMBOL_REASON);
    return checked;
  }

  /** A pending order of this account (of the given kind), or undefined: unknown, gone or someone else's. */
  private pendingOf(uid: string, alId: string, kind?: Order['kind']): Order | undefined {
    const order = this.state.orders.get(alId);
    return order && order.uid === uid && order.state === 'pending' && (kind === undefined || order.kind === kind) ? order : undefined;
  }

  private invalidOi(alId: string): EmulatorReply {
    return json(200, { request_time: requestTime(this.now()), stat: 'Invalid Oi', al_id: alId });
  }

  private modifyGtt(fields: Json, account: Account, req: EmulatorRequest): EmulatorReply {
    const alId = requireAlId(fields);
    const changes = this.listed(checkGtt(fields, account));
    const existing = this.pendingOf(account.uid, alId, 'gtt');
    if (!existing) return this.invalidOi(alId);
    this.state.orders.set(alId, { ...(existing as GttOrder), ...changes, ...this.entryFacts(req) });
    return json(200, { request_time: requestTime(this.now()), stat: 'OI replaced', al_id: alId });
  }

  /** A full replacement: both legs and both triggers; the legs' directions are decided again from today's price. */
  private modifyOco(fields: Json, account: Account, req: EmulatorRequest): EmulatorReply {
    const alId = requireAlId(fields);
    const checked = this.listed(checkOco(fields, account));
    const existing = this.pendingOf(account.uid, alId, 'oco');
    if (!existing) return this.invalidOi(alId);
    this.state.orders.set(alId, {
      ...(existing as OcoOrder),
      ...checked,
      ...ocoDirections(checked.x, checked.y, this.state.ltps.get(ltpKey(checked.exch, checked.tsym))),
      ...this.entryFacts(req),
    });
    return json(200, { request_time: requestTime(this.now()), stat: 'OI replaced', al_id: alId });
  }

  /** CancelGTTOrder and CancelOCOOrder: either cancels a pending order of either kind. */
  private cancel(fields: Json, account: Account): EmulatorReply {
    const alId = requireAlId(fields);
    const existing = this.pendingOf(account.uid, alId);
    if (!existing) return this.invalidOi(alId);
    existing.state = 'cancelled';
    return json(200, { request_time: requestTime(this.now()), stat: 'OI deleted', al_id: alId });
  }

  /** Set the last traded price of a symbol: pending GTTs whose trigger it meets fire (an OCO fires one leg only). */
  setLastTradedPrice(exch: string, tsym: string, ltp: number): FiredOrder[] {
    const key = ltpKey(exch, tsym);
    const previous = this.state.ltps.get(key);
    this.state.ltps.set(key, ltp);
    const fired: FiredOrder[] = [];
    for (const order of this.state.orders.values()) {
      if (order.state !== 'pending' || order.exch !== exch || order.tsym !== tsym) continue;
      const leg = order.kind === 'oco' ? ocoFiringLeg(order, ltp, previous) : gttFires(order, ltp) ? 'x' : undefined;
      if (!leg) continue;
      const d = order.kind === 'oco' ? order[leg] : order.d;
      order.state = 'triggered';
      order.trigger = { at: requestTime(this.now()), seq: this.state.nextTriggerSeq(), leg, d, ltp: String(ltp) };
      const placed = this.book.placeFired(order, leg, ltp, this.now());
      fired.push({ al_id: order.al_id, kind: order.kind, leg, d, norenordno: placed.norenordno, status: placed.history[0]!.status });
    }
    return fired;
  }

  private faultReply(fault: Fault): EmulatorReply {
    switch (fault.kind) {
      case 'http5xx':
        return {
          status: fault.status ?? 503,
          body: `<html><body><h1>${fault.status ?? 503} Service Unavailable</h1></body></html>`,
          contentType: 'text/html',
        };
      case 'nonJson':
        return { status: 200, body: '<html>gateway error</html>', contentType: 'text/html' };
      case 'drop':
        return { status: 0, body: '', contentType: 'text/plain', fault: { kind: 'drop' } };
      case 'serverTimeout':
        return notOk(`Server Timeout :  ${fault.message ?? 'Please try after some time'}`);
      case 'rateLimit':
        // The broker's own spelling.
        return notOk(fault.message ?? 'Order Recieved 11 in a current second exceeds Limit 10');
      case 'notOk': {
        const message = fault.message ?? 'Invalid Input : rejected by fault injection';
        return notOk(message, this.switches.invalidInputAs400 && message.startsWith('Invalid Input') ? 400 : 200);
      }
      case 'delay':
        return json(200, { stat: 'Not_Ok', emsg: 'delay fault without a reply' });
    }
  }

  // ---- the control surface (/_emulator/...) -------------------------------------------------------------------

  private control(req: EmulatorRequest, path: string): EmulatorReply {
    const route = `${req.method} ${path.slice('/_emulator'.length) || '/'}`;
    const query = new URLSearchParams(req.path.split('?')[1] ?? '');
    let body: Json = {};
    if (req.method === 'POST' && req.body.trim() !== '') {
      try {
        const parsed: unknown = JSON.parse(req.body);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return json(400, { error: 'body must be a JSON object' });
        body = parsed as Json;
      } catch {
        return json(400, { error: 'body is not valid JSON' });
      }
    }
    const optionalString = (name: string): string | undefined => {
      const value = body[name];
      if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) throw new ControlError(`${name} must be a non-empty string`);
      return value as string | undefined;
    };
    /** A caller-chosen session token: long enough to redact safely, and never one issued before (no rebinding). */
    const chosenToken = (): string | undefined => {
      const token = optionalString('token');
      if (token === undefined) return undefined;
      if (token.length < 8) throw new ControlError('token must be at least 8 characters');
      if (!TOKEN_PATTERN.test(token)) throw new ControlError('token must be 8 to 256 printable characters without spaces');
      if (this.state.knownTokens.has(token)) throw new ControlError('token is already in use (or was used before); choose another', 409);
      return token;
    };
    try {
      switch (route) {
        case 'POST /reset':
          this.reset();
          return json(200, { reset: true });
        case 'POST /accounts': {
          const uid = optionalString('uid') ?? `SBX${String(this.state.accounts.size + 1).padStart(3, '0')}`;
          if (this.state.accounts.has(uid)) return json(409, { error: `account ${uid} exists` });
          const actid = optionalString('actid') ?? uid;
          const token = chosenToken();
          this.state.addAccount(uid, actid);
          return json(201, { uid, actid, token: this.state.addSession(uid, token) });
        }
        case 'POST /sessions': {
          const uid = optionalString('uid');
          if (!uid || !this.state.accounts.has(uid)) return json(404, { error: `no account ${String(uid)}` });
          return json(201, { uid, token: this.state.addSession(uid, chosenToken()) });
        }
        case 'POST /sessions/expire': {
          const token = optionalString('token');
          if (!token) return json(400, { error: 'token is required' });
          return json(200, { expired: this.state.sessions.delete(token) });
        }
        case 'POST /faults': {
          const operation = optionalString('operation');
          if (!operation || (operation !== '*' && !(OPERATIONS as readonly string[]).includes(operation))) {
            return json(400, { error: `operation must be one of ${OPERATIONS.join(', ')} or *` });
          }
          const kind = body.kind as FaultKind;
          if (!FAULT_KINDS.includes(kind)) return json(400, { error: `kind must be one of ${FAULT_KINDS.join(', ')}` });
          const times = body.times ?? 1;
          const delayMs = body.delayMs ?? 30_000;
          if (!Number.isInteger(times) || (times as number) < 1) return json(400, { error: 'times must be a positive integer' });
          if (!Number.isInteger(delayMs) || (delayMs as number) < 0 || (delayMs as number) > 600_000) {
            return json(400, { error: 'delayMs must be an integer from 0 to 600000' });
          }
          if (body.status !== undefined && (!Number.isInteger(body.status) || (body.status as number) < 500 || (body.status as number) > 599)) {
            return json(400, { error: 'status must be an HTTP 5xx code' });
          }
          const fault = this.faults.add({
            operation,
            kind,
            times: times as number,
            delayMs: delayMs as number,
            ...(body.status === undefined ? {} : { status: body.status as number }),
            ...(optionalString('message') === undefined ? {} : { message: optionalString('message')! }),
            executed: body.executed === true,
          });
          return json(201, { id: fault.id });
        }
        case 'GET /faults':
          return json(200, { faults: this.faults.list() });
        case 'DELETE /faults':
          this.faults.clear();
          return json(200, { cleared: true });
        case 'GET /requests':
          return json(200, { requests: this.log.list(), bytes: this.log.bytes });
        case 'DELETE /requests':
          this.log.clear();
          return json(200, { cleared: true });
        case 'GET /orders': {
          const uid = query.get('uid') ?? DEMO_UID;
          return json(200, { orders: [...this.state.orders.values()].filter((o) => o.uid === uid) });
        }
        case 'POST /switches': {
          for (const name of SWITCH_NAMES) {
            if (body[name] === undefined) continue;
            if (typeof body[name] !== 'boolean') return json(400, { error: `${name} must be true or false` });
            this.switches[name] = body[name];
          }
          return json(200, this.switches);
        }
        case 'POST /ltp': {
          const exch = optionalString('exch');
          const tsym = optionalString('tsym');
          const ltp = body.ltp;
          if (!exch || !tsym || typeof ltp !== 'number' || !Number.isFinite(ltp)) {
            return json(400, { error: 'exch, tsym (strings) and ltp (number) are required' });
          }
          const fired = this.setLastTradedPrice(exch, tsym, ltp);
          return json(200, { triggered: fired.map((f) => f.al_id), fired });
        }
        case 'GET /otp':
          // What the demo account's authenticator app shows now (the sign-in page asks for it).
          return json(200, { otp: this.login.currentOtp() });
        case 'POST /next-order': {
          // How the next fired order ends: filled (default), rejected with a reason, partly filled, or left open.
          const status = body.status;
          let outcome: NextOutcome;
          if (status === 'filled' || status === 'open') outcome = { status };
          else if (status === 'rejected') outcome = { status, reason: optionalString('reason') ?? 'RED:Margin Shortfall:INR 1,000.00 Available:INR 0.00' };
          else if (status === 'partial') {
            const fillQty = body.fillQty;
            if (!Number.isInteger(fillQty) || (fillQty as number) < 1) return json(400, { error: 'fillQty must be a positive integer' });
            outcome = { status, fillQty: fillQty as number };
          } else return json(400, { error: 'status must be filled, rejected, partial or open' });
          try {
            return json(201, { queued: this.book.queue(outcome) });
          } catch (error) {
            return json(409, { error: (error as Error).message });
          }
        }
        case 'GET /oauth':
          return json(200, { clientId: this.login.oauth.clientId, redirectUrl: this.login.oauth.redirectUrl });
        case 'POST /oauth': {
          const redirectUrl = optionalString('redirectUrl');
          if (!redirectUrl) return json(400, { error: 'redirectUrl is required' });
          try {
            this.login.setRedirectUrl(redirectUrl);
          } catch (error) {
            return json(400, { error: (error as Error).message });
          }
          return json(200, { clientId: this.login.oauth.clientId, redirectUrl });
        }
        default:
          return json(404, { error: `unknown control route ${route}` });
      }
    } catch (error) {
      if (error instanceof ControlError) return json(error.status, { error: error.message });
      throw error;
    }
  }
}

class ControlError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** A `jKey` value as sent (URL-encoded by careful clients, raw by others). */
const safeDecode = (value: string): string => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

const parseReply = (reply: EmulatorReply): unknown => {
  if (reply.fault?.kind === 'drop') return null;
  try {
    return JSON.parse(reply.body);
  } catch {
    return reply.body;
  }
};
