/**
 * Signals (functions/signals/): the webhook's warm acknowledgement through the local HTTP API against a bare
 * TransactWriteItems of the same items (the webhook's own transaction, as the counting proxy saw it, with fresh keys,
 * sent from this process by bench/peer/floor.mjs) and a trivial route of the same API (GET /_local/emulator),
 * interleaved (the API's calls over one keep-alive connection); the DynamoDB calls
 * and round trips before each acknowledgement (the SignalWebhook bundle warm, behind the counting proxy); and the
 * DynamoDB calls of one signal end to end (webhook, queue, SignalWorker placing its GTT, EventForwarder), counted
 * at the local stack's DynamoDB. Every reply is checked: a webhook answer other than 202, or a signal the worker
 * gave up on, fails the run.
 */
import { Agent, request } from 'node:http';

import type { LocalStack } from '../local/run-local.js';
import { deployedFunctions, localEnv } from './cold-probe.js';
import { attribute, startDynamoCounter } from './dynamo-counter.js';
import { alertBody, startRealInputs } from './real-inputs.js';
import { FLOOR_MODULE, percentile, round, warmProbe } from './warm.js';

/**
 * Issue 54: the webhook's acknowledgement at most 2x a bare TransactWriteItems of the same items (p50, same run), with
 * at most two DynamoDB calls (and the queue send).
 */
export const SIGNAL_TARGET = { ackOverBareRatio: 2, dynamoCalls: 2 };

interface BareDynamo {
  call(action: string, input: unknown): Promise<string>;
  close(): void;
}

/**
 * The webhook's transaction made new: every Put's key and every Update's key get a fresh suffix (new items, so each
 * condition holds as it did for the webhook), the ConditionCheck on the strategy's token item stays as it was, and the
 * request token goes (a token reused with other items is refused).
 */
const freshItems = (body: string, n: number, keysOf: (table: string) => string[]): unknown => {
  const input = JSON.parse(body) as { TransactItems: Record<string, { TableName: string; [k: string]: unknown }>[] };
  const suffix = (values: Record<string, { S?: string }>, names: string[]) =>
    Object.fromEntries(
      Object.entries(values).map(([name, value]) => [
        name,
        names.includes(name) && value.S !== undefined ? { S: `${value.S}#bare-${n}` } : value,
      ]),
    );
  return {
    TransactItems: input.TransactItems.map((item) => {
      const [kind, op] = Object.entries(item)[0]!;
      if (kind === 'Put')
        return { Put: { ...op, Item: suffix(op.Item as Record<string, { S?: string }>, keysOf(op.TableName)) } };
      if (kind === 'Update' || kind === 'Delete') {
        const key = op.Key as Record<string, { S?: string }>;
        return { [kind]: { ...op, Key: suffix(key, Object.keys(key)) } };
      }
      return item;
    }),
  };
};
const COUNTED = 30;
const END_TO_END = 20;
/** A strategy takes 600 signals a minute: a new one every 500. */
const PER_STRATEGY = 500;

const call = (agent: Agent, url: string, method: string, body?: string) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent,
        headers:
          body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });

