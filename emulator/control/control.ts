/**
 * The emulator's control surface (`/_emulator/...`, docs/reference/emulator.md): accounts and sessions, faults, the request
 * log, switches, the dialect of the replies, last traded prices (which fire GTTs), how the next fired order ends, the close of the trading day
 * (open orders cancelled), the OAuth app's redirect URL and the demo OTP. Apart from the broker's operations
 * (emulator/service.ts), which it drives through the methods of ControlTarget (BrokerEmulator hands itself in); the
 * listener (emulator/server.ts) applies the Host/Origin rules (control-guard.ts) before anything reaches it.
 */
import type { SessionLogin } from '../login/session-login.js';
import type { PriceMove } from '../operations/market-moves.js';
import { FIGURE_NAMES, type MarketFigures } from '../state/alert-rules.js';
import type { NextOutcome, OrderBook } from '../state/order-book.js';
import { type Json, Refusal } from '../state/orders.js';
import { DEMO_UID, type EmulatorState } from '../state/state.js';
import { SWITCH_NAMES, type Switches, TOKEN_PATTERN } from '../state/switches.js';
import { week52Input } from '../state/week52.js';
import { EMULATOR_DIALECTS, type EmulatorDialect, isDialect } from '../wire/dialect.js';
import { type EmulatorReply, json } from '../wire/reply.js';
import { type EmulatorRequest, OPERATIONS } from '../wire/routing.js';
import { FAULT_KINDS, FAULT_OPERATIONS, type FaultBook, type FaultKind } from './faults.js';
import type { LoggedRequest } from './request-log.js';

/** What the control surface drives of the emulator: BrokerEmulator (emulator/service.ts) hands itself in. */
export interface ControlTarget {
  readonly state: EmulatorState;
  readonly faults: FaultBook;
  readonly book: OrderBook;
  readonly login: SessionLogin;
  switches: Switches;
  dialect: EmulatorDialect;
  reset(): void;
  requestLog(): LoggedRequest[];
  requestLogBytes(): number;
  clearRequestLog(): void;
  setLastTradedPrice(exch: string, tsym: string, ltp: number, close?: number, figures?: MarketFigures): PriceMove;
  clearLastTradedPrice(exch: string, tsym: string): boolean;
  walk(steps?: number): PriceMove;
  closeMarket(norenordno?: string): string[];
  seedGtts(uid: string, fields: Json, count: number): { first: string; last: string };
}

