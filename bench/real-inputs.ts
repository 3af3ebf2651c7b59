/**
 * Real inputs for the functions no example can drive: a strategy and its webhook token (made through the local
 * API), a signal recorded by the webhook and queued (a message the SignalWorker has not acted on: it went to a
 * queue of the bench's own, local/sqs.ts, that only keeps it), and the stream record of a real outbox item (a
 * completed order's idempotency record, as the EventForwarder's event source delivers it). Loopback only.
 */
import type { SQSEvent } from 'aws-lambda';

import { functionNamed } from '../functions/manifest/index.js';
import { SIGNAL_WEBHOOK } from '../functions/signals/definitions.js';
import { createSignalWebhook } from '../functions/signals/webhook.js';
import type { StreamRecord } from '../local/dynamodb-streams.js';
import { environmentFor } from '../local/functions.js';
import { lambdaContext } from '../local/lambda-context.js';
import type { LocalStack } from '../local/run-local.js';
import { type LocalQueue, startLocalQueue } from '../local/sqs.js';
import { routeRequest } from './cold-probe.js';

/** A strategy that places a live GTT for each alert, at the webhook's highest rate (600 a minute). */
const STRATEGY = {
  name: 'bench',
  source: 'tradingview',
  ratePerMinute: 600,
  action: { kind: 'gtt', order: { exch: 'NSE', prd: 'C', qty: 1 }, trigger: { offset: '0' }, price: { offset: '0' } },
};

export interface RealInputs {
  /** A bench queue that keeps every message sent to it (nothing acts on them). */
  queue: LocalQueue;
  /** A fresh strategy's webhook token (each takes 600 signals a minute). */
  strategyToken(): Promise<string>;
  /** The MCP server's request of an assistant (made through the local API, read scope): its bearer token sent. */
  mcpEvent(): Promise<unknown>;
  /** The HTTP API event of one new TradingView alert to `token` (a fresh alert id: never a duplicate). */
  webhookEvent(token: string): unknown;
  /** A signal recorded and queued by the webhook, as the SQS event the SignalWorker gets (not acted on yet). */
  queuedSignal(): Promise<SQSEvent>;
  /** The stream batch of the last completed outbox item the stack wrote (an order placed through it). */
  outboxBatch(): Promise<{ Records: StreamRecord[] }>;
  /** The last lifecycle event the stack's bus took (as a webhook rule hands it to the NotifyFormatter). */
  lifecycleEvent(): Promise<unknown>;
}

let seq = 0;
export const alertBody = () =>
  JSON.stringify({ action: 'buy', ticker: 'INFY', exchange: 'NSE', price: 1500, id: `bench-${process.pid}-${++seq}` });

export const startRealInputs = async (stack: LocalStack): Promise<RealInputs> => {
  const kept: string[] = [];
  const queue = await startLocalQueue({
    consumer: (event) => {
      for (const record of event.Records) kept.push(record.body);
      return Promise.resolve();
    },
  });
  const records: StreamRecord[] = [];
  stack.dynamo.streams.subscribe({
    table: stack.dynamo.tableName,
    filter: (record) => record.dynamodb.NewImage?.status?.S === 'COMPLETED',
    handler: (batch) => {
      records.push(...batch.Records);
      return Promise.resolve();
    },
  });
  const strategyToken = async () => {
    const res = await fetch(`${stack.api.url}/strategies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': `bench-strategy-${process.pid}-${++seq}` },
      body: JSON.stringify(STRATEGY),
    });
    const body = (await res.json()) as { webhookUrl?: string };
    if (res.status !== 201 || !body.webhookUrl)
      throw new Error(`bench: POST /strategies answered ${res.status} ${JSON.stringify(body)}`);
    return body.webhookUrl.split('/').pop()!;
  };
  let assistantToken: Promise<string> | undefined;
  const newAssistant = async () => {
    const res = await fetch(`${stack.api.url}/assistants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': `bench-assistant-${process.pid}-${++seq}` },
      body: JSON.stringify({ name: 'bench', scopes: ['read'] }),
    });
    const body = (await res.json()) as { token?: string };
    if (res.status !== 201 || !body.token)
      throw new Error(`bench: POST /assistants answered ${res.status} ${JSON.stringify(body)}`);
    return body.token;
  };
  const mcpEvent = async () => {
    const entry = functionNamed('McpServer');
    const route = entry?.routes[0];
    if (!route) throw new Error('bench: the manifest has no McpServer route to probe');
    const event = routeRequest(route) as { headers: Record<string, string> };
    return {
      ...event,
      headers: {
        ...event.headers,
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${await (assistantToken ??= newAssistant())}`,
      },
    };
  };
  const webhookEvent = (token: string) => {
    const event = routeRequest({
      method: 'POST',
      path: '/signals/{token}',
      example: { path: { token }, body: {} },
    } as never) as Record<string, unknown>;
    return { ...event, rawPath: `/signals/${token}`, body: alertBody() };
  };
  const webhook = createSignalWebhook({
    // Its own environment, as the local runner builds it, with the bench's queue in place of the stack's.
    env: environmentFor(SIGNAL_WEBHOOK, {
      ...stack.local,
      values: { ...stack.local.values, signalQueueUrl: queue.queueUrl, sqsEndpoint: queue.url },
    }),
  });
  let token: Promise<string> | undefined;
  const queuedSignal = async (): Promise<SQSEvent> => {
    const reply = (await webhook(webhookEvent(await (token ??= strategyToken())) as never, lambdaContext('bench'))) as {
      statusCode: number;
      body: string;
    };
    if (reply.statusCode !== 202) throw new Error(`bench: the webhook answered ${reply.statusCode} ${reply.body}`);
    await queue.drained();
    const body = kept.pop();
    if (!body) throw new Error('bench: the webhook queued no message');
    return {
      Records: [
        {
          messageId: `bench-${++seq}`,
          receiptHandle: `bench-${seq}`,
          body,
          attributes: {
            ApproximateReceiveCount: '1',
            SentTimestamp: String(Date.now()),
            SenderId: 'local',
            ApproximateFirstReceiveTimestamp: String(Date.now()),
          },
          messageAttributes: {},
          md5OfBody: '',
          eventSource: 'aws:sqs',
          eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:signals',
          awsRegion: 'us-east-1',
        },
      ],
    };
  };
  const outboxBatch = async () => {
    await stack.eventsForwarded();
    const record = records.at(-1);
    if (!record) throw new Error('bench: no completed outbox item on the stream yet');
    return { Records: [record] };
  };
  const lifecycleEvent = async () => {
    await stack.eventsForwarded();
    const event = stack.eventBridge.events.findLast((e) => /^GTT /.test(e['detail-type']));
    if (!event) throw new Error('bench: the bus took no lifecycle event yet');
    return event;
  };
  return { queue, strategyToken, mcpEvent, webhookEvent, queuedSignal, outboxBatch, lifecycleEvent };
};
