/**
 * `npm run bench`: gateway overhead, cold start, bundle size, secret fetches, load and the GttWatcher at N pending
 * orders, measured side by side in one run on this machine. Prints tables and writes cdk.out/bench-results.json
 * (untracked; `npx tsx bench/report.ts` renders it as the benchmarks page's tables). Loopback only, bounded in time.
 *
 *   npm run bench [-- --only warm,secrets,cold,memory,load,governor,watcher]
 *
 * Measured as deployed: order operations with an Idempotency-Key (the deployed functions require one) and their
 * lifecycle event on; Powertools Metrics off in this process (EMF lines would flood the console; their cold-start
 * cost is measured in the cold section).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import autocannon from 'autocannon';

import { buildBrokerRequest } from '../functions/broker/jdata.js';
import { postToBroker } from '../functions/broker/transport.js';
import type { AnyOperation } from '../functions/contract/operation.js';
import { createGatewayEvents } from '../functions/events/producer.js';
import { createGatewayHandler } from '../functions/gateway/gateway-handler.js';
import { OPERATIONS } from '../functions/manifest/index.js';
import { placeGttOrder } from '../functions/operations.js';
import { dynamoIdempotency } from '../functions/orders/journal-factory.js';
import { parseGatewayConfig } from '../functions/runtime/config.js';
import { environmentOf } from '../functions/runtime/env.js';
import { logger } from '../functions/runtime/logger.js';
import { DEFAULT_ORDER_RATE, TradingControls } from '../functions/safety/trading-controls.js';
import { EXAMPLE_ORDER } from '../functions/schemas/examples.js';
import { LOCAL_CONTROL_TABLE } from '../local/dynamodb.js';
import { lambdaContext } from '../local/lambda-context.js';
import { startLocalStack } from '../local/run-local.js';
import { BENCH_ORDER_RATE } from './cold-probe.js';
import { measureDeployedColdStart, measureMetricsCost, synthDeployedAssets } from './cold-start.js';
import { ASSUMED_WAIT_MS, measureMemory } from './memory.js';
import { CYCLES_PER_MONTH, measureWatcher, PRICE_PER_MILLION } from './watcher.js';

const SECTIONS = ['warm', 'secrets', 'cold', 'memory', 'load', 'governor', 'watcher'] as const;
const { values: flags } = parseArgs({ options: { only: { type: 'string' } } });
const only = flags.only ? flags.only.split(',').map((s) => s.trim()) : [...SECTIONS];
for (const name of only)
  if (!(SECTIONS as readonly string[]).includes(name))
    throw new Error(`--only: unknown section ${name} (${SECTIONS.join(', ')})`);
const runs = (section: (typeof SECTIONS)[number]) => only.includes(section);
export const RESULTS_FILE = 'cdk.out/bench-results.json';
const WATCHER_SIZES = (process.env.BENCH_WATCHER_SIZES ?? '10,1000,10000').split(',').map(Number);

const WARM_ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 400);
// 21 rounds: on two shared cores a 9-round median moves a function by about ±0.15 between runs, 15 rounds about ±0.1.
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 21);
const LOAD_REQUESTS = Number(process.env.BENCH_LOAD_REQUESTS ?? 2000);

// The benchmark measures the gateway, not log writing to a terminal.
logger.setLogLevel('SILENT');

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

// The operation table's example place (a buy of 1 M&M-EQ at 1500 when the price falls to 1490).
const order = EXAMPLE_ORDER;

// The deployed settings (an Idempotency-Key required on the order operations, events on), without the order-rate
// governor: it would cap places at 8 a second. Its own cost per order is measured in its section.
const stack = await startLocalStack({ governor: false });
const session = { accessToken: stack.emulator.token, uid: stack.emulator.uid, actid: stack.emulator.actid };
const results: Record<string, unknown> = {
  node: process.version,
  cpus: (await import('node:os')).cpus().length,
  at: new Date().toISOString(),
};

// ---- 1. warm overhead: the handler in-process vs a raw fetch of the same jData request -------------------------
let keySeq = 0;
let placer: ReturnType<typeof createGatewayHandler> | undefined;
const directPlace = () =>
  (placer ??= createGatewayHandler(placeGttOrder, {
    idempotency: dynamoIdempotency,
    config: { ...stack.config, ...environmentOf({ dynamodbEndpoint: stack.dynamo.directUrl }) },
  }));
const key = () => `bench-${process.pid}-${++keySeq}`;
/** The gateway's input: an order operation gets a fresh idempotency key (as a deployed caller must send one). */
const inputFor = async (op: AnyOperation): Promise<Record<string, unknown>> => {
  if (op.name === 'PlaceGTTOrder') return { ...order, idempotencyKey: key() };
  if (op.name === 'ModifyGTTOrder' || op.name === 'CancelGTTOrder') {
    // Placed straight to dynalite too: through the stream proxy, the setup's events would be forwarded in this
    // process while the next call is timed.
    const placed = (await directPlace()({ ...order, idempotencyKey: key() }, lambdaContext('bench'))) as {
      al_id: string;
    };
    return op.name === 'ModifyGTTOrder'
      ? { ...order, al_id: placed.al_id, idempotencyKey: key() }
      : { al_id: placed.al_id, idempotencyKey: key() };
  }
  return {};
};
const withFreshKey = (input: Record<string, unknown>) =>
  'idempotencyKey' in input ? { ...input, idempotencyKey: key() } : input;
