/**
 * When the signal queue does not take a signal (docs/explanation/signals.md, "When the queue does not take a signal"): the
 * webhook answers 202 once the signal is recorded, whatever SQS does after, and the SignalWorker's sweep acts on a
 * signal whose message never reached the queue, once. Everything is real but the webhook's queue: a webhook of the
 * local stack's behind a local HTTP API of its own, whose `queue` hands the message to the real local SQS and then
 * answers late, or fails outright; the worker acts through the operation table against the emulator over loopback,
 * on dynalite through the AWS SDK. The emulator's request log and pending list are the proof of what was placed.
 */
import { DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { clearInstrumentCache } from '../../functions/base/broker/instruments.js';
import type { SignalMessage, SignalRecord } from '../../functions/base/schemas/signals.js';
import { SIGNAL_SWEEP } from '../../functions/signals/definitions.js';
import { signalEvent } from '../../functions/signals/events.js';
import { type SignalQueue, sqsQueue } from '../../functions/signals/queue.js';
import { SignalStore } from '../../functions/signals/store.js';
import { SWEEP_AFTER_MS, SWEEP_MAX_AGE_MS, type SweepResult } from '../../functions/signals/sweep.js';
import { createSignalWebhook } from '../../functions/signals/webhook.js';
import { createSignalWorker } from '../../functions/signals/worker.js';
import { LOCAL_EVENTS_TABLE } from '../../local/dynamodb.js';
import { type LocalApi, startLocalApi } from '../../local/http-api.js';
import { lambdaContext } from '../../local/lambda-context.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';
import { captureLogger } from '../support/logs.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';

let stack: LocalStack;
let webhookApi: LocalApi;
let store: SignalStore;
const webhookLog = captureLogger();
const workerLog = captureLogger();

/** What the webhook's SendMessage does in this test; `real` is the local SQS the stack's worker consumes. */
let real: SignalQueue;
let queue: SignalQueue;

/** SQS took the message (the worker acts on it) but answered only after the webhook stopped waiting. */
const lateQueue = (): SignalQueue => ({
  async send(message, signal) {
    await real.send(message);
    await stack.signalQueue.drained();
    if (!signal) throw new Error('the webhook always bounds its wait');
    if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    throw signal.reason;
  },
});
const failingQueue: SignalQueue = {
  send: () => Promise.reject(new Error('SQS SendMessage failed: HTTP 500 (InternalError)')),
};

/** The worker as its schedule runs it, on a clock `ahead` ms in the future (so recorded signals look that old). */
let ahead = 0;
let sweepWorker: ReturnType<typeof createSignalWorker>;
const sweep = async (aheadMs: number): Promise<SweepResult> => {
  ahead = aheadMs;
  return (await sweepWorker(SIGNAL_SWEEP, lambdaContext('SignalWorker', 60_000))) as SweepResult;
};
const AGED = SWEEP_AFTER_MS + 60_000;

beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE, signals: { retryDelayMs: 20 } });
  real = sqsQueue({ queueUrl: stack.signalQueue.queueUrl, endpoint: stack.signalQueue.url });
  const webhook = createSignalWebhook({
    env: stack.config as Record<string, string>,
    logger: webhookLog.logger,
    queue: { send: (message, signal) => queue.send(message, signal) },
  });
  webhookApi = await startLocalApi({
    functions: new Map(),
    routes: [{ method: 'POST', path: '/signals/{id}', name: 'SignalWebhook', handler: webhook, textBody: true }],
  });
  sweepWorker = createSignalWorker({ settings: stack.config, logger: workerLog.logger, now: () => Date.now() + ahead });
  store = new SignalStore({
    tableName: LOCAL_EVENTS_TABLE,
    outboxTableName: stack.dynamo.tableName,
    endpoint: stack.dynamo.url,
  });
});
afterAll(async () => {
  await webhookApi?.close();
  await stack?.close();
});
beforeEach(async () => {
  await emulatorControl(stack.emulator.url).reset();
  clearInstrumentCache();
  ahead = 0;
});

