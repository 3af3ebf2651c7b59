/**
 * The broker's GTT service (docs/broker-wire.md), with the OCO, triggered-history and login extensions of
 * docs/emulator-extensions.md, as request -> reply logic with no sockets, so tests can call it directly and the
 * listener (server.ts) stays small. Synchronous on purpose: Node runs it to completion per request, so concurrent
 * clients can never interleave between reading and writing state.
 */
import { handleControl } from './control.js';
import { type Fault, FaultBook } from './faults.js';
import { compactRequestTime, instrumentToken, requestTime } from './formats.js';
import { checkOco, ocoDirections, ocoFiringLeg } from './oco.js';
import { OrderBook } from './order-book.js';
import { checkGtt, gttFires, type Json, OCO_ALERT_TYPE, Refusal, requireAlId, requireString } from './orders.js';
import { pendingRecord, triggeredRecord } from './records.js';
import { type EmulatorReply, json, notOk } from './reply.js';
import { type LoggedRequest, RequestLog } from './request-log.js';
import { type LoginCredentials, type LoginOptions, type OAuthApp, SessionLogin } from './session-login.js';
import {
  type Account,
  DEMO_ACTID,
  DEMO_UID,
  EmulatorState,
  type GttOrder,
  type LegName,
  ltpKey,
  newToken,
  type OcoOrder,
  type Order,
} from './state.js';
import { isListedSymbol, searchListed, UNKNOWN_SYMBOL_REASON } from './symbols.js';

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
  /**
   * Accept MKT and SL-MKT orders from the API (off: refused with `ALGO_CHK: MKT Order type not allowed for API order`,
   * as the Noren brokers answer since the 2026 algo rules).
   */
  acceptApiMarketOrders: boolean;
  /**
   * Count order writes (place, modify, cancel; single and OCO) per user in each calendar second and refuse the
   * 11th and later with the Noren text `Invalid Input : Order Recieved 11 in a current second exceeds Limit 10 for
   * user`. Off by default: the emulator's own load tests send hundreds a second.
   */
  enforceOrderRate: boolean;
  /** Take an order for any symbol (off: only the shipped list, emulator/symbols.ts, as a broker lists its own). */
  acceptAnySymbol: boolean;
}

export const SWITCH_NAMES = [
  'acceptJKey',
  'invalidInputAs400',
  'emptyListAsArray',
  'echoOAuthState',
  'acceptJKeyTokenAsBearer',
  'acceptApiMarketOrders',
  'enforceOrderRate',
  'acceptAnySymbol',
] as const;

/** The exchanges' per-client order rate that Noren brokers enforce since April 2026. */
export const BROKER_ORDER_RATE_LIMIT = 10;
const ORDER_WRITES = [
  'PlaceGTTOrder',
  'ModifyGTTOrder',
  'CancelGTTOrder',
  'CancelOCOOrder',
  'PlaceOCOOrder',
  'ModifyOCOOrder',
];

/** The order operations whose jData carries a price type, at the top (single GTT) or in the legs (OCO). */
const PRICED_OPERATIONS = ['PlaceGTTOrder', 'ModifyGTTOrder', 'PlaceOCOOrder', 'ModifyOCOOrder'];
const MARKET_TYPES = ['MKT', 'SL-MKT'];
const asFields = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
const isMarketOrder = (fields: Json): boolean =>
  [fields, asFields(fields.place_order_params), asFields(fields.place_order_params_leg2)].some((f) =>
    MARKET_TYPES.includes(String(f.prctyp)),
  );

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

