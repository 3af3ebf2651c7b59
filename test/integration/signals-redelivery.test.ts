/**
 * A signal delivered again after its strategy was edited (issue 52, defect 3; docs/reference/signals.md, "One alert, one
 * order"): the first delivery places the first symbol's GTT and meets the broker's rate limit on the second, the
 * trader PATCHes the strategy's action, and the next delivery must act with the strategy the signal was received
 * under, so each alert's key stands for one order whatever the action is now. Real handlers: a webhook of the
 * local stack's whose queue keeps the message (the test delivers it), the SignalWorker as SQS invokes it, the
 * Strategies function over the local API, the emulator over loopback and dynalite.
 */
import { DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { clearInstrumentCache } from '../../functions/base/broker/instruments.js';
import type { SignalMessage } from '../../functions/base/schemas/signals.js';
import { createSignalWebhook } from '../../functions/signals/webhook.js';
import { createSignalWorker } from '../../functions/signals/worker.js';
import { LOCAL_EVENTS_TABLE } from '../../local/dynamodb.js';
import { type LocalApi, startLocalApi } from '../../local/http-api.js';
import { lambdaContext } from '../../local/lambda-context.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { captureLogger } from '../support/logs.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';

let stack: LocalStack;
let webhookApi: LocalApi;
let worker: ReturnType<typeof createSignalWorker>;
/** The messages the webhook queued: this test delivers them itself, when it chooses. */
const queued: SignalMessage[] = [];
let keys = 0;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies read field by field
type Json = Record<string, any>;
const api = localApi<Json>(() => stack.api.url);
const control = () => emulatorControl(stack.emulator.url);

const ORDER = { exch: 'NSE', prd: 'C', prctyp: 'LMT', ret: 'DAY', qty: 1 };
const off = (offset: string) => ({ offset });
const GTT = { kind: 'gtt', order: ORDER, trigger: off('-0.5%'), price: off('-0.5%') };
const ACTIONS: Record<string, Json> = {
  bracket: {
    kind: 'bracket',
    order: ORDER,
    entry: { trigger: off('-1%'), price: off('-1%') },
    target: { trigger: off('+3%'), price: off('+3%') },
    stopLoss: { trigger: off('-3%'), price: off('-3%') },
  },
  // A buy alert's OCO closes a short: its target below the price, its stop above.
  oco: {
    kind: 'oco',
    order: ORDER,
    target: { trigger: off('-2%'), price: off('-2%') },
    stopLoss: { trigger: off('+1%'), price: off('+1%') },
  },
  'trailing-stop': { kind: 'trailing-stop', order: ORDER, trigger: off('-2%'), price: off('-2.5%'), trailBy: '10' },
};
/** One alert of two symbols, as Amibroker (or any tool) posts it. */
const TWO_SYMBOLS = [
  { action: 'buy', symbol: 'INFY', exchange: 'NSE', price: 1500 },
  { action: 'buy', symbol: 'TCS', exchange: 'NSE', price: 4000 },
];

/** The plans of the account (ended or not), by id. */
const plans = async () =>
  ((await api('GET', '/plans?limit=100')).body.plans as Json[]).map((p) => p.planId as string).sort();

/** A delivery of the message, as SQS invokes the worker: whether it asked for the message again. */
const deliver = async (message: SignalMessage): Promise<'done' | 'again'> => {
  const reply = (await worker(
    { Records: [{ messageId: `m${++keys}`, body: JSON.stringify(message) }] },
    lambdaContext('SignalWorker', 60_000),
  )) as { batchItemFailures: unknown[] };
  return reply.batchItemFailures.length ? 'again' : 'done';
};
const brokerWrites = async () =>
  (await control().requests()).filter((r) => r.operation === 'PlaceGTTOrder' || r.operation === 'PlaceOCOOrder');
/** The writes the broker carried out (not the ones its rate limit refused). */
const carriedOut = async () =>
  (await brokerWrites()).filter((r) => /created/i.test(String((r.reply as { stat?: string } | undefined)?.stat)));

beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE });
  const webhook = createSignalWebhook({
    env: stack.config as Record<string, string>,
    logger: captureLogger().logger,
    queue: { send: async (message) => void queued.push(message) },
  });
  webhookApi = await startLocalApi({
    functions: new Map(),
    routes: [{ method: 'POST', path: '/signals/{id}', name: 'SignalWebhook', handler: webhook, textBody: true }],
  });
  worker = createSignalWorker({ settings: stack.config, logger: captureLogger().logger });
});
afterAll(async () => {
  await webhookApi?.close();
  await stack?.close();
});
beforeEach(async () => {
  await control().reset();
  clearInstrumentCache();
  queued.length = 0;
});