export const handleControl = (emulator: ControlTarget, req: EmulatorRequest, path: string): EmulatorReply => {
  const route = `${req.method} ${path.slice('/_emulator'.length) || '/'}`;
  const query = new URLSearchParams(req.path.split('?')[1] ?? '');
  let body: Json = {};
  if (req.method === 'POST' && req.body.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(req.body);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        return json(400, { error: 'body must be a JSON object' });
      body = parsed as Json;
    } catch {
      return json(400, { error: 'body is not valid JSON' });
    }
  }
  const optionalString = (name: string): string | undefined => {
    const value = body[name];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === ''))
      throw new ControlError(`${name} must be a non-empty string`);
    return value as string | undefined;
  };
  /** A caller-chosen session token: long enough to redact safely, and never one issued before (no rebinding). */
  const chosenToken = (): string | undefined => {
    const token = optionalString('token');
    if (token === undefined) return undefined;
    if (token.length < 8) throw new ControlError('token must be at least 8 characters');
    if (!TOKEN_PATTERN.test(token))
      throw new ControlError('token must be 8 to 256 printable characters without spaces');
    if (emulator.state.knownTokens.has(token))
      throw new ControlError('token is already in use (or was used before); choose another', 409);
    return token;
  };
  try {
    switch (route) {
      case 'POST /reset':
        emulator.reset();
        return json(200, { reset: true });
      case 'POST /accounts': {
        const uid = optionalString('uid') ?? `SBX${String(emulator.state.accounts.size + 1).padStart(3, '0')}`;
        if (emulator.state.accounts.has(uid)) return json(409, { error: `account ${uid} exists` });
        const actid = optionalString('actid') ?? uid;
        const token = chosenToken();
        emulator.state.addAccount(uid, actid);
        return json(201, { uid, actid, token: emulator.state.addSession(uid, token) });
      }
      case 'POST /sessions': {
        const uid = optionalString('uid');
        if (!uid || !emulator.state.accounts.has(uid)) return json(404, { error: `no account ${String(uid)}` });
        return json(201, { uid, token: emulator.state.addSession(uid, chosenToken()) });
      }
      case 'POST /sessions/expire': {
        const token = optionalString('token');
        if (!token) return json(400, { error: 'token is required' });
        return json(200, { expired: emulator.state.sessions.delete(token) });
      }
      case 'POST /faults': {
        const operation = optionalString('operation');
        if (!operation || (operation !== '*' && !(OPERATIONS as readonly string[]).includes(operation))) {
          return json(400, { error: `operation must be one of ${OPERATIONS.join(', ')} or *` });
        }
        const kind = body.kind as FaultKind;
        if (!FAULT_KINDS.includes(kind)) return json(400, { error: `kind must be one of ${FAULT_KINDS.join(', ')}` });
        const only = FAULT_OPERATIONS[kind];
        if (only && !only.includes(operation))
          return json(400, { error: `a ${kind} fault is for ${only.join(', ')} only` });
        const times = body.times ?? 1;
        const delayMs = body.delayMs ?? 30_000;
        if (body.late !== undefined && (body.late !== true || kind !== 'delay' || body.executed === true))
          return json(400, { error: 'late: true is for a delay fault that is not executed first' });
        if (!Number.isInteger(times) || (times as number) < 1)
          return json(400, { error: 'times must be a positive integer' });
        if (!Number.isInteger(delayMs) || (delayMs as number) < 0 || (delayMs as number) > 600_000) {
          return json(400, { error: 'delayMs must be an integer from 0 to 600000' });
        }
        if (
          body.status !== undefined &&
          (!Number.isInteger(body.status) || (body.status as number) < 500 || (body.status as number) > 599)
        ) {
          return json(400, { error: 'status must be an HTTP 5xx code' });
        }
        const fault = emulator.faults.add({
          operation,
          kind,
          times: times as number,
          delayMs: delayMs as number,
          ...(body.status === undefined ? {} : { status: body.status as number }),
          ...(optionalString('message') === undefined ? {} : { message: optionalString('message')! }),
          executed: body.executed === true,
          ...(body.late === true ? { late: true } : {}),
        });
        return json(201, { id: fault.id });
      }
      case 'GET /faults':
        return json(200, { faults: emulator.faults.list() });
      case 'DELETE /faults':
        emulator.faults.clear();
        return json(200, { cleared: true });
      case 'GET /requests':
        return json(200, { requests: emulator.requestLog(), bytes: emulator.requestLogBytes() });
      case 'DELETE /requests':
        emulator.clearRequestLog();
        return json(200, { cleared: true });
      case 'POST /seed-gtts': {
        // Benchmarks only: many pending single GTTs of one account at once (`order` as PlaceGTTOrder's jData).
        const uid = optionalString('uid') ?? DEMO_UID;
        const count = body.count;
        if (!emulator.state.accounts.has(uid)) return json(404, { error: `no account ${uid}` });
        if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > 200_000)
          return json(400, { error: 'count must be an integer from 1 to 200000' });
        const order = body.order;
        if (typeof order !== 'object' || order === null || Array.isArray(order))
          return json(400, { error: 'order must be a JSON object of PlaceGTTOrder fields' });
        try {
          return json(201, { count, ...emulator.seedGtts(uid, order as Json, count as number) });
        } catch (error) {
          if (error instanceof Refusal) return json(400, { error: error.message });
          throw error;
        }
      }
      case 'GET /orders': {
        const uid = query.get('uid') ?? DEMO_UID;
        return json(200, { orders: [...emulator.state.orders.values()].filter((o) => o.uid === uid) });
      }
      case 'POST /switches': {
        for (const name of SWITCH_NAMES) {
          if (body[name] === undefined) continue;
          if (typeof body[name] !== 'boolean') return json(400, { error: `${name} must be true or false` });
          emulator.switches[name] = body[name];
        }
        return json(200, emulator.switches);
      }
      case 'GET /dialect':
        return json(200, { dialect: emulator.dialect });
      case 'POST /dialect': {
        if (!isDialect(body.dialect))
          return json(400, { error: `dialect must be one of ${EMULATOR_DIALECTS.join(', ')}` });
        emulator.dialect = body.dialect;
        return json(200, { dialect: emulator.dialect });
      }
      case 'POST /ltp': {
        const exch = optionalString('exch');
        const tsym = optionalString('tsym');
        if (body.clear !== undefined) {
          if (body.clear !== true || !exch || !tsym || body.ltp !== undefined)
            return json(400, { error: 'clear: true takes exch and tsym (strings) and no ltp' });
          return json(200, { cleared: emulator.clearLastTradedPrice(exch, tsym) });
        }
        const ltp = body.ltp;
        if (!exch || !tsym || typeof ltp !== 'number' || !Number.isFinite(ltp)) {
          return json(400, { error: 'exch, tsym (strings) and ltp (number) are required' });
        }
        const close = body.close;
        if (close !== undefined && (typeof close !== 'number' || !Number.isFinite(close) || close <= 0))
          return json(400, { error: 'close, when given, is the previous close: a positive number' });
        const figures: MarketFigures = {};
        for (const name of FIGURE_NAMES) {
          const value = body[name];
          if (value === undefined) continue;
          if (
            typeof value !== 'number' ||
            !Number.isFinite(value) ||
            value < 0 ||
            (name !== 'atp' && !Number.isInteger(value))
          )
            return json(400, {
              error: `${name}, when given, is ${name === 'atp' ? 'a non-negative price' : 'a non-negative whole number'}`,
            });
          figures[name] = value;
        }
        const range = week52Input(body);
        if (typeof range === 'string') return json(400, { error: range });
        Object.assign(figures, range);
        const { fired, filled } = emulator.setLastTradedPrice(exch, tsym, ltp, close, figures);
        return json(200, { triggered: fired.map((f) => f.al_id), fired, filled });
      }
      case 'POST /walk': {
        // Steps of the seeded walk now (what `--market walk` does on its interval): deterministic under a seed.
        const steps = body.steps ?? 1;
        if (!Number.isInteger(steps) || (steps as number) < 1 || (steps as number) > 1_000)
          return json(400, { error: 'steps must be an integer from 1 to 1000' });
        const { fired, filled } = emulator.walk(steps as number);
        return json(200, { steps, triggered: fired.map((f) => f.al_id), fired, filled });
      }
      case 'GET /otp':
        // What the demo account's authenticator app shows now (the sign-in page asks for it).
        return json(200, { otp: emulator.login.currentOtp() });
      case 'POST /next-order': {
        // How the next fired order ends: filled (default), rejected with a reason, partly filled, or left open.
        const status = body.status;
        let outcome: NextOutcome;
        if (status === 'filled' || status === 'open' || status === 'cancelled') outcome = { status };
        else if (status === 'rejected')
          outcome = {
            status,
            reason: optionalString('reason') ?? 'RED:Margin Shortfall:INR 1,000.00 Available:INR 0.00',
          };
        else if (status === 'partial') {
          const fillQty = body.fillQty;
          if (!Number.isInteger(fillQty) || (fillQty as number) < 1)
            return json(400, { error: 'fillQty must be a positive integer' });
          outcome = { status, fillQty: fillQty as number };
        } else return json(400, { error: 'status must be filled, rejected, partial, open or cancelled' });
        try {
          return json(201, { queued: emulator.book.queue(outcome) });
        } catch (error) {
          return json(409, { error: (error as Error).message });
        }
      }
      case 'POST /close': {
        // The close of the trading day: open orders (every account's, or the one named) cancelled, fills kept.
        const norenordno = optionalString('norenordno');
        const cancelled = emulator.closeMarket(norenordno);
        if (norenordno !== undefined && cancelled.length === 0)
          return json(404, { error: `no open order ${norenordno}` });
        return json(200, { cancelled });
      }
      case 'GET /oauth':
        return json(200, { clientId: emulator.login.oauth.clientId, redirectUrl: emulator.login.oauth.redirectUrl });
      case 'POST /oauth': {
        const redirectUrl = optionalString('redirectUrl');
        if (!redirectUrl) return json(400, { error: 'redirectUrl is required' });
        try {
          emulator.login.setRedirectUrl(redirectUrl);
        } catch (error) {
          return json(400, { error: (error as Error).message });
        }
        return json(200, { clientId: emulator.login.oauth.clientId, redirectUrl });
      }
      default:
        return json(404, { error: `unknown control route ${route}` });
    }
  } catch (error) {
    if (error instanceof ControlError) return json(error.status, { error: error.message });
    throw error;
  }
};

class ControlError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}
