/**
 * What one signal costs in DynamoDB calls (docs/reference/signals.md, "The webhook"), counted at the local DynamoDB: the
 * SignalWebhook and the SignalWorker of the local stack each reach it through a proxy of their own that counts
 * the calls it passes on. The webhook acknowledges with one transaction once its container has read the strategy
 * (two calls the first time); the worker reads the signal and its strategy and completes it in one transaction. The
 * actor records and places nothing, so only the signal's own calls are counted (an order's are the order core's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SignalActor } from '../../functions/signals/signal-actor.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type DynamoFaultProxy, startDynamoFaultProxy } from '../support/dynamo-fault-proxy.js';
import { GTT_STRATEGY_INPUT } from '../support/signals.js';

let stack: LocalStack;
let webhookDb: DynamoFaultProxy;
let workerDb: DynamoFaultProxy;
let keys = 0;
const actor: SignalActor = (signal) =>
  Promise.resolve({ state: 'acted', results: signal.alerts.map((a) => ({ ticker: a.ticker ?? '?', dryRun: true })) });

beforeAll(async () => {
  webhookDb = await startDynamoFaultProxy();
  workerDb = await startDynamoFaultProxy();
  stack = await startLocalStack({
    signals: { actor, retryDelayMs: 20 },
    overrides: {
      SignalWebhook: { DYNAMODB_ENDPOINT: webhookDb.url },
      SignalWorker: { DYNAMODB_ENDPOINT: workerDb.url },
    },
  });
  webhookDb.target = stack.dynamo.url;
  workerDb.target = stack.dynamo.url;
});
afterAll(async () => {
  await stack?.close();
  await webhookDb?.close();
  await workerDb?.close();
});

const strategy = async (extra: Record<string, unknown> = {}) => {
  const res = await fetch(`${stack.api.url}/strategies`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': `signals-calls-${++keys}` },
    body: JSON.stringify({
      name: 'calls',
      ...GTT_STRATEGY_INPUT,
      ...extra,
    }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { strategyId: string; webhookUrl: string };
};

const post = async (url: string, id: string) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'buy', ticker: 'INFY', exchange: 'NSE', price: 1500, id }),
  });
  return { status: res.status, body: (await res.json()) as { signalId?: string; duplicate?: boolean } };
};

/** The calls `f` made at each proxy, once the worker is done with what it queued. */
const counted = async <T>(f: () => Promise<T>) => {
  const w = webhookDb.calls.length;
  const k = workerDb.calls.length;
  const result = await f();
  await stack.signalQueue.drained();
  return { result, webhook: webhookDb.calls.slice(w), worker: workerDb.calls.slice(k) };
};

describe('DynamoDB calls per signal', () => {
  it('a first signal is two calls at the webhook, a warm one one; the worker three; the same alert again one', async () => {
    const { webhookUrl } = await strategy();
    const first = await counted(() => post(webhookUrl, 'calls-1'));
    expect(first.result.status).toBe(202);
    expect(first.webhook).toEqual(['GetItem', 'TransactWriteItems']);
    expect(first.worker).toEqual(['GetItem', 'GetItem', 'TransactWriteItems']);

    const warm = await counted(() => post(webhookUrl, 'calls-2'));
    expect(warm.result.status).toBe(202);
    expect(warm.webhook).toEqual(['TransactWriteItems']);
    expect(warm.worker).toEqual(['GetItem', 'GetItem', 'TransactWriteItems']);

    // The duplicate's first signal comes back with the cancelled transaction: no read, no message, no worker.
    const again = await counted(() => post(webhookUrl, 'calls-2'));
    expect(again.result).toEqual({
      status: 200,
      body: expect.objectContaining({ signalId: warm.result.body.signalId, duplicate: true }) as unknown,
    });
    expect(again.webhook).toEqual(['TransactWriteItems']);
    expect(again.worker).toEqual([]);
  });

  it('a token rotated after its strategy was read is refused at once: the write fails, one read, 401', async () => {
    const { webhookUrl, strategyId } = await strategy();
    expect((await post(webhookUrl, 'rot-1')).status).toBe(202);
    const sent = stack.signalQueue.sent.length;
    const rotated = await fetch(`${stack.api.url}/strategies/${strategyId}/token`, { method: 'POST' });
    expect(rotated.status).toBe(200);
    const old = await counted(() => post(webhookUrl, 'rot-2'));
    expect(old.result.status).toBe(401);
    expect(old.webhook).toEqual(['TransactWriteItems', 'GetItem']);
    // Nothing recorded, nothing queued; the old URL stays refused, one read each time (not remembered).
    expect(stack.signalQueue.sent.length).toBe(sent);
    const later = await counted(() => post(webhookUrl, 'rot-3'));
    expect(later.result.status).toBe(401);
    expect(later.webhook).toEqual(['GetItem']);
  });

  it("a refusal by the strategy's allowlist is confirmed by a read, never answered from the copy alone", async () => {
    const { webhookUrl } = await strategy({ allowIps: ['10.1.2.3'] });
    for (const id of ['ip-1', 'ip-2']) {
      const refused = await counted(() => post(webhookUrl, id));
      expect(refused.result.status).toBe(403);
      expect(refused.webhook).toEqual(['GetItem']);
    }
  });
});
