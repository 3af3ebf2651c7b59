/**
 * The signal webhook's acknowledgement, timed on loopback through the local HTTP API (local/http-api.ts) against a
 * trivial route of the same API (`GET /_local/emulator`), interleaved one for one in one run.
 *
 *   POWERTOOLS_LOG_LEVEL=SILENT npx tsx scripts/signals-ack.ts [repo root...] [rounds, default 300]
 *
 * Each repo root (default .) gets a local stack of its own, in this one process, and the rounds interleave them all
 * (e.g. main and a branch, for a before/after side by side). The worker's actor acts on nothing (no broker call):
 * what is timed is the webhook's own work. A second pair of series times the same webhook handler alone, behind a
 * local HTTP API of its own whose SendMessage goes to a server that keeps nothing (no SignalWorker running in this
 * process meanwhile), against a route of that API answering at once. DynamoDB calls per signal are counted by
 * test/integration/signals-calls.test.ts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 300);
const roots = args.filter((a) => !/^\d+$/.test(a)).map((a) => resolve(a));
if (!roots.length) roots.push(resolve('.'));

type Handler = (event: unknown, context: unknown) => Promise<unknown>;

interface Stack {
  api: { url: string };
  config: Record<string, unknown>;
  signalQueue: { drained(): Promise<void> };
  eventsForwarded(): Promise<void>;
  close(): Promise<void>;
}

const tree = async (root: string) => {
  const { startLocalStack } = (await import(pathToFileURL(`${root}/local/run-local.ts`).href)) as {
    startLocalStack(options: unknown): Promise<Stack>;
  };
  const stack = await startLocalStack({
    signals: {
      actor: () => Promise.resolve({ state: 'acted', results: [{ ticker: 'INFY', dryRun: true }] }),
      retryDelayMs: 20,
    },
  });
  const created = await fetch(`${stack.api.url}/strategies`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': `bench-${Date.now()}` },
    body: JSON.stringify({
      name: 'bench',
      source: 'tradingview',
      mode: 'paper',
      ratePerMinute: 600,
      action: {
        kind: 'gtt',
        order: { exch: 'NSE', prd: 'C', qty: 1 },
        trigger: { offset: '0' },
        price: { offset: '0' },
      },
    }),
  });
  const { webhookUrl } = (await created.json()) as { webhookUrl: string };
  if (created.status !== 201) throw new Error(`strategy not created: ${created.status}`);
  let n = 0;
  const signal = async () => {
    const res = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        action: 'buy',
        ticker: 'INFY',
        exchange: 'NSE',
        price: 1500,
        id: `a${++n}-${Date.now()}`,
      }),
    });
    const body = (await res.json()) as { queued?: boolean };
    if (res.status !== 202 || body.queued === false) throw new Error(`webhook answered ${res.status}`);
  };
  const trivial = async () => {
    const res = await fetch(`${stack.api.url}/_local/emulator`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`trivial route answered ${res.status}`);
  };
  // The webhook alone: the same handler and tables behind a local HTTP API of its own, its SendMessage answered by a
  // server that keeps nothing, so no SignalWorker runs in this process while it answers.
  const sqs = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end('{"MessageId":"m"}');
    });
  });
  await new Promise<void>((done) => sqs.listen(0, '127.0.0.1', () => done()));
  const sqsUrl = `http://127.0.0.1:${(sqs.address() as AddressInfo).port}`;
  const { createSignalWebhook } = (await import(pathToFileURL(`${root}/functions/signals/webhook.ts`).href)) as {
    createSignalWebhook(options: unknown): Handler;
  };
  const { startLocalApi } = (await import(pathToFileURL(`${root}/local/http-api.ts`).href)) as {
    startLocalApi(options: unknown): Promise<{ url: string; close(): Promise<void> }>;
  };
  const webhook = createSignalWebhook({
    env: { ...stack.config, SIGNAL_QUEUE_URL: `${sqsUrl}/000000000000/signals`, SQS_ENDPOINT: sqsUrl },
  });
  const alone = await startLocalApi({
    functions: new Map(),
    routes: [
      { method: 'POST', path: '/signals/{token}', name: 'SignalWebhook', handler: webhook, textBody: true },
      { method: 'GET', path: '/ping', name: 'Ping', handler: () => Promise.resolve({ statusCode: 200, body: '{}' }) },
    ],
  });
  const token = webhookUrl.split('/').pop()!;
  const signalAlone = async () => {
    const res = await fetch(`${alone.url}/signals/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        action: 'buy',
        ticker: 'INFY',
        exchange: 'NSE',
        price: 1500,
        id: `b${++n}-${Date.now()}`,
      }),
    });
    const body = (await res.json()) as { queued?: boolean };
    if (res.status !== 202 || body.queued === false) throw new Error(`webhook alone answered ${res.status}`);
  };
  const ping = async () => {
    const res = await fetch(`${alone.url}/ping`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`ping answered ${res.status}`);
  };
  const close = async () => {
    await alone.close();
    await new Promise((done) => sqs.close(done));
    await stack.close();
  };
  return {
    root,
    stack,
    signal,
    trivial,
    signalAlone,
    ping,
    close,
    ack: [] as number[],
    triv: [] as number[],
    ackAlone: [] as number[],
    pingAlone: [] as number[],
  };
};

const timed = async (f: () => Promise<void>) => {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
};
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

const trees = [];
for (const root of roots) trees.push(await tree(root));
for (const t of trees) {
  for (let i = 0; i < 20; i++) {
    await t.signal();
    await t.trivial();
  }
  await t.stack.signalQueue.drained();
  await t.stack.eventsForwarded();
}
// Interleaved rounds: every tree's webhook and trivial route each round, the order turning round by round.
for (let i = 0; i < rounds; i++) {
  // The worker and the EventForwarder run in this process too: each signal waits for them after it is timed, so
  // their work is never timed as a webhook's or the trivial route's.
  const jobs = trees.flatMap((t) => [
    async () => {
      t.ack.push(await timed(t.signal));
      await t.stack.signalQueue.drained();
      await t.stack.eventsForwarded();
    },
    async () => void t.triv.push(await timed(t.trivial)),
    async () => {
      t.ackAlone.push(await timed(t.signalAlone));
      await t.stack.eventsForwarded();
    },
    async () => void t.pingAlone.push(await timed(t.ping)),
  ]);
  const k = i % jobs.length;
  for (const job of [...jobs.slice(k), ...jobs.slice(0, k)]) await job();
}
const f = (x: number) => x.toFixed(2);
for (const t of trees) {
  await t.stack.signalQueue.drained();
  console.log(
    JSON.stringify({
      root: t.root,
      rounds,
      ackP50: f(pct(t.ack, 0.5)),
      ackP99: f(pct(t.ack, 0.99)),
      trivialP50: f(pct(t.triv, 0.5)),
      trivialP99: f(pct(t.triv, 0.99)),
      ratioP50: f(pct(t.ack, 0.5) / pct(t.triv, 0.5)),
      aloneAckP50: f(pct(t.ackAlone, 0.5)),
      aloneAckP99: f(pct(t.ackAlone, 0.99)),
      alonePingP50: f(pct(t.pingAlone, 0.5)),
      aloneRatioP50: f(pct(t.ackAlone, 0.5) / pct(t.pingAlone, 0.5)),
    }),
  );
}
for (const t of trees) await t.close();
