/**
 * A small local endpoint for the signal queue: SQS's `SendMessage` in the AWS JSON 1.0 protocol (`POST /`,
 * `X-Amz-Target: AmazonSQS.SendMessage`), as the webhook sends it (functions/signals/queue.ts). Each message is
 * handed to the consumer in-process as the deployed event source mapping hands it to the SignalWorker: an SQS event
 * of one record, delivered again after a failure it reports (`batchItemFailures`) or throws, up to `maxReceives`
 * times (the queue's maxReceiveCount), then kept in `deadLetters`. Messages are delivered one at a time, in order.
 */
import { randomUUID } from 'node:crypto';

import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';

import type { SignalActor } from '../functions/signals/signal-actor.js';
import { createSignalWorker } from '../functions/signals/worker.js';
import { type AwsJsonGuard, awsJsonServer, failAwsJson, replyAwsJson } from './aws-json.js';
import { ownFunctionLogger } from './functions.js';
import type { LocalHandler } from './http-api.js';
import { listenOnLoopback } from './loopback.js';
import type { EndpointAuthorizer } from './permissions/gate.js';

export interface LocalQueueMessage {
  messageId: string;
  body: string;
}

export interface LocalQueue {
  url: string;
  /** From now on a function's request is first held to its deployed permissions (local/permissions/). */
  guard(authorize: EndpointAuthorizer): void;
  /** The queue's URL, as the webhook's SIGNAL_QUEUE_URL names it. */
  queueUrl: string;
  /** Every message sent, oldest first. */
  sent: LocalQueueMessage[];
  /** Messages the consumer failed on `maxReceives` times. */
  deadLetters: LocalQueueMessage[];
  /** Resolves once every message sent so far was consumed (or dead-lettered). */
  drained(): Promise<void>;
  close(): Promise<void>;
}

export interface LocalQueueOptions {
  consumer: (event: SQSEvent) => Promise<SQSBatchResponse | void>;
  port?: number;
  /** Deliveries before a message goes to the dead letters (the deployed queue's maxReceiveCount: 3). */
  maxReceives?: number;
  /** The wait before a delivery again (the visibility timeout, shortened here). */
  retryDelayMs?: number;
  onDeadLetter?: (message: LocalQueueMessage, reason: string) => void;
}

const ARN = 'arn:aws:sqs:us-east-1:000000000000:signals';

const eventOf = (message: LocalQueueMessage, receives: number): SQSEvent => ({
  Records: [
    {
      messageId: message.messageId,
      receiptHandle: `${message.messageId}#${receives}`,
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(receives),
        SentTimestamp: String(Date.now()),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: ARN,
      awsRegion: 'us-east-1',
    },
  ],
});

export const startLocalQueue = async (options: LocalQueueOptions): Promise<LocalQueue> => {
  const sent: LocalQueueMessage[] = [];
  const deadLetters: LocalQueueMessage[] = [];
  const maxReceives = options.maxReceives ?? 3;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;

  const deliver = async (message: LocalQueueMessage) => {
    let reason = '';
    for (let receives = 1; receives <= maxReceives && !closed; receives++) {
      try {
        const reply = await options.consumer(eventOf(message, receives));
        const failed = (reply?.batchItemFailures ?? []).some((f) => f.itemIdentifier === message.messageId);
        if (!failed) return;
        reason = 'reported as failed';
      } catch (error) {
        reason = (error as Error).message;
      }
      if (receives < maxReceives) await new Promise((r) => setTimeout(r, options.retryDelayMs ?? 200));
    }
    if (closed) return;
    deadLetters.push(message);
    options.onDeadLetter?.(message, reason);
  };

  let queueUrl = '';
  const guard: AwsJsonGuard = {};
  const server = awsJsonServer({
    guard,
    targets: ['AmazonSQS.SendMessage'],
    maxBody: 300 * 1024,
    tooLarge: ['InvalidParameterValue', 'The message is larger than the queue takes'],
    handle: (_target, input, res) => {
      const { QueueUrl, MessageBody } = (input ?? {}) as { QueueUrl?: unknown; MessageBody?: unknown };
      if (QueueUrl !== queueUrl)
        return failAwsJson(res, 400, 'AWS.SimpleQueueService.NonExistentQueue', 'The queue does not exist');
      if (typeof MessageBody !== 'string' || !MessageBody)
        return failAwsJson(res, 400, 'MissingParameter', 'MessageBody is required');
      const message = { messageId: randomUUID(), body: MessageBody };
      sent.push(message);
      chain = chain.then(() => deliver(message));
      replyAwsJson(res, 200, { MessageId: message.messageId, MD5OfMessageBody: '' });
    },
  });
  const listening = await listenOnLoopback(server, options.port ?? 0);
  queueUrl = `${listening.url}/000000000000/signals`;
  return {
    guard: (authorize) => (guard.current = authorize),
    url: listening.url,
    queueUrl,
    sent,
    deadLetters,
    drained: async () => {
      let last: Promise<void> | undefined;
      while (last !== chain) {
        last = chain;
        await last;
      }
    },
    close: async () => {
      closed = true;
      await listening.close();
    },
  };
};

/** The local stack's signal options: an actor of its own (tests), the retry wait, where dead letters are told. */
export interface LocalSignalOptions {
  actor?: SignalActor;
  retryDelayMs?: number;
  onDeadLetter?: (message: LocalQueueMessage, reason: string) => void;
}

type Consumer = LocalQueueOptions['consumer'];

/**
 * The signal queue, started before its consumer exists: the SignalWorker is built from the stack's environment,
 * which names this queue (`consumeWith` binds it).
 */
export const startSignalQueue = async (options: LocalSignalOptions = {}) => {
  let consumer: Consumer | undefined;
  const queue = await startLocalQueue({
    consumer: (event) => consumer!(event),
    ...(options.retryDelayMs !== undefined ? { retryDelayMs: options.retryDelayMs } : {}),
    ...(options.onDeadLetter ? { onDeadLetter: options.onDeadLetter } : {}),
  });
  return { queue, consumeWith: (c: Consumer) => (consumer = c) };
};

/**
 * The SignalWorker in-process, with a logger and a Lambda context of its own per run: the queue's consumer, and the
 * handler its schedule (the sweep) and direct invocations reach.
 */
export const localSignalWorker = (
  env: Record<string, string>,
  actor?: SignalActor,
): { consumer: Consumer; handler: LocalHandler } => {
  const log = ownFunctionLogger('SignalWorker');
  const worker = createSignalWorker({ settings: env, logger: log.logger, ...(actor ? { actor } : {}) });
  return {
    // An SQS event is always answered with its batch response.
    consumer: (event) => worker(event, log.begin()) as Promise<SQSBatchResponse>,
    handler: (event, context) => worker(event, log.begin(context)),
  };
};
