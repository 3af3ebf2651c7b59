/**
 * The broker's GTT service (docs/explanation/broker-wire.md), with the OCO, triggered-history and login extensions of
 * docs/explanation/emulator-extensions.md, as request -> reply logic with no sockets, so tests can call it directly and the
 * listener (server.ts) stays small. Synchronous on purpose: Node runs it to completion per request, so concurrent
 * clients can never interleave between reading and writing state. Routing and request parsing are in wire/routing.ts,
 * the switches in state/switches.ts, the order rules in state/order-rules.ts, the operations in operations/.
 */
import { type ControlTarget, handleControl } from './control/control.js';
import { FaultBook, faultReply } from './control/faults.js';
import { type LoggedRequest, RequestLog } from './control/request-log.js';
import { type LoginCredentials, type LoginOptions, type OAuthApp, SessionLogin } from './login/session-login.js';
import {
  clientDetails,
  getQuotes,
  logout,
  orderBook,
  positionBook,
  searchScrip,
  securityInfo,
  singleOrderHistory,
} from './operations/account-operations.js';
import {
  cancel,
  getEnabledGtts,
  getPendingGtts,
  getTriggered,
  modifyGtt,
  modifyOco,
  placeGtt,
  placeOco,
  seedGtts,
} from './operations/gtt-operations.js';
import {
  clearPrice,
  movePriceByHand,
  openMarket,
  openNamed,
  type PriceMove,
  timePriceSeries,
  walkMarket,
} from './operations/market-moves.js';
import { placeOrder } from './operations/order-operations.js';
import type { MarketFigures } from './state/alert-rules.js';
import { OrderBook } from './state/order-book.js';
import { OrderRate, orderRuleRefusal } from './state/order-rules.js';
import { type Json, Refusal } from './state/orders.js';
import { seededRandom, START_PRICES, type StartPrices } from './state/prices.js';
import { DEMO_ACTID, DEMO_UID, EmulatorState, newToken } from './state/state.js';
import { type OperationContext, startSwitches, type Switches, TOKEN_PATTERN } from './state/switches.js';
import { EMULATOR_DIALECTS, type EmulatorDialect, isDialect, speakDialect } from './wire/dialect.js';
import { symbolMasterReply } from './wire/master-file.js';
import { type EmulatorReply, json, notOk } from './wire/reply.js';
import {
  type BrokerOperation,
  type EmulatorRequest,
  FLATTRADE_TOKEN_PATH,
  LOGIN_PATH,
  OPERATION_PATH,
  operationOf,
  readJData,
  sessionToken,
  SYMBOL_MASTER_PATH,
  UID_OPTIONAL,
} from './wire/routing.js';

export type { LoggedRequest } from './control/request-log.js';
export type { FiredOrder } from './operations/gtt-operations.js';
export type { PriceMove } from './operations/market-moves.js';
export { BROKER_ORDER_RATE_LIMIT } from './state/order-rules.js';
export { SWITCH_NAMES, type Switches, TOKEN_PATTERN } from './state/switches.js';
export type { EmulatorReply } from './wire/reply.js';
export { type BrokerOperation, type EmulatorRequest, MAX_BODY_BYTES, OPERATIONS } from './wire/routing.js';

export interface EmulatorOptions extends Partial<Switches>, LoginOptions {
  /** The dialect of its GTT replies (wire/dialect.ts): `noren` (default), `2021` or `flattrade`. */
  dialect?: EmulatorDialect;
  /** The demo account's session token (random when absent); 8 to 256 printable characters. */
  token?: string;
  /** How the demo token travels: `bearer` (default, as an OAuth access token) or `jkey` (as a QuickAuth token). */
  demoTokenStyle?: 'bearer' | 'jkey';
  /** The clock (tests): request times, OAuth code expiry and TOTP windows read it. */
  now?: () => Date;
  /** `start`: every shipped symbol has a price and a band from the first request; `none` (default here): none. */
  prices?: StartPrices;
  /** The seed of the market's walk (`walk()`): the same seed, the same prices. */
  seed?: number;
}