/** A strategy placing GTTs, and a signal of two symbols recorded by its webhook: the strategy's id and the message. */
const gttSignal = async () => {
  const created = await api(
    'POST',
    '/strategies',
    { name: 'redelivery', source: 'generic', action: GTT },
    { 'Idempotency-Key': `signals-redelivery-${++keys}-${Date.now()}` },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const token = (created.body.webhookUrl as string).split('/').pop()!;
  const post = async (body: unknown) => {
    const posted = await fetch(`${webhookApi.url}/signals/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(posted.status).toBe(202);
    return queued.at(-1)!;
  };
  return { strategyId: created.body.strategyId as string, message: await post(TWO_SYMBOLS), post };
};

/**
 * The first delivery places the first symbol and meets the broker's rate limit on the second; the strategy's action
 * is PATCHed to `kind`; the second delivery completes the signal. Asserts one single GTT per alert, nothing else.
 */
const editedBetweenDeliveries = async (strategyId: string, message: SignalMessage, kind: string) => {
  // The first place goes through (a short delay, consumed by it); the broker's rate limit meets the second.
  await control().fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 1, times: 1 });
  await control().fault({ operation: 'PlaceGTTOrder', kind: 'rateLimit', times: 1 });
  expect(await deliver(message)).toBe('again');
  const first = await carriedOut();
  expect(first.map((r) => r.jData!.tsym)).toEqual(['INFY-EQ']);

  // The trader changes what the strategy does before the queue delivers the message again.
  const patched = await api('PATCH', `/strategies/${strategyId}`, { action: ACTIONS[kind] });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  expect(patched.body.action.kind).toBe(kind);

  const plansBefore = await plans();
  expect(await deliver(message)).toBe('done');
  const signal = (await api('GET', `/signals/${message.signalId}`)).body;
  expect(signal, JSON.stringify(signal)).toMatchObject({
    state: 'acted',
    results: [
      { tsym: 'INFY-EQ', alId: (first[0]!.reply as { al_id: string }).al_id },
      { tsym: 'TCS-EQ', alId: expect.any(String) },
    ],
  });
  expect(signal.results[0].detail).toMatch(/\(replayed\)$/);
  // One entry per alert: two single GTTs, as the strategy said when the signal was received; no plan, no OCO.
  const writes = await carriedOut();
  expect(writes.map((r) => [r.operation, r.jData!.tsym])).toEqual([
    ['PlaceGTTOrder', 'INFY-EQ'],
    ['PlaceGTTOrder', 'TCS-EQ'],
  ]);
  expect(await plans()).toEqual(plansBefore);
  const pending = (await api('GET', '/gtt-orders?limit=1000')).body.orders as Json[];
  expect(pending.map((o) => o.tsym).sort()).toEqual(['INFY-EQ', 'TCS-EQ']);
};

describe('a strategy edited between two deliveries of one signal', () => {
  it.each(Object.keys(ACTIONS))(
    'gtt, then PATCHed to %s: the redelivery acts as the first did; one order per alert',
    async (kind) => {
      const { strategyId, message, post } = await gttSignal();
      await editedBetweenDeliveries(strategyId, message, kind);

      // A signal received after the edit acts with the strategy as it is now.
      const next = await post([{ ...TWO_SYMBOLS[0], price: 1510 }]);
      expect(await deliver(next)).toBe('done');
      const now = (await api('GET', `/signals/${next.signalId}`)).body;
      expect(now.state, JSON.stringify(now)).toBe('acted');
      if (kind === 'oco') expect((await carriedOut()).at(-1)!.operation).toBe('PlaceOCOOrder');
      else expect(now.results[0].planId).toMatch(/^pl[0-9a-f]{16}$/);
    },
  );

  it('a signal recorded without its strategy (an earlier webhook): the first delivery records it; the same', async () => {
    const { strategyId, message } = await gttSignal();
    await new DynamoDBClient({ endpoint: stack.dynamo.url }).send(
      new UpdateItemCommand({
        TableName: LOCAL_EVENTS_TABLE,
        Key: { pk: { S: 'signal' }, sk: { S: message.signalId } },
        UpdateExpression: 'REMOVE actedWith',
      }),
    );
    await editedBetweenDeliveries(strategyId, message, 'bracket');
  });
});
