/**
 * Idempotent placement, guardrails, dry run and audit records, end to end: HTTP requests to the local API, real
 * handlers, the journal of broker writes on dynalite, the broker emulator, and the local Secrets Manager endpoint.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { redirectLogger } from '../support/logs.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

const TIMEOUT_MS = 600;
/** The late window (ORDER_LATE_WINDOW_MS): how long after a send ended the broker may still act on it. */
const LATE_MS = 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let stack: LocalStack;
let control: EmulatorControl;
let api: string;
const logLines: string[] = [];
let keySeq = 0;
const newKey = () => `it-${Date.now()}-${++keySeq}`;

const order = { ...SAMPLE_ORDER, tsym: 'L&TFH-EQ', qty: 4, prc: '160.5', d: '158' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions on arbitrary JSON
const call = localApi<Record<string, any>>(() => api);
const place = (key: string | undefined, body: unknown = order, query = '') =>
  call('POST', `/gtt-orders${query}`, body, key === undefined ? {} : { 'Idempotency-Key': key });

const placeRequests = async () => (await control.requests()).filter((r) => r.operation === 'PlaceGTTOrder');
const pending = async () => (await control.orders(stack.emulator.uid)).filter((o) => o.state === 'pending');

useLocalStack(
  () => {
    // Capture the structured logs (audit records) the handlers write.
    const logger = new Logger({ serviceName: 'gtt-gateway-test', logLevel: 'INFO' });
    const write = (line: string) => logLines.push(line);
    redirectLogger(logger, write);
    return {
      brokerTimeoutMs: TIMEOUT_MS,
      settings: {
        ...HIGH_ORDER_RATE,
        GUARDRAIL_MAX_QTY: 1000,
        GUARDRAIL_MAX_ORDER_VALUE: 100000,
        GUARDRAIL_SYMBOLS_DENY: 'BANNED-EQ',
        ORDER_LATE_WINDOW_MS: LATE_MS,
      },
      gateway: { logger },
    };
  },
  (s, c) => {
    stack = s;
    api = s.api.url;
    control = c;
  },
);

beforeEach(() => {
  logLines.length = 0;
});
afterEach(async () => {
  await control.clearFaults();
});

describe('idempotent place', () => {
  it('50 concurrent places with one key: exactly one order, every reply has its al_id, says in flight or sent nothing', async () => {
    const key = newKey();
    // Slow the broker a little so the twins really overlap the first request.
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 150 });
    const replies = await Promise.all(Array.from({ length: 50 }, () => place(key)));
    const placed = replies.filter((r) => r.status === 201);
    const inFlight = replies.filter((r) => r.status === 409);
    // Under load a claim's winner may find its own steps too slow to send in time: it sends nothing, frees the key
    // and says so (`not_executed`); a later twin may then win the claim. Never two orders either way.
    const notSent = replies.filter((r) => r.status !== 201 && r.status !== 409);
    // A loaded machine can also make the winner's broker call outlast its timeout (600 ms here): that reply is
    // BROKER_TIMEOUT with outcome `unknown`, settled below by the retry after the late window, never sent twice.
    const unknown = notSent.filter((r) => r.body.error.outcome === 'unknown');
    for (const r of unknown) expect(r.body.error.code).toBe('BROKER_TIMEOUT');
    for (const r of notSent) expect(['not_executed', 'unknown']).toContain(r.body.error.outcome);
    expect(new Set(placed.map((r) => r.body.al_id)).size).toBeLessThanOrEqual(1);
    for (const r of inFlight) expect(r.body.error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    if (unknown.length) await sleep(TIMEOUT_MS + LATE_MS + 500);
    expect((await placeRequests()).length).toBeLessThanOrEqual(1);
    // A send that timed out may not have been carried out (the broker saw the client leave): at most what was sent.
    if (unknown.length) expect((await pending()).length).toBeLessThanOrEqual((await placeRequests()).length);
    else expect((await pending()).length).toBe((await placeRequests()).length);

    // Once the first has finished, every retry is a replay of the same reply (or, if no twin sent, the one place).
    const again = await place(key);
    expect(again.status).toBe(201);
    if (placed[0])
      expect(again.body).toMatchObject({ al_id: placed[0].body.al_id, idempotency: { key, replayed: true } });
    // One order at the broker; a second request only where the first timed out and was not carried out.
    expect((await placeRequests()).length).toBeLessThanOrEqual(1 + unknown.length);
    expect(await pending()).toHaveLength(1);
  });

  it('the same key with another body is IDEMPOTENCY_KEY_REUSED and places nothing', async () => {
    const key = newKey();
    expect((await place(key)).status).toBe(201);
    const reuse = await place(key, { ...order, qty: 5 });
    expect(reuse).toMatchObject({ status: 422, body: { error: { code: 'IDEMPOTENCY_KEY_REUSED' } } });
    expect(await placeRequests()).toHaveLength(1);
  });

  it('the same order written differently (numbers as strings) is the same body', async () => {
    const key = newKey();
    const first = await place(key);
    const second = await place(key, { ...order, qty: '4', d: 158 });
    expect(second.status).toBe(201);
    expect(second.body.al_id).toBe(first.body.al_id);
  });

  it('a retry after a timeout where the broker did act adopts its order from the books: never a second one', async () => {
    const key = newKey();
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: TIMEOUT_MS * 4, executed: true });
    const first = await place(key);
    expect(first).toMatchObject({ status: 504, body: { error: { code: 'BROKER_TIMEOUT', outcome: 'unknown' } } });
    const [placed] = await pending();
    // The order carries the write's stamp in its remarks: the retry finds it there and answers it.
    expect(placed!.remarks).toMatch(/^gw\.[0-9a-v]{10}$/);
    const retry = await place(key);
    expect(retry).toMatchObject({
      status: 201,
      body: { stat: 'OI created', al_id: placed!.al_id, idempotency: { key, replayed: true, adopted: true } },
    });
    // Adopted once, then replayed from the journal: still one request, one order.
    expect((await place(key)).body).toMatchObject({ al_id: placed!.al_id, idempotency: { replayed: true } });
    expect(await placeRequests()).toHaveLength(1);
    expect(await pending()).toHaveLength(1);
  });

  it('a timeout where the broker did not act: unknown until the late window ends, then sent once more', async () => {
    const key = newKey();
    // Not carried out: the client is gone when the delay ends (the broker dropped the request).
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: TIMEOUT_MS * 2 });
    expect((await place(key)).body).toMatchObject({ error: { code: 'BROKER_TIMEOUT', outcome: 'unknown' } });
    const early = await place(key);
    expect(early).toMatchObject({ status: 504, body: { error: { code: 'BROKER_TIMEOUT', outcome: 'unknown' } } });
    expect(early.body.error.message).toMatch(/Replay of idempotency key .*may still arrive until/);
    expect(await placeRequests()).toHaveLength(1);
    await sleep(TIMEOUT_MS * 2 + LATE_MS);
    expect(await pending()).toHaveLength(0);
    const late = await place(key);
    expect(late).toMatchObject({ status: 201, body: { stat: 'OI created', idempotency: { key, replayed: false } } });
    expect(await placeRequests()).toHaveLength(2);
    expect(await pending()).toHaveLength(1);
    // From now on, the key answers that order.
    expect((await place(key)).body).toMatchObject({ al_id: late.body.al_id, idempotency: { replayed: true } });
  });

  it('a retry whose read of the books fails says the outcome is still unknown (may be live), never not executed', async () => {
    const key = newKey();
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: TIMEOUT_MS * 4, executed: true });
    expect((await place(key)).body).toMatchObject({ error: { code: 'BROKER_TIMEOUT', outcome: 'unknown' } });
    // The broker's rate limit on the pending list: not the read's own 429 "not executed", the write's unknown.
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'rateLimit', times: 1 });
    const limited = await place(key);
    expect(limited.status).toBe(504);
    expect(limited.body.error).toMatchObject({
      code: 'BROKER_TIMEOUT',
      outcome: 'unknown',
      details: { retryAfterSeconds: 1, booksRead: 'RATE_LIMITED' },
      brokerMessage: expect.stringMatching(/exceeds Limit/),
    });
    expect(limited.body.error.message).toMatch(/still unknown.*may be live at the broker.*retry with this key after/i);
    expect(limited.body.error.message).not.toMatch(/not executed|exceeds Limit/);
    // A list that cannot be read at all: the same.
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'http5xx', times: 1 });
    const down = await place(key);
    expect(down).toMatchObject({
      status: 504,
      body: { error: { outcome: 'unknown', details: { booksRead: 'BROKER_UNAVAILABLE' } } },
    });
    // Once the books can be read, the write is found and answered; still one order.
    const settled = await place(key);
    expect(settled).toMatchObject({ status: 201, body: { idempotency: { key, replayed: true, adopted: true } } });
    expect(await placeRequests()).toHaveLength(1);
    expect(await pending()).toHaveLength(1);
  });

  it('a retry whose read of the triggered list fails (not pending) is unknown too, not the read error', async () => {
    const key = newKey();
    // Dropped by the broker: not in the pending list, so the triggered list is read next.
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: TIMEOUT_MS * 2 });
    expect((await place(key)).body).toMatchObject({ error: { code: 'BROKER_TIMEOUT', outcome: 'unknown' } });
    await control.fault({ operation: 'GetTrgOi', kind: 'http5xx', times: 1 });
    const retry = await place(key);
    expect(retry).toMatchObject({
      status: 504,
      body: { error: { code: 'BROKER_TIMEOUT', outcome: 'unknown', details: { booksRead: 'BROKER_UNAVAILABLE' } } },
    });
    expect(await placeRequests()).toHaveLength(1);
  });

  it('a tag that leaves no room for the stamp: the unknown outcome is reported, never settled by sending again', async () => {
    const key = newKey();
    const tagged = { ...order, tag: 'a-label-of-thirty-characters-' };
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'drop', executed: true });
    expect((await place(key, tagged)).body).toMatchObject({ error: { outcome: 'unknown' } });
    // The broker keeps the tag alone: nothing names this write's order.
    expect((await pending()).map((o) => o.remarks)).toEqual([tagged.tag]);
    await sleep(LATE_MS + 100);
    const retry = await place(key, tagged);
    expect(retry.body.error).toMatchObject({ outcome: 'unknown' });
    expect(retry.body.error.message).toMatch(/carries no stamp to find it by/);
    expect(await placeRequests()).toHaveLength(1);
  });

  it('a failure where the broker certainly did not act frees the key for a retry', async () => {
    const key = newKey();
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'rateLimit' });
    expect((await place(key)).body).toMatchObject({ error: { code: 'RATE_LIMITED', outcome: 'not_executed' } });
    const retry = await place(key);
    expect(retry.status).toBe(201);
    expect(retry.body.idempotency).toEqual({ key, replayed: false });
    expect(await pending()).toHaveLength(1);
  });

  it('place without a key is refused before any broker call', async () => {
    const reply = await place(undefined);
    expect(reply).toMatchObject({
      status: 400,
      body: { error: { code: 'VALIDATION_FAILED', details: [{ field: 'Idempotency-Key' }] } },
    });
    expect(await control.requests()).toEqual([]);
  });

  it.each(['', 'has space', 'x'.repeat(129)])('rejects the malformed key %j', async (key) => {
    const reply = await place(key);
    expect(reply.status).toBe(400);
    expect(await control.requests()).toEqual([]);
  });

  it('direct invocations carry the key as idempotencyKey', async () => {
    const key = newKey();
    const invoke = (payload: unknown) => call('POST', '/_invoke/PlaceGTTOrder', payload);
    const first = await invoke({ ...order, idempotencyKey: key });
    const second = await invoke({ ...order, idempotencyKey: key });
    expect(first.body.al_id).toMatch(/^\d+$/);
    expect(second.body).toMatchObject({ al_id: first.body.al_id, idempotency: { replayed: true } });
    expect(await placeRequests()).toHaveLength(1);
  });

  it('modify accepts an optional key and replays it; reads refuse one', async () => {
    const { al_id } = (await place(newKey())).body;
    const key = newKey();
    const m1 = await call('PUT', `/gtt-orders/${al_id}`, { ...order, qty: 6 }, { 'Idempotency-Key': key });
    const m2 = await call('PUT', `/gtt-orders/${al_id}`, { ...order, qty: 6 }, { 'Idempotency-Key': key });
    expect(m1.body.idempotency).toEqual({ key, replayed: false });
    expect(m2.body.idempotency).toEqual({ key, replayed: true });
    expect((await control.requests()).filter((r) => r.operation === 'ModifyGTTOrder')).toHaveLength(1);
    const read = await call('GET', '/gtt-orders', undefined, { 'Idempotency-Key': newKey() });
    expect(read).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED' } } });
  });
});