/** The walk's seed when none is given. */
export const DEFAULT_MARKET_SEED = 58;

function* chain(...lists: Iterable<string>[]): Generator<string> {
  for (const list of lists) yield* list;
}

export class BrokerEmulator implements ControlTarget {
  readonly state: EmulatorState;
  readonly faults = new FaultBook();
  /** The orders fired GTTs placed. */
  readonly book: OrderBook;
  readonly uid = DEMO_UID;
  readonly actid = DEMO_ACTID;
  readonly token: string;
  readonly login: SessionLogin;
  switches: Switches;
  /** The dialect its GTT replies are in now (`POST /_emulator/dialect` changes it; a reset restores the start's). */
  dialect: EmulatorDialect;
  /** Order writes per user in the current calendar second (enforceOrderRate). */
  private readonly orderRate = new OrderRate();
  private readonly startSwitches: Switches;
  private readonly startDialect: EmulatorDialect;
  private readonly log: RequestLog;
  private readonly now: () => Date;
  private readonly demoTokenStyle: 'bearer' | 'jkey';
  private readonly seed: number;
  private random: () => number;

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
    this.startSwitches = startSwitches(options);
    this.switches = { ...this.startSwitches };
    if (options.dialect !== undefined && !isDialect(options.dialect))
      throw new Error(`dialect must be one of ${EMULATOR_DIALECTS.join(', ')}`);
    this.startDialect = options.dialect ?? 'noren';
    this.dialect = this.startDialect;
    this.state.addAccount(DEMO_UID, DEMO_ACTID);
    this.state.addSession(DEMO_UID, this.token, this.demoTokenStyle);
    if (options.prices !== undefined && !START_PRICES.includes(options.prices))
      throw new Error(`prices must be one of ${START_PRICES.join(', ')}`);
    if (options.seed !== undefined && !Number.isSafeInteger(options.seed)) throw new Error('seed must be an integer');
    this.state.startPrices = options.prices ?? 'none';
    this.seed = options.seed ?? DEFAULT_MARKET_SEED;
    this.random = seededRandom(this.seed);
    openMarket(this.context());
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
    this.dialect = this.startDialect;
    this.random = seededRandom(this.seed);
    openMarket(this.context());
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

    const master = SYMBOL_MASTER_PATH.exec(path);
    if (master)
      return this.finish(this.startEntry(req, 'SymbolMaster'), symbolMasterReply(req.method, master, this.now()));

