/**
 * The broker's GTT service (docs/broker-wire.md), as request -> reply logic with no sockets, so tests can
 * call it directly and the listener (server.ts) stays small. Synchronous on purpose: Node runs it to completion
 * per request, so concurrent clients can never interleave between reading and writing state.
 */
import { compactRequestTime, decodeSymbol, instrumentToken, requestTime } from './formats.js';
import { FAULT_KINDS, FaultBook, type Fault, type FaultKind } from './faults.js';
import { DEMO_ACTID, DEMO_BROKER, DEMO_UID, EmulatorState, newToken, type GttOrder } from './state.js';

export const OPERATIONS = [
  'PlaceGTTOrder',
  'GetPendingGTTOrder',
  'GetEnabledGTTs',
  'ModifyGTTOrder',
  'CancelGTTOrder',
  'ClientDetails',
  'Logout',
] as const;
export type BrokerOperation = (typeof OPERATIONS)[number];

export const MAX_BODY_BYTES = 64 * 1024;
const REQUEST_LOG_CAP = 10_000;

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

export interface EmulatorReply {
  status: number;
  body: string;
  contentType: string;
  /** For the listener: answer later (delay) or not at all (drop). */
  fault?: { kind: 'delay'; ms: number; answer: () => EmulatorReply } | { kind: 'drop' };
}

export interface Switches {
  acceptJKey: boolean;
  invalidInputAs400: boolean;
  emptyListAsArray: boolean;
}

export interface EmulatorOptions extends Partial<Switches> {
  /** The demo account's session token (random when absent). */
  token?: string;
}

export interface LoggedRequest {
  seq: number;
  at: string;
  method: string;
  path: string;
  operation: string | null;
  contentType: string | null;
  authorization: string | null;
  authUid: string | null;
  body: string;
  bodyContainedToken: boolean;
  jData: Record<string, unknown> | null;
  status: number;
  reply: unknown;
}

type Json = Record<string, unknown>;

const json = (status: number, body: unknown): EmulatorReply => ({ status, body: JSON.stringify(body), contentType: 'application/json' });
const notOk = (emsg: string, status = 200): EmulatorReply => json(status, { stat: 'Not_Ok', emsg });

const ENUMS: Record<string, readonly string[]> = {
  exch: ['NSE', 'NFO', 'BSE', 'MCX'],
  prd: ['C', 'M', 'H'],
  trantype: ['B', 'S'],
  prctyp: ['LMT', 'MKT', 'SL-LMT', 'SL-MKT', 'DS', '2L', '3L'],
  ret: ['DAY', 'EOS', 'IOC'],
  ai_t: ['LTP_A_O', 'LTP_B_O'],
  validity: ['GTT'],
};
const ORDER_FIELDS = ['uid', 'actid', 'exch', 'tsym', 'qty', 'prc', 'prd', 'trantype', 'prctyp', 'ret', 'ai_t', 'validity', 'd'];
const PRODUCT_ALIAS: Record<string, string> = { C: 'CNC', M: 'NRML', H: 'CO' };

/** A failed business check: becomes `{stat: Not_Ok, emsg}`. */
class Refusal extends Error {}

export class BrokerEmulator {
  readonly state = new EmulatorState();
  readonly faults = new FaultBook();
  readonly uid = DEMO_UID;
  readonly actid = DEMO_ACTID;
  readonly token: string;
  switches: Switches;
  private readonly startSwitches: Switches;
  private log: LoggedRequest[] = [];
  private logSeq = 0;

  constructor(options: EmulatorOptions = {}) {
    this.token = options.token ?? newToken();
    this.startSwitches = {
      acceptJKey: options.acceptJKey ?? false,
      invalidInputAs400: options.invalidInputAs400 ?? false,
      emptyListAsArray: options.emptyListAsArray ?? false,
    };
    this.switches = { ...this.startSwitches };
    this.state.addAccount(DEMO_UID, DEMO_ACTID);
    this.state.addSession(DEMO_UID, this.token);
  }