export const measureSignals = async (stack: LocalStack, iterations: number) => {
  const inputs = await startRealInputs(stack);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const counter = await startDynamoCounter(stack.dynamo.url);
  let bare: BareDynamo | undefined;
  try {
    // 1. DynamoDB before each acknowledgement: the webhook's bundle warm, its messages kept by the bench's queue;
    // its transaction is the bare comparator's template.
    const fn = deployedFunctions().find((f) => f.name === 'SignalWebhook');
    if (!fn) throw new Error('bench: SignalWebhook is not a function of the synthesized stack');
    let perAck: ReturnType<typeof attribute> = [];
    {
      const counted = await inputs.strategyToken();
      const items = Array.from({ length: COUNTED + 1 }, () => ({ gateway: inputs.webhookEvent(counted) }));
      const env = localEnv(stack, fn, {
        dynamodbEndpoint: counter.url,
        signalQueueUrl: inputs.queue.queueUrl,
        sqsEndpoint: inputs.queue.url,
      });
      const out = await warmProbe('the SignalWebhook bundle', fn.file, items, env);
      perAck = attribute(counter.calls, out.marks);
    }

    const template = counter.calls.findLast((c) => c.action === 'TransactWriteItems')?.body;
    if (!template) throw new Error('bench: the webhook made no TransactWriteItems to compare with');
    const keysOf = (table: string) => [stack.dynamo.partitionKeyOf(table), 'sk'];
    const { floorWrites } = (await import(FLOOR_MODULE)) as {
      floorWrites(o: { endpoint: string; table: string; credentials: object }): BareDynamo;
    };
    bare = floorWrites({
      endpoint: stack.dynamo.url,
      table: stack.dynamo.tableName,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });

    // 2. The acknowledgement against the bare transaction and a trivial route (through the same local API).
    const ack: number[] = [];
    const trivial: number[] = [];
    const bareAck: number[] = [];
    let token = '';
    for (let i = 0; i <= iterations; i++) {
      if (i % PER_STRATEGY === 0) token = await inputs.strategyToken();
      const post = async () => {
        const t = performance.now();
        const res = await call(agent, `${stack.api.url}/signals/${token}`, 'POST', alertBody());
        if (res.status !== 202) throw new Error(`bench: the webhook answered ${res.status} ${res.text.slice(0, 200)}`);
        if (i > 0) ack.push(performance.now() - t);
      };
      const get = async () => {
        const t = performance.now();
        const res = await call(agent, `${stack.api.url}/_local/emulator`, 'GET');
        if (res.status !== 200) throw new Error(`bench: GET /_local/emulator answered ${res.status}`);
        if (i > 0) trivial.push(performance.now() - t);
      };
      const transact = async () => {
        const t = performance.now();
        await bare!.call('TransactWriteItems', freshItems(template, i, keysOf));
        if (i > 0) bareAck.push(performance.now() - t);
      };
      const order = [
        [post, get, transact],
        [get, transact, post],
        [transact, post, get],
      ][i % 3]!;
      for (const step of order) await step();
      // The worker acts on the signal and the forwarder publishes its events before the next pair is timed.
      await stack.signalQueue.drained();
      await stack.eventsForwarded();
    }
    if (stack.signalQueue.deadLetters.length)
      throw new Error(`bench: the SignalWorker gave up on ${stack.signalQueue.deadLetters.length} signals`);

    // 3. One signal end to end, counted at the stack's DynamoDB: webhook, worker (and its order), forwarder.
    const endToEnd: number[] = [];
    token = await inputs.strategyToken();
    for (let i = 0; i < END_TO_END; i++) {
      const before = stack.dynamo.streams.calls.length;
      const res = await call(agent, `${stack.api.url}/signals/${token}`, 'POST', alertBody());
      if (res.status !== 202) throw new Error(`bench: the webhook answered ${res.status} ${res.text.slice(0, 200)}`);
      await stack.signalQueue.drained();
      await stack.eventsForwarded();
      endToEnd.push(stack.dynamo.streams.calls.length - before);
    }
    const ackP50 = percentile(ack, 50);
    const calls = perAck.length
      ? percentile(
          perAck.map((c) => c.before),
          50,
        )
      : -1;
    return {
      acknowledgements: iterations,
      ackP50Ms: round(ackP50, 3),
      ackP99Ms: round(percentile(ack, 99), 3),
      trivialP50Ms: round(percentile(trivial, 50), 3),
      ratioP50: round(ackP50 / percentile(trivial, 50)),
      bareTransactP50Ms: round(percentile(bareAck, 50), 3),
      ackOverBareRatio: round(ackP50 / percentile(bareAck, 50)),
      ackMet: ackP50 / percentile(bareAck, 50) <= SIGNAL_TARGET.ackOverBareRatio ? 'met' : 'not met',
      dynamoCallsPerAck: calls,
      dynamoTripsPerAck: perAck.length
        ? percentile(
            perAck.map((c) => c.trips),
            50,
          )
        : -1,
      dynamoActionsPerAck: perAck[perAck.length >> 1]?.actions.join(' ') ?? '',
      dynamoMet: calls >= 0 && calls <= SIGNAL_TARGET.dynamoCalls ? 'met' : 'not met',
      dynamoCallsPerSignalEndToEnd: percentile(endToEnd, 50),
    };
  } finally {
    agent.destroy();
    bare?.close();
    await counter.close();
    await inputs.queue.close();
  }
};