const wireOf = (input: Record<string, unknown>) => {
  const { idempotencyKey: _key, ...rest } = input;
  return rest;
};
/** A call that failed is a broken bench, not a row. */
const mustSucceed = async (name: string, call: Promise<unknown>) => {
  try {
    return await call;
  } catch (error) {
    throw new Error(`bench: ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
};

const warm: Record<string, unknown>[] = [];
if (runs('warm')) {
  // The seven operations of the broker's GTT service, but logout (it would end the session); inputs below.
  const WARM_OPERATIONS = [
    'PlaceGTTOrder',
    'GetPendingGTTOrder',
    'GetEnabledGTTs',
    'ModifyGTTOrder',
    'CancelGTTOrder',
    'ClientDetails',
  ];
  // Straight to dynalite, without the local stream proxy's hop: the proxy stands in for DynamoDB Streams, which in
  // AWS cost the writer nothing; the outbox's forwarding runs in its own function there, not in this process.
  const direct = { ...stack.config, ...environmentOf({ dynamodbEndpoint: stack.dynamo.directUrl }) };
  for (const op of OPERATIONS.filter((o) => WARM_OPERATIONS.includes(o.name))) {
    const handler = createGatewayHandler(op, {
      ...(op.idempotency ? { idempotency: dynamoIdempotency } : {}),
      ...(op.lifecycle ? { events: createGatewayEvents } : {}),
      config: direct,
    });
    // The order operations queue their lifecycle event in the outbox (the idempotency record's completing write):
    // the same handler without events shows what the event costs on the order path.
    const withoutEvent = op.lifecycle
      ? createGatewayHandler(op, { idempotency: dynamoIdempotency, config: direct })
      : undefined;
    const noEventTimes: number[] = [];
    const gatewayTimes: number[] = [];
    const rawTimes: number[] = [];
    const rawHttpTimes: number[] = [];
    for (let i = 0; i < WARM_ITERATIONS; i++) {
      const input = await inputFor(op);
      const parsed = op.input.parse(wireOf(input));
      const request = buildBrokerRequest(
        stack.emulator.url,
        op.broker,
        op.toJData(parsed as never, session),
        session.accessToken,
      );
      // Interleave the two so machine noise hits both alike.
      let t = performance.now();
      await (await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body })).text();
      rawTimes.push(performance.now() - t);
      const input2 = op.name === 'CancelGTTOrder' || op.name === 'ModifyGTTOrder' ? await inputFor(op) : input;
      const request2 = buildBrokerRequest(
        stack.emulator.url,
        op.broker,
        op.toJData(op.input.parse(wireOf(input2)) as never, session),
        session.accessToken,
      );
      t = performance.now();
      await postToBroker(request2, 8_000);
      rawHttpTimes.push(performance.now() - t);
      const again =
        op.name === 'CancelGTTOrder' || op.name === 'ModifyGTTOrder' ? await inputFor(op) : withFreshKey(input);
      t = performance.now();
      await mustSucceed(op.name, handler(again, lambdaContext(op.name)));
      gatewayTimes.push(performance.now() - t);
      if (withoutEvent) {
        const another =
          op.name === 'CancelGTTOrder' || op.name === 'ModifyGTTOrder' ? await inputFor(op) : withFreshKey(input);
        t = performance.now();
        await mustSucceed(`${op.name} without its event`, withoutEvent(another, lambdaContext(op.name)));
        noEventTimes.push(performance.now() - t);
      }
    }
    const row = {
      operation: op.name,
      fetchP50: round(percentile(rawTimes, 50)),
      rawHttpP50: round(percentile(rawHttpTimes, 50)),
      gatewayP50: round(percentile(gatewayTimes, 50)),
      overheadVsRawHttpP50: round(percentile(gatewayTimes, 50) - percentile(rawHttpTimes, 50)),
      ratioVsFetchP50: round(percentile(gatewayTimes, 50) / percentile(rawTimes, 50), 2),
      ratioVsRawHttpP50: round(percentile(gatewayTimes, 50) / percentile(rawHttpTimes, 50), 2),
      fetchP99: round(percentile(rawTimes, 99)),
      rawHttpP99: round(percentile(rawHttpTimes, 99)),
      gatewayP99: round(percentile(gatewayTimes, 99)),
      ...(noEventTimes.length ? { gatewayWithoutEventP50: round(percentile(noEventTimes, 50)) } : {}),
    };
    warm.push(row);
    await fetch(`${stack.emulator.url}/_emulator/reset`, { method: 'POST' });
  }
  results.warm = warm;
  console.log(
    `\nWarm overhead, ms (${WARM_ITERATIONS} calls per operation, interleaved: raw fetch of the same jData request, raw node:http keep-alive POST (the gateway's transport), and the gateway handler in-process as deployed: order operations with an idempotency key and their event; loopback)`,
  );
  console.table(warm);
}

// ---- 2. secret fetches per N warm invocations ------------------------------------------------------------------
if (runs('secrets')) {
  const id = 'bench/secret-count';
  stack.secrets.setSecret(id, JSON.stringify(session));
  const handler = createGatewayHandler(
    OPERATIONS.find((o) => o.name === 'GetEnabledGTTs')!,
    { config: { ...stack.config, ...environmentOf({ brokerSecretId: id }) } },
  );
  const n = 200;
  for (let i = 0; i < n; i++) await handler({}, lambdaContext('bench'));
  results.secretFetches = {
    invocations: n,
    fetches: stack.secrets.getCallCount(id),
    maxAgeSeconds: parseGatewayConfig(stack.config).secretMaxAgeSeconds,
  };
  console.log(
    `\nSecret fetches: ${stack.secrets.getCallCount(id)} for ${n} warm invocations (max age ${parseGatewayConfig(stack.config).secretMaxAgeSeconds} s)`,
  );
}

// ---- 3. cold start of what deploys, against the hand-written peer (bench/cold-start.ts) ---------------------------
if (runs('cold')) {
  await synthDeployedAssets();
  // Against a fresh stack, as `npm start` gives it: the warm section above leaves hundreds of idempotency records
  // and event markers in dynalite, which slows the order functions' writes and not the peer's.
  const fresh = await startLocalStack({ brokerTimeoutMs: 2_000, sessionRenewal: true, settings: BENCH_ORDER_RATE });
  const rows = await measureDeployedColdStart(fresh, COLD_RUNS).finally(() => fresh.close());
  results.cold = {
    rounds: COLD_RUNS,
    source: 'cdk synth assets with their template environment',
    peer: 'bench/peer.mjs',
    functions: rows,
  };
  console.log(
    `\nCold start of the cdk synth assets, ms (median of ${COLD_RUNS} interleaved rounds of fresh Node processes; ratio = import + first invoke against the hand-written peer)`,
  );
  console.table(rows);
  const metricsCost = await measureMetricsCost(COLD_RUNS);
  results.metricsColdStart = metricsCost;
  console.log(
    `\nWhat Powertools Metrics adds to a cold start (a bare bundle vs one with Metrics + logMetrics, median of ${COLD_RUNS}):`,
  );
  console.table([metricsCost]);
}

// ---- 3b. memory: CPU per warm invocation and peak RSS of each deployed bundle (bench/memory.ts) --------------------
if (runs('memory')) {
  if (!runs('cold')) await synthDeployedAssets();
  // The governor at its highest settings: the setup places many orders a second (its permits are still taken).
  const fresh = await startLocalStack({ brokerTimeoutMs: 2_000, sessionRenewal: true, settings: BENCH_ORDER_RATE });
  const rows = await measureMemory(fresh).finally(() => fresh.close());
  results.memory = { assumedWaitMs: ASSUMED_WAIT_MS, rows };
  console.log(
    `\nMemory: CPU ms per invocation (the function's own process), its peak RSS, the CPU-bound time at each size (a full vCPU at 1,769 MB), and USD per million warm invocations with ${ASSUMED_WAIT_MS} ms of assumed waiting (arm64)`,
  );
  console.table(rows);
}

// ---- 4. load: the local API under concurrent clients ------------------------------------------------------------
if (runs('load')) {
  await fetch(`${stack.emulator.url}/_emulator/reset`, { method: 'POST' });
  let placeSeq = 0;
  let placesAccepted = 0;
  let placesRefused = 0;
  const load = await autocannon({
    url: stack.api.url,
    connections: 16,
    // A fixed number of requests (not a duration) so none is cut off in flight and every place is counted.
    amount: LOAD_REQUESTS,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        path: placeGttOrder.route.path,
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, 'idempotency-key': `load-${++placeSeq}` },
          body: JSON.stringify(order),
        }),
        onResponse: (status) => {
          if (status === 201) placesAccepted++;
          else placesRefused++;
        },
      },
      { method: 'GET', path: '/gtt-orders/enabled' },
    ],
  });
  const placed = (await (await fetch(`${stack.emulator.url}/_emulator/orders?uid=${stack.emulator.uid}`)).json()) as {
    orders: unknown[];
  };
  const log = (await (await fetch(`${stack.emulator.url}/_emulator/requests`)).json()) as {
    requests: { bodyContainedToken: boolean }[];
  };
  results.load = {
    connections: 16,
    seconds: round(load.duration, 1),
    requests: load.requests.total,
    throughputRps: round(load.requests.average, 1),
    latencyP50Ms: load.latency.p50,
    latencyP99Ms: load.latency.p99,
    non2xx: load.non2xx,
    errors: load.errors,
    placesAccepted,
    placesRefused,
    emulatorOrders: placed.orders.length,
    ordersMatchAcceptedPlaces: placed.orders.length === placesAccepted,
    brokerRequestsWithTokenInBody: log.requests.filter((r) => r.bodyContainedToken).length,
  };
  console.log('\nLoad (autocannon, loopback)');
  console.table([results.load]);
}

