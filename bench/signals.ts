/**
 * Signals (functions/signals/): the webhook's warm acknowledgement through the local HTTP API against a trivial
 * route of the same API (GET /_local/emulator), interleaved over one keep-alive connection; the DynamoDB calls
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
import { percentile, round, warmProbe } from './warm.js';

/** Issue 42: the webhook acknowledges within 3 ms p50 warm, with at most two DynamoDB calls (and the queue send). */
export const SIGNAL_TARGET = { ackP50Ms: 3, dynamoCalls: 2 };
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
  try {
    // 1. The acknowledgement against a trivial route, through the same local API.
    const ack: number[] = [];
    const trivial: number[] = [];
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
      if (i % 2) await post().then(get);
      else await get().then(post);
      // The worker acts on the signal and the forwarder publishes its events before the next pair is timed.
      await stack.signalQueue.drained();
      await stack.eventsForwarded();
    }
    if (stack.signalQueue.deadLetters.length)
      throw new Error(`bench: the SignalWorker gave up on ${stack.signalQueue.deadLetters.length} signals`);

    // 2. DynamoDB before each acknowledgement: the webhook's bundle warm, its messages kept by the bench's queue.
    const fn = deployedFunctions().find((f) => f.name === 'SignalWebhook');
    let perAck: ReturnType<typeof attribute> = [];
    if (fn) {
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
      ackOverTrivialP50Ms: round(ackP50 - percentile(trivial, 50), 3),
      ackMet: ackP50 <= SIGNAL_TARGET.ackP50Ms ? 'met' : 'not met',
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
    await counter.close();
    await inputs.queue.close();
  }
};