export const TOKEN_PATTERN = /^[\x21-\x7e]{8,256}$/;

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
  /** Order writes per user in the current calendar second (enforceOrderRate). */
  private readonly orderRate = new Map<string, { second: number; count: number }>();
  private readonly startSwitches: Switches;
  private readonly log: RequestLog;
  private readonly now: () => Date;
  private readonly demoTokenStyle: 'bearer' | 'jkey';

  constructor(options: EmulatorOptions = {}) {
    this.demoTokenStyle = options.demoTokenStyle ?? 'bearer';
    this.now = options.now ?? (() => new Date());
    if (options.token !== undefined && !TOKEN_PATTERN.test(options.token))
      throw new Error('token must be 8 to 256 printable characters without spaces');
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
      acceptApiMarketOrders: options.acceptApiMarketOrders ?? false,
      enforceOrderRate: options.enforceOrderRate ?? false,
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
    this.orderRate.clear();
    this.log.clear();
    this.switches = { ...this.startSwitches };
  }

  requestLog(): LoggedRequest[] {
    return this.log.list().map((entry) => ({ ...entry }));
  }

  handle(req: EmulatorRequest): EmulatorReply {
    const queryAt = req.path.indexOf('?');
    const path = queryAt < 0 ? req.path : req.path.slice(0, queryAt);
    if (path === '/_emulator' || path.startsWith('/_emulator/')) return handleControl(this, req, path);

    const query = new URLSearchParams(queryAt < 0 ? '' : req.path.slice(queryAt + 1));
    const flattradePage = path === '/' && query.has('app_key');
    if (LOGIN_PATH.test(path) || flattradePage) {
      const entry = this.startEntry(req, 'OAuthAuthorize');
      return this.finish(
        entry,
        this.login.loginPage(
          req.method,
          query,
          req.body,
          flattradePage ? 'flattrade' : 'oauth',
          this.switches.echoOAuthState,
        ),
      );
    }
    if (FLATTRADE_TOKEN_PATH.test(path)) {
      const entry = this.startEntry(req, 'FlattradeApiToken');
      if (req.method !== 'POST')
        return this.finish(entry, json(405, { stat: 'Not_Ok', emsg: `method ${req.method} not allowed, use POST` }));
      let fields: unknown;
      try {
        fields = JSON.parse(req.body);
      } catch {
        return this.finish(entry, json(400, { stat: 'Not_Ok', emsg: 'body must be a JSON object' }));
      }
      if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
        return this.finish(entry, json(400, { stat: 'Not_Ok', emsg: 'body must be a JSON object' }));
      this.log.setJData(entry, fields as Json);
      return this.finish(entry, this.login.flattradeToken(fields as Json));
    }

    const match = OPERATION_PATH.exec(path);
    const operation =
      match && (OPERATIONS as readonly string[]).includes(match[1]!) ? (match[1] as BrokerOperation) : null;
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
    if (fault.kind === 'delay')
      return { ...finish(reply), fault: { kind: 'delay', ms: fault.delayMs, answer: () => reply } };
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
    if (typeof jData !== 'object' || jData === null || Array.isArray(jData))
      return invalid('jData must be a JSON object');
    const fields = jData as Json;
    this.log.setJData(entry, fields);

    // The login operations need no session: they create one.
    if (operation === 'GenAcsTok') return this.login.genAcsTok(fields, invalidStatus);
    if (operation === 'QuickAuth') return this.login.quickAuth(fields, invalidStatus);

    // Authentication, by how the token was issued: Bearer for OAuth access tokens (and the demo token), `&jKey=` for
    // QuickAuth and Flattrade tokens. The other way round only when switched on. Never a token in jData.
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const jKeyToken = jKey === undefined ? undefined : safeDecode(jKey);
    const bearerOk =
      bearer !== undefined && (!this.state.jkeyTokens.has(bearer) || this.switches.acceptJKeyTokenAsBearer);
    const jKeyOk = jKeyToken !== undefined && (this.state.jkeyTokens.has(jKeyToken) || this.switches.acceptJKey);
    const token = bearer !== undefined ? (bearerOk ? bearer : undefined) : jKeyOk ? jKeyToken : undefined;
    const sessionUid = token === undefined ? undefined : this.state.sessions.get(token);
    if (sessionUid === undefined) return notOk('Session Expired :  Invalid Session Key');
    this.log.setAuthUid(entry, sessionUid);
    const uidOptional = UID_OPTIONAL.includes(operation) && (fields.uid === undefined || fields.uid === null);
    if (!uidOptional && fields.uid !== sessionUid) return notOk('Session Expired :  Invalid User Id');
    const account = this.state.accounts.get(sessionUid)!;
    if (ORDER_WRITES.includes(operation) && this.switches.enforceOrderRate) {
      const second = Math.floor(this.now().getTime() / 1_000);
      const counted = this.orderRate.get(account.uid);
      const count = counted?.second === second ? counted.count + 1 : 1;
      this.orderRate.set(account.uid, { second, count });
      if (count > BROKER_ORDER_RATE_LIMIT) {
        return notOk(
          `Invalid Input : Order Recieved ${count} in a current second exceeds Limit ${BROKER_ORDER_RATE_LIMIT} for user`,
        );
      }
    }
    if (PRICED_OPERATIONS.includes(operation) && !this.switches.acceptApiMarketOrders && isMarketOrder(fields)) {
      return notOk('ALGO_CHK: MKT Order type not allowed for API order');
    }

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
          return json(200, {
            stat: 'Ok',
            values: found.map((tsym) => ({
              exch,
              tsym,
              token: instrumentToken(exch, tsym),
              pp: '2',
              ls: '1',
              ti: '0.05',
            })),
          });
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
          return json(200, {
            request_time: requestTime(this.now()),
            stat: 'Ok',
            exch,
            tsym,
            token,
            lp: String(known[1]),
            pp: '2',
            ls: '1',
            ti: '0.05',
          });
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
    if (!this.switches.acceptAnySymbol && !isListedSymbol(checked.exch, checked.tsym, this.now()))
      throw new Refusal(UNKNOWN_SYMBOL_REASON);
    return checked;
  }

  /** A pending order of this account (of the given kind), or undefined: unknown, gone or someone else's. */
  private pendingOf(uid: string, alId: string, kind?: Order['kind']): Order | undefined {
    const order = this.state.orders.get(alId);
    return order && order.uid === uid && order.state === 'pending' && (kind === undefined || order.kind === kind)
      ? order
      : undefined;
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
      fired.push({
        al_id: order.al_id,
        kind: order.kind,
        leg,
        d,
        norenordno: placed.norenordno,
        status: placed.history[0]!.status,
      });
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

  // ---- the control surface (/_emulator/...): control.ts -------------------------------------------------------

  /** The request log's size, in bytes of JSON (`GET /_emulator/requests`). */
  requestLogBytes(): number {
    return this.log.bytes;
  }

  clearRequestLog(): void {
    this.log.clear();
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
