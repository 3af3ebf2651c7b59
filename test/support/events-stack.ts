/**
 * The lifecycle-event integration tests' shared setup: a fresh local stack per test (the governor at its highest
 * rate) with the watcher's baseline taken, no eventId published twice checked after each, the sample single and OCO
 * orders, and the steps the tests repeat (call the API and wait for the outbox, place, place outside the gateway,
 * set a price, script the next broker order, read the delivered events, renew with TOTP).
 */
import { afterEach, beforeEach, expect } from 'vitest';

import { logger } from '../../functions/base/runtime/logger.js';
import { createSessionRenewal } from '../../functions/session/totp-login.js';
import type { DeliveredEvent } from '../../local/eventbridge.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from './emulator-control.js';
import { localApi } from './local-api.js';
import { HIGH_ORDER_RATE } from './order-rate.js';
import { placeOutside as placeOutsideAt } from './outside-orders.js';
import { SAMPLE_ORDER } from './sample-order.js';

export const ORDER = SAMPLE_ORDER;
export const OCO = {
  exch: 'NSE',
  tsym: 'INFY-EQ',
  validity: 'GTT',
  target: { trigger: '1700', order: { trantype: 'S', prctyp: 'LMT', prd: 'C', ret: 'DAY', qty: 2, prc: '1700' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', prd: 'C', ret: 'DAY', qty: 2, prc: '1400' } },
  tag: 'swing-exit',
};

/** Registers the per-test stack for the calling file; `current()` is it, its control and token once `beforeEach` ran. */
export const useEventsStack = () => {
  let stack: LocalStack;
  let control: EmulatorControl;
  let token: string;

  const call = localApi(() => stack.api.url);
  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const reply = await call(method, path, body, headers);
    // The reply does not wait for the event (the outbox's forwarder publishes it off the request path): the tests
    // look at the bus once the stream was delivered.
    await stack.eventsForwarded();
    return reply;
  };
  let keys = 0;
  /** A new Idempotency-Key for each order the file places. */
  const nextKey = () => `k-${++keys}`;
  const place = async (order: object = ORDER) => {
    const res = await api('POST', '/gtt-orders', order, { 'Idempotency-Key': nextKey() });
    expect(res.status).toBe(201);
    return String(res.body.al_id);
  };
  /** An order placed outside the gateway (the broker's app): straight to the emulator. */
  const placeOutside = (fields: Record<string, unknown> = {}) => placeOutsideAt(stack.emulator, fields, token);
  const ltp = (exch: string, tsym: string, value: number) => control.ltp(exch, tsym, value);

  const nextOrder = (outcome: Record<string, unknown>) =>
    fetch(`${stack.emulator.url}/_emulator/next-order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(outcome),
    });
  const events = (type?: string): DeliveredEvent[] =>
    stack.eventBridge.events.filter((e) => type === undefined || e['detail-type'] === type);
  const of = (alId: string, type?: string) => events(type).filter((e) => e.detail.al_id === alId);
  /** No eventId was published twice. */
  const expectNoDuplicates = () => {
    const ids = events().map((e) => String(e.detail.eventId));
    expect(new Set(ids).size).toBe(ids.length);
  };

  /**
   * The TOTP renewal (QuickAuth) writes a jKey session; this stack's functions send it as Bearer, so the emulator is
   * told to take it that way here: these tests are about the events, not the token's style.
   */
  const renewWithTotp = async () => {
    await control.switches({ acceptJKeyTokenAsBearer: true });
    await createSessionRenewal({ env: { ...stack.sessionEnv, BROKER_AUTH: 'jkey' }, logger })();
  };

  beforeEach(async () => {
    // The governor at its highest rate: the detail-type test sends a kill switch sweep and plans within a second.
    stack = await startLocalStack({ settings: HIGH_ORDER_RATE });
    control = emulatorControl(stack.emulator.url);
    token = stack.emulator.token;
    expect(await stack.watch()).toMatchObject({ status: 'baseline', published: [] });
  });
  afterEach(async () => {
    expectNoDuplicates();
    await stack.close();
  });

  const current = () => ({ stack, control, token });
  return { current, api, nextKey, place, placeOutside, ltp, nextOrder, events, of, expectNoDuplicates, renewWithTotp };
};