describe('guardrails through the API', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['quantity above the maximum', { qty: 1001 }, 'maxQty'],
    ['order value above the maximum', { qty: 1000, prc: '100.01' }, 'maxOrderValue'],
    ['a denied symbol', { tsym: 'BANNED-EQ' }, 'symbolsDeny'],
  ])('%s is GUARDRAIL_REJECTED and never reaches the broker', async (_label, change, rule) => {
    const reply = await place(newKey(), { ...order, ...change });
    expect(reply).toMatchObject({ status: 422, body: { error: { code: 'GUARDRAIL_REJECTED', details: { rule } } } });
    expect(await control.requests()).toEqual([]);
  });

  it('an order exactly at the limits is placed', async () => {
    expect((await place(newKey(), { ...order, qty: 1000, prc: '100' })).status).toBe(201);
  });
});

describe('dry run', () => {
  it('returns the exact jData that would be sent, with no broker call and no token', async () => {
    const reply = await place(undefined, order, '?dryRun=true');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      dryRun: true,
      operation: 'PlaceGTTOrder',
      request: {
        method: 'POST',
        url: `${stack.emulator.url}/ClientAPI/PlaceGTTOrder`,
        headers: { 'Content-Type': 'text/plain', Authorization: 'Bearer <redacted>' },
        jData: {
          uid: stack.emulator.uid,
          actid: stack.emulator.actid,
          tsym: 'L%26TFH-EQ',
          qty: '4',
          prc: '160.5',
          d: '158',
        },
      },
    });
    expect(reply.body.request.body).toBe(`jData=${JSON.stringify(reply.body.request.jData)}`);
    expect(JSON.stringify(reply.body)).not.toContain(stack.emulator.token);
    expect(await control.requests()).toEqual([]);
  });

  it('still applies validation and guardrails', async () => {
    expect((await place(undefined, { ...order, qty: 0 }, '?dryRun=true')).status).toBe(400);
    expect((await place(undefined, { ...order, qty: 5000 }, '?dryRun=true')).body.error.code).toBe(
      'GUARDRAIL_REJECTED',
    );
    expect((await call('POST', '/_invoke/CancelGTTOrder', { al_id: '1', dryRun: true })).body).toMatchObject({
      dryRun: true,
    });
    expect((await call('GET', '/gtt-orders?dryRun=true')).status).toBe(400);
    expect(await control.requests()).toEqual([]);
  });
});

describe('audit records', () => {
  it('writes one structured record per order action, never the token', async () => {
    const key = newKey();
    await place(key);
    await place(key);
    await place(newKey(), { ...order, qty: 5000 });
    const audits = logLines
      .filter((l) => l.includes('"order action"'))
      .map((l) => JSON.parse(l) as { audit: Record<string, unknown> });
    expect(audits.map((a) => a.audit.outcome)).toEqual(['succeeded', 'replayed', 'rejected']);
    expect(audits[0]!.audit).toMatchObject({
      action: 'PlaceGTTOrder',
      idempotencyKey: key,
      al_id: expect.stringMatching(/^\d+$/),
      order: { tsym: 'L&TFH-EQ' },
    });
    expect(audits[2]!.audit).toMatchObject({ code: 'GUARDRAIL_REJECTED' });
    for (const line of logLines) expect(line).not.toContain(stack.emulator.token);
  });
});