let keys = 0;
/** A strategy placing a GTT at the alert's price less 0.5%; the token of its webhook URL. */
const strategy = async (): Promise<string> => {
  const res = await fetch(`${stack.api.url}/strategies`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': `signals-queue-${++keys}` },
    body: JSON.stringify({
      name: 'queue',
      source: 'tradingview',
      action: {
        kind: 'gtt',
        order: { exch: 'NSE', prd: 'C', qty: 1 },
        trigger: { offset: '-0.5%' },
        price: { offset: '-0.5%' },
      },
    }),
  });
  const body = (await res.json()) as { webhookUrl: string };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.webhookUrl.split('/').pop()!;
};

const post = async (token: string, body: string) => {
  const res = await fetch(`${webhookApi.url}/signals/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const alert = (ticker: string, id: string) =>
  JSON.stringify({ action: 'buy', ticker, exchange: 'NSE', price: 1500, id });

/** The GTTs the broker was asked to place, and holds, for one symbol. */
const placed = async (tsym: string) =>
  (await emulatorControl(stack.emulator.url).requests()).filter(
    (r) => r.operation === 'PlaceGTTOrder' && (r.jData as { tsym?: string } | undefined)?.tsym === tsym,
  ).length;
const pending = async (tsym: string) => {
  const res = await fetch(`${stack.api.url}/gtt-orders?tsym=${encodeURIComponent(tsym)}`);
  return ((await res.json()) as { orders: { tsym: string }[] }).orders.length;
};
const stateOf = async (signalId: string) => (await store.get(signalId))?.signal.state;
/** Which of the sweep's lists name the signal. */
const swept = (result: SweepResult, signalId: string) =>
  Object.entries(result).flatMap(([list, ids]) => (Array.isArray(ids) && ids.includes(signalId) ? [list] : []));

describe('a queue that takes the message but answers after the wait', () => {
  it('202, the same alert again is a duplicate, one GTT at the broker, the signal acted', async () => {
    const token = await strategy();
    queue = lateQueue();
    const lines = webhookLog.lines.length;
    const first = await post(token, alert('INFY', 'late-1'));
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.body).toEqual({
      signalId: expect.stringMatching(/^sg[0-9a-f]{24}$/),
      state: 'received',
      alerts: 1,
      queued: false,
    });
    const signalId = first.body.signalId as string;
    // The worker placed it meanwhile, from the message SQS did take.
    expect(await stateOf(signalId)).toBe('acted');
    expect(await placed('INFY-EQ')).toBe(1);

    const again = await post(token, alert('INFY', 'late-1'));
    expect(again).toEqual({ status: 200, body: { signalId, state: 'received', alerts: 1, duplicate: true } });
    await stack.signalQueue.drained();
    expect(await placed('INFY-EQ')).toBe(1);
    expect(await pending('INFY-EQ')).toBe(1);
    // Nothing is left for the sweep.
    expect(swept(await sweep(AGED), signalId)).toEqual([]);
    expect(await placed('INFY-EQ')).toBe(1);

    const logged = webhookLog.lines.slice(lines).join('\n');
    expect(logged).toContain('"metric":"SignalNotQueued"');
    expect(logged).toContain(signalId);
    expect(logged).not.toContain(token);
  });
});

describe('a queue that fails outright', () => {
  it('202; the sweep acts once after its bound; another sweep and a late delivery do nothing more', async () => {
    const token = await strategy();
    queue = failingQueue;
    const first = await post(token, alert('SBIN', 'fail-1'));
    expect(first).toMatchObject({ status: 202, body: { state: 'received', alerts: 1, queued: false } });
    const signalId = first.body.signalId as string;
    expect(await stateOf(signalId)).toBe('received');
    // Not refused, the claim kept: the same alert again is the same signal.
    expect(await post(token, alert('SBIN', 'fail-1'))).toMatchObject({
      status: 200,
      body: { signalId, duplicate: true },
    });

    // Younger than the bound: left to the queue.
    expect(swept(await sweep(0), signalId)).toEqual([]);
    expect(swept(await sweep(SWEEP_AFTER_MS - 30_000), signalId)).toEqual([]);
    expect(await placed('SBIN-EQ')).toBe(0);
    expect(await stateOf(signalId)).toBe('received');

    expect(swept(await sweep(AGED), signalId)).toEqual(['acted']);
    expect(await stateOf(signalId)).toBe('acted');
    expect(await placed('SBIN-EQ')).toBe(1);

    expect(swept(await sweep(AGED), signalId)).toEqual([]);
    const message: SignalMessage = { signalId, strategyId: (await store.get(signalId))!.signal.strategyId };
    await real.send(message);
    await stack.signalQueue.drained();
    expect(await placed('SBIN-EQ')).toBe(1);
    expect(await pending('SBIN-EQ')).toBe(1);
    expect(stack.signalQueue.deadLetters).toEqual([]);
    await stack.eventsForwarded();
    const events = stack.eventBridge.events.filter((e) => e.detail.signalId === signalId).map((e) => e['detail-type']);
    expect(events).toEqual(['Signal Received', 'Signal Acted']);
  });
});

describe('what the sweep leaves alone, and what it gives up on', () => {
  /** A signal recorded as the webhook records it (state received, its pending marker), for the strategy of `token`. */
  const recorded = async (ticker: string): Promise<SignalRecord> => {
    queue = failingQueue;
    const res = await post(await strategy(), alert(ticker, `${ticker}-${++keys}`));
    expect(res.status).toBe(202);
    return (await store.get(res.body.signalId as string))!.signal;
  };

  it('a completed signal is not acted on again, even with its marker left behind', async () => {
    const signal = await recorded('ITC');
    // Completed as an earlier version's run left it: the record's state written alone, its marker left behind.
    const done = { ...signal, state: 'refused' as const, reason: 'refused elsewhere' };
    await new DynamoDBClient({ endpoint: stack.dynamo.url }).send(
      new UpdateItemCommand({
        TableName: LOCAL_EVENTS_TABLE,
        Key: { pk: { S: 'signal' }, sk: { S: signal.signalId } },
        UpdateExpression: 'SET #state = :state, #signal = :signal',
        ExpressionAttributeNames: { '#state': 'state', '#signal': 'signal' },
        ExpressionAttributeValues: { ':state': { S: 'refused' }, ':signal': { S: JSON.stringify(done) } },
      }),
    );
    const strategyOf = { strategyId: signal.strategyId, name: 'queue', source: 'tradingview', mode: 'live' } as const;
    // A completion now is refused: the record is not received any more.
    expect(await store.complete(done, signalEvent('Signal Refused', done, strategyOf))).toBe(false);
    expect(swept(await sweep(AGED), signal.signalId)).toEqual(['alreadyDone']);
    expect(swept(await sweep(AGED), signal.signalId)).toEqual([]);
    expect(await stateOf(signal.signalId)).toBe('refused');
    expect(await placed('ITC-EQ')).toBe(0);
  });

  it('a marker whose signal was never written is dropped', async () => {
    const signal = await recorded('TCS');
    await store.remove(signal.signalId);
    expect(swept(await sweep(AGED), signal.signalId)).toEqual(['unknown']);
    expect(swept(await sweep(AGED), signal.signalId)).toEqual([]);
    expect(await placed('TCS-EQ')).toBe(0);
  });

  it('a signal pending longer than the maximum age is given up: not acted on, left received, the run fails', async () => {
    const signal = await recorded('WIPRO');
    const lines = workerLog.lines.length;
    ahead = SWEEP_MAX_AGE_MS + 60_000;
    const run = sweepWorker(SIGNAL_SWEEP, lambdaContext('SignalWorker', 60_000));
    await expect(run).rejects.toThrow(/INTERNAL_ERROR/);
    await expect(run).rejects.toThrow(signal.signalId);
    expect(await stateOf(signal.signalId)).toBe('received');
    expect(await placed('WIPRO-EQ')).toBe(0);
    expect(workerLog.lines.slice(lines).join('\n')).toContain('"metric":"SignalNotActed"');
    // Its marker is gone: the next run has nothing more to say of it.
    expect(swept(await sweep(SWEEP_MAX_AGE_MS + 60_000), signal.signalId)).toEqual([]);
  });

  it('anything but {"sweep": true} and an SQS event is refused by name; nothing is done', async () => {
    const signal = await recorded('LT');
    ahead = AGED;
    for (const payload of [{}, { sweep: false }, { sweep: true, dryRun: true }, 'sweep']) {
      const error = await sweepWorker(payload, lambdaContext('SignalWorker', 60_000)).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.name, JSON.stringify(payload)).toBe('ValidationFailed');
      expect(JSON.parse(error!.message)).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
    expect(await stateOf(signal.signalId)).toBe('received');
    expect(await placed('LT-EQ')).toBe(0);
    // Still there for the sweep proper.
    expect(swept(await sweep(AGED), signal.signalId)).toEqual(['acted']);
  });
});