    const match = OPERATION_PATH.exec(path);
    const operation = operationOf(match);
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
          fault: {
            kind: 'delay',
            ms: fault.delayMs,
            answer: () => finish(this.serve(req, operation, entry)),
            ...(fault.late ? { late: true } : {}),
          },
        };
      }
      return finish(faultReply(fault, this.switches.invalidInputAs400));
    }
    const reply = this.serve(req, operation, entry);
    if (!fault) return finish(reply);
    // executed: the broker acted; the client gets the fault instead of the real answer.
    if (fault.kind === 'delay')
      return { ...finish(reply), fault: { kind: 'delay', ms: fault.delayMs, answer: () => reply } };
    return finish(faultReply(fault, this.switches.invalidInputAs400));
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

  /** What the operation handlers read and change (the switches as they are now). */
  private context(): OperationContext {
    return { state: this.state, book: this.book, switches: this.switches, now: this.now };
  }

  // ---- the broker operations: operations/gtt-operations.ts, operations/account-operations.ts --------------------

  /** The operation's reply in the dialect the emulator speaks now. */
  private serve(req: EmulatorRequest, operation: BrokerOperation, entry: LoggedRequest): EmulatorReply {
    return speakDialect(this.dialect, operation, this.serveCanonical(req, operation, entry));
  }

  private serveCanonical(req: EmulatorRequest, operation: BrokerOperation, entry: LoggedRequest): EmulatorReply {
    const invalidStatus = this.switches.invalidInputAs400 ? 400 : 200;
    const invalid = (text: string) => notOk(`Invalid Input : ${text}`, invalidStatus);
    const read = readJData(req);
    if ('refusal' in read) return invalid(read.refusal);
    const { fields, jKey } = read;
    this.log.setJData(entry, fields);

    // The login operations need no session: they create one.
    if (operation === 'GenAcsTok')
      return this.login.genAcsTok(fields, invalidStatus, this.switches.genAcsTokWithoutUid);
    if (operation === 'QuickAuth') return this.login.quickAuth(fields, invalidStatus);

    const token = sessionToken(this.state, this.switches, req, jKey);
    const sessionUid = token === undefined ? undefined : this.state.sessions.get(token);
    if (sessionUid === undefined) return notOk('Session Expired :  Invalid Session Key');
    this.log.setAuthUid(entry, sessionUid);
    const uidOptional = UID_OPTIONAL.includes(operation) && (fields.uid === undefined || fields.uid === null);
    if (!uidOptional && fields.uid !== sessionUid) return notOk('Session Expired :  Invalid User Id');
    const account = this.state.accounts.get(sessionUid)!;
    const refused = orderRuleRefusal(this.orderRate, this.switches, operation, fields, account.uid, this.now);
    if (refused !== undefined) return notOk(refused);

    const ctx = this.context();
    try {
      if (operation === 'PlaceGTTOrder' || operation === 'PlaceOCOOrder') openNamed(ctx, fields);
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
          return logout(ctx, token!);
      }
    } catch (error) {
      if (error instanceof Refusal) return invalid(error.message);
      throw error;
    }
  }

  /**
   * Set the last traded price of a symbol (with `close`, its previous close first): resting orders it reaches fill,
   * pending GTTs whose trigger it meets fire (an OCO one leg only). operations/market-moves.ts has the rules.
   */
  setLastTradedPrice(exch: string, tsym: string, ltp: number, close?: number, figures?: MarketFigures): PriceMove {
    return movePriceByHand(this.context(), exch, tsym, ltp, close, figures);
  }

  /** A symbol without a price again (`POST /_emulator/ltp {clear: true}`); whether it had one. */
  clearLastTradedPrice(exch: string, tsym: string): boolean {
    return clearPrice(this.context(), exch, tsym);
  }

  /** `steps` steps of the seeded walk, every priced symbol each (`POST /_emulator/walk`, the `--market walk` tick). */
  walk(steps = 1): PriceMove {
    const moves: PriceMove = { fired: [], filled: [] };
    for (let i = 0; i < steps; i++) {
      const moved = walkMarket(this.context(), this.random);
      moves.fired.push(...moved.fired);
      moves.filled.push(...moved.filled);
    }
    return moves;
  }

  /** Many pending single GTTs of one account at once (`POST /_emulator/seed-gtts`: benchmarks). */
  seedGtts(uid: string, fields: Json, count: number): { first: string; last: string } {
    return seedGtts(this.context(), this.state.accounts.get(uid)!, fields, count);
  }

  /**
   * The close of the trading day: every open order in the book (or only the one named) is cancelled, keeping what
   * filled, as the exchange cancels an open DAY order. Answers the numbers of the orders cancelled.
   */
  closeMarket(norenordno?: string): string[] {
    return this.book.close(this.now(), norenordno);
  }

  // ---- the control surface (/_emulator/...): control/control.ts -------------------------------------------------

  /** The request log's size, in bytes of JSON (`GET /_emulator/requests`). */
  requestLogBytes(): number {
    return this.log.bytes;
  }

  clearRequestLog(): void {
    this.log.clear();
  }
}

const parseReply = (reply: EmulatorReply): unknown => {
  if (reply.fault?.kind === 'drop') return null;
  try {
    return JSON.parse(reply.body);
  } catch {
    return reply.body;
  }
};