// ---- 5. the order-rate governor: what a permit costs (latency, DynamoDB calls), alone and contended -------------
if (runs('governor')) {
  const tableName = LOCAL_CONTROL_TABLE;
  const endpoint = stack.dynamo.url;
  // A clock that moves 510 ms per permit: never refused, and the account's log holds about a minute's 118 permits,
  // the largest item the default 120 a minute allows.
  let clock = Date.now();
  const controls = new TradingControls({ tableName, endpoint, limits: DEFAULT_ORDER_RATE, now: () => (clock += 510) });
  const times: number[] = [];
  let calls = 0;
  for (let i = 0; i < WARM_ITERATIONS; i++) {
    const t = performance.now();
    calls += (await controls.acquire('bench-governor', false)).dynamoCalls;
    times.push(performance.now() - t);
  }
  // 30 containers at once on one account (each its own instance, real clock): how many calls until all are answered.
  let contendedCalls = 0;
  let granted = 0;
  const contended = Array.from(
    { length: 30 },
    () => new TradingControls({ tableName, endpoint, limits: DEFAULT_ORDER_RATE }),
  );
  const outcomes = await Promise.allSettled(contended.map((c) => c.acquire('bench-contended', false)));
  for (const o of outcomes) {
    if (o.status !== 'fulfilled') continue;
    granted++;
    contendedCalls += o.value.dynamoCalls;
  }
  results.governor = {
    permits: WARM_ITERATIONS,
    permitP50Ms: round(percentile(times, 50)),
    permitP99Ms: round(percentile(times, 99)),
    dynamoCallsPerPermit: round(calls / WARM_ITERATIONS, 2),
    contended30Granted: granted,
    contended30RefusedRateLimited: outcomes.filter((o) => o.status === 'rejected').length,
    contended30CallsOfGranted: contendedCalls,
  };
  console.log('\nOrder-rate governor (dynalite on loopback): one permit per broker write');
  console.table([results.governor]);
}

await stack.close();

// ---- 6. the GttWatcher at N pending orders (bench/watcher.ts) -------------------------------------------------------
if (runs('watcher')) {
  const rows = await measureWatcher(WATCHER_SIZES);
  results.watcher = {
    sizes: WATCHER_SIZES,
    cyclesPerMonth: CYCLES_PER_MONTH,
    pricePerMillion: PRICE_PER_MILLION,
    rows,
  };
  console.log(
    `\nGttWatcher, N pending orders (fresh stack per N; DynamoDB calls counted at the watcher's SDK client; units as DynamoDB on-demand bills them; monthly = ${CYCLES_PER_MONTH} steady cycles at $${PRICE_PER_MILLION.write}/M writes, $${PRICE_PER_MILLION.read}/M reads)`,
  );
  console.table(rows);
}

mkdirSync('cdk.out', { recursive: true });
writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nwrote ${RESULTS_FILE} (untracked)`);