  /** Back to the start: demo account and token only, no orders, faults, log or switched behaviour. */
  reset(): void {
    this.state.clearOrdersAndSessions();
    for (const uid of [...this.state.accounts.keys()]) if (uid !== DEMO_UID) this.state.accounts.delete(uid);
    this.state.addSession(DEMO_UID, this.token);
    this.faults.clear();
    this.log = [];
    this.switches = { ...this.startSwitches };
  }

  requestLog(): LoggedRequest[] {
    return this.log.map((entry) => ({ ...entry }));
  }

  handle(req: EmulatorRequest): EmulatorReply {
    const path = req.path.split('?')[0] ?? '';
    if (path === '/_emulator' || path.startsWith('/_emulator/')) return this.control(req, path);

    const match = /^\/ClientAPI\/([^/]+)$/.exec(path);
    const operation = match && (OPERATIONS as readonly string[]).includes(match[1]!) ? (match[1] as BrokerOperation) : null;
    const entry = this.record(req, operation);
    const finish = (reply: EmulatorReply): EmulatorReply => {
      entry.status = reply.fault?.kind === 'drop' ? 0 : reply.status;
      entry.reply = parseReply(reply);
      return reply;
    };

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

  // ---- the broker operations --------------------------------------------------------------------------------

  private serve(req: EmulatorRequest, operation: BrokerOperation, entry: LoggedRequest): EmulatorReply {
    const invalid = (text: string) => notOk(`Invalid Input : ${text}`, this.switches.invalidInputAs400 ? 400 : 200);
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
    entry.jData = redactJData(fields, this.state.knownTokens);

    // Authentication: the bearer header; the old jKey form field only when switched on. Never a token in jData.
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ?? (this.switches.acceptJKey ? jKey : undefined);
    const sessionUid = token === undefined ? undefined : this.state.sessions.get(token);
    if (sessionUid === undefined) return notOk('Session Expired :  Invalid Session Key');
    entry.authUid = sessionUid;
    if (fields.uid !== sessionUid) return notOk('Session Expired :  Invalid User Id');
    const account = this.state.accounts.get(sessionUid)!;

    try {
      switch (operation) {
        case 'PlaceGTTOrder':
          return this.place(fields, account.uid, req, token!);
        case 'GetPendingGTTOrder':
          return this.pending(account.uid);
        case 'GetEnabledGTTs':
          return json(200, { stat: 'Ok', request_time: compactRequestTime(), ai_ts: [{ ai_t: 'LTP_A_O' }, { ai_t: 'LTP_B_O' }] });
        case 'ModifyGTTOrder':
          return this.modify(fields, account.uid, req);
        case 'CancelGTTOrder':
          return this.cancel(fields, account.uid);
        case 'ClientDetails': {
          requireString(fields, 'actid');
          if (fields.actid !== account.actid) throw new Refusal('Invalid Account Id');
          return json(200, { request_time: requestTime(), stat: 'Ok', ...account.client });
        }
        case 'Logout':
          this.state.sessions.delete(token!);
          return json(200, { request_time: requestTime(), stat: 'Ok' });
      }
    } catch (error) {
      if (error instanceof Refusal) return invalid(error.message);
      throw error;
    }
  }

  private checkOrder(fields: Json, uid: string): Omit<GttOrder, 'al_id' | 'uid' | 'state' | 'ipaddr' | 'norentm'> {
    for (const field of ORDER_FIELDS) requireString(fields, field);
    const account = this.state.accounts.get(uid)!;
    if (fields.actid !== account.actid) throw new Refusal('Invalid Account Id');
    for (const [field, allowed] of Object.entries(ENUMS)) {
      if (!allowed.includes(fields[field] as string)) throw new Refusal(`${field} must be one of ${allowed.join(', ')}`);
    }
    if (!account.client.exarr.includes(fields.exch as string)) throw new Refusal(`exchange ${String(fields.exch)} is not enabled for this account`);
    const qty = fields.qty as string;
    if (!/^[1-9]\d{0,9}$/.test(qty)) throw new Refusal('qty must be a positive whole number');
    if (!/^\d+(\.\d+)?$/.test(fields.prc as string)) throw new Refusal('prc must be a number');
    const d = fields.d as string;
    if (!/^\d+(\.\d+)?$/.test(d) || Number(d) <= 0) throw new Refusal('d must be a positive number');
    const tsym = decodeSymbol(fields.tsym as string);
    if (tsym.trim() === '') throw new Refusal('tsym is Missing');
    return {
      actid: account.actid,
      exch: fields.exch as string,
      tsym,
      qty: Number(qty),
      prc: fields.prc as string,
      prd: fields.prd as string,
      trantype: fields.trantype as string,
      prctyp: fields.prctyp as string,
      ret: fields.ret as string,
      ai_t: fields.ai_t as string,
      validity: fields.validity as string,
      d,
      remarks: typeof fields.remarks === 'string' ? fields.remarks : '',
      ordersource: typeof fields.ordersource === 'string' ? fields.ordersource : 'API',
    };
  }

  private place(fields: Json, uid: string, req: EmulatorRequest, _token: string): EmulatorReply {
    const order: GttOrder = {
      ...this.checkOrder(fields, uid),
      al_id: this.state.newAlId(),
      uid,
      state: 'pending',
      ipaddr: req.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
      norentm: requestTime(),
    };
    this.state.orders.set(order.al_id, order);
    return json(200, { request_time: requestTime(), stat: 'OI created', al_id: order.al_id });
  }

  private pendingOf(uid: string, alId: unknown): GttOrder | undefined {
    const order = typeof alId === 'string' ? this.state.orders.get(alId) : undefined;
    return order && order.uid === uid && order.state === 'pending' ? order : undefined;
  }

  private modify(fields: Json, uid: string, req: EmulatorRequest): EmulatorReply {
    requireString(fields, 'al_id');
    const changes = this.checkOrder(fields, uid);
    const existing = this.pendingOf(uid, fields.al_id);
    if (!existing) return json(200, { request_time: requestTime(), stat: 'Invalid Oi', al_id: fields.al_id });
    this.state.orders.set(existing.al_id, {
      ...existing,
      ...changes,
      ipaddr: req.remoteAddress?.replace(/^::ffff:/, '') ?? existing.ipaddr,
      norentm: requestTime(),
    });
    return json(200, { request_time: requestTime(), stat: 'OI replaced', al_id: existing.al_id });
  }

  private cancel(fields: Json, uid: string): EmulatorReply {
    requireString(fields, 'al_id');
    const existing = this.pendingOf(uid, fields.al_id);
    if (!existing) return json(200, { request_time: requestTime(), stat: 'Invalid Oi', al_id: fields.al_id });
    existing.state = 'cancelled';
    return json(200, { request_time: requestTime(), stat: 'OI deleted', al_id: existing.al_id });
  }

  private pending(uid: string): EmulatorReply {
    const orders = [...this.state.orders.values()]
      .filter((o) => o.uid === uid && o.state === 'pending')
      .sort((a, b) => (BigInt(a.al_id) < BigInt(b.al_id) ? -1 : 1));
    if (orders.length === 0 && !this.switches.emptyListAsArray) return notOk('no data');
    return json(200, orders.map((o) => pendingRecord(o)));
  }

  /** Fire pending GTTs whose trigger condition the new last traded price meets. */
  setLastTradedPrice(exch: string, tsym: string, ltp: number): string[] {
    const fired: string[] = [];
    for (const order of this.state.orders.values()) {
      if (order.state !== 'pending' || order.exch !== exch || order.tsym !== tsym) continue;
      const trigger = Number(order.d);
      if ((order.ai_t === 'LTP_A_O' && ltp >= trigger) || (order.ai_t === 'LTP_B_O' && ltp <= trigger)) {
        order.state = 'triggered';
        fired.push(order.al_id);
      }
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

  // ---- the request log ----------------------------------------------------------------------------------------

  private record(req: EmulatorRequest, operation: string | null): LoggedRequest {
    const tokens = this.state.knownTokens;
    const authorization = req.headers.authorization;
    const entry: LoggedRequest = {
      seq: ++this.logSeq,
      at: new Date().toISOString(),
      method: req.method,
      path: req.path,
      operation,
      contentType: req.headers['content-type'] ?? null,
      authorization: authorization === undefined ? null : redact(authorization, tokens).replace(/^(Bearer\s+)\S+$/i, '$1<redacted>'),
      authUid: null,
      body: redact(req.body.slice(0, MAX_BODY_BYTES), tokens),
      bodyContainedToken: [...tokens].some((t) => req.body.includes(t)),
      jData: null,
      status: 0,
      reply: null,
    };
    this.log.push(entry);
    if (this.log.length > REQUEST_LOG_CAP) this.log.shift();
    return entry;
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
    try {
      switch (route) {
        case 'POST /reset':
          this.reset();
          return json(200, { reset: true });
        case 'POST /accounts': {
          const uid = optionalString('uid') ?? `SBX${String(this.state.accounts.size + 1).padStart(3, '0')}`;
          if (this.state.accounts.has(uid)) return json(409, { error: `account ${uid} exists` });
          const actid = optionalString('actid') ?? uid;
          this.state.addAccount(uid, actid);
          const token = this.state.addSession(uid, optionalString('token'));
          return json(201, { uid, actid, token });
        }
        case 'POST /sessions': {
          const uid = optionalString('uid');
          if (!uid || !this.state.accounts.has(uid)) return json(404, { error: `no account ${String(uid)}` });
          return json(201, { uid, token: this.state.addSession(uid, optionalString('token')) });
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
          return json(200, { requests: this.log });
        case 'DELETE /requests':
          this.log = [];
          return json(200, { cleared: true });
        case 'GET /orders': {
          const uid = query.get('uid') ?? DEMO_UID;
          return json(200, { orders: [...this.state.orders.values()].filter((o) => o.uid === uid) });
        }
        case 'POST /switches': {
          for (const name of ['acceptJKey', 'invalidInputAs400', 'emptyListAsArray'] as const) {
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
          return json(200, { triggered: this.setLastTradedPrice(exch, tsym, ltp) });
        }
        default:
          return json(404, { error: `unknown control route ${route}` });
      }
    } catch (error) {
      if (error instanceof ControlError) return json(400, { error: error.message });
      throw error;
    }
  }
}

class ControlError extends Error {}

const requireString = (fields: Json, field: string): void => {
  if (fields[field] === undefined || fields[field] === null || fields[field] === '') throw new Refusal(`${field} is Missing`);
  if (typeof fields[field] !== 'string') throw new Refusal(`${field} must be a string`);
};

const pendingRecord = (o: GttOrder) => ({
  stat: 'Ok',
  ai_t: o.ai_t,
  al_id: o.al_id,
  tsym: o.tsym,
  exch: o.exch,
  token: instrumentToken(o.exch, o.tsym),
  remarks: o.remarks,
  validity: o.validity,
  norentm: o.norentm,
  pp: '2',
  ls: '1',
  ti: '0.05',
  brkname: DEMO_BROKER,
  actid: o.actid,
  trantype: o.trantype,
  prctyp: o.prctyp,
  qty: o.qty,
  prc: o.prc,
  C: 'C',
  prd: o.prd,
  ordersource: o.ordersource,
  d: o.d,
  place_order_params: {
    actid: o.actid,
    trantype: o.trantype,
    prctyp: o.prctyp,
    qty: o.qty,
    prc: o.prc,
    C: 'C',
    s_prdt_ali: PRODUCT_ALIAS[o.prd] ?? o.prd,
    prd: o.prd,
    ordersource: o.ordersource,
    ipaddr: o.ipaddr,
  },
  oivariable: [{ var_name: 'x', d: o.d }],
});

const redact = (text: string, tokens: Set<string>): string => {
  let out = text;
  for (const token of tokens) if (out.includes(token)) out = out.split(token).join('<redacted>');
  return out;
};

const redactJData = (fields: Json, tokens: Set<string>): Json => JSON.parse(redact(JSON.stringify(fields), tokens)) as Json;

const parseReply = (reply: EmulatorReply): unknown => {
  if (reply.fault?.kind === 'drop') return null;
  try {
    return JSON.parse(reply.body);
  } catch {
    return reply.body;
  }
};
