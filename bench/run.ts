/**
 * `npm run bench`: issue 42's measurements side by side in one run on this machine, each against its target: the
 * order functions warm as deployed (governor on) against a raw call, the signal webhook, reads as the pending list
 * grows, cold start of every function against a fair hand-written peer, memory, secret reads, load, the governor
 * and the GttWatcher at N pending. Prints tables and writes cdk.out/bench-results.json (untracked; `npx tsx
 * bench/report.ts` renders it as docs/explanation/benchmarks.md's tables). Loopback only, bounded in time. A row that timed an
 * error (a call that threw or answered an error status) stops the run with a message naming the row: exit non-zero.
 *
 *   npm run bench [-- --only warm,signals,reads,secrets,cold,memory,load,governor,watcher,cli] [--no-synth]
 *
 * Powertools Metrics off in this process (EMF lines would flood the console); the bundles keep theirs, as deployed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import autocannon from 'autocannon';

import { parseGatewayConfig } from '../functions/base/runtime/config.js';
import { environmentOf } from '../functions/base/runtime/env.js';
import { logger } from '../functions/base/runtime/logger.js';
import { EXAMPLE_ORDER } from '../functions/base/schemas/examples.js';
import { OPERATIONS } from '../functions/manifest/index.js';
import { createGatewayHandler } from '../functions/orders/gateway/gateway-handler.js';
import { placeGttOrder } from '../functions/orders/operations.js';
import { DEFAULT_ORDER_RATE, DynamoTradingControls } from '../functions/orders/safety/trading-controls.js';
import { LOCAL_CONTROL_TABLE } from '../local/dynamodb.js';
import { lambdaContext } from '../local/lambda-context.js';
import { startLocalStack } from '../local/run-local.js';
import { CLI_START_TARGET_MS, measureCliStart } from './cli-start.js';
import { BENCH_ORDER_RATE } from './cold-probe.js';
import { measureDeployedColdStart, measureMetricsCost, synthDeployedAssets } from './cold-start.js';
import { ASSUMED_WAIT_MS, measureMemory } from './memory.js';
import { measureReads } from './reads.js';
import type { Results } from './report.js';
import { measureSignals, SIGNAL_TARGET } from './signals.js';
import { targetRows } from './targets.js';
import { measureWarm, WARM_TARGET } from './warm.js';
import { CYCLES_PER_MONTH, measureWatcher, PRICE_PER_MILLION } from './watcher.js';

const SECTIONS = [
  'warm',
  'signals',
  'reads',
  'secrets',
  'cold',
  'memory',
  'load',
  'governor',
  'watcher',
  'cli',
] as const;
const { values: flags } = parseArgs({ options: { only: { type: 'string' }, 'no-synth': { type: 'boolean' } } });
const only = flags.only ? flags.only.split(',').map((s) => s.trim()) : [...SECTIONS];
for (const name of only)
  if (!(SECTIONS as readonly string[]).includes(name))
    throw new Error(`--only: unknown section ${name} (${SECTIONS.join(', ')})`);
const runs = (section: (typeof SECTIONS)[number]) => only.includes(section);
/** BENCH_RESULTS_FILE: elsewhere (two runs of different sections at once); bench/report.ts reads the default. */
export const RESULTS_FILE = process.env.BENCH_RESULTS_FILE ?? 'cdk.out/bench-results.json';
const WATCHER_SIZES = (process.env.BENCH_WATCHER_SIZES ?? '1000,30000,100000').split(',').map(Number);

const WARM_ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 400);
const SIGNAL_ITERATIONS = Number(process.env.BENCH_SIGNAL_ITERATIONS ?? 200);
const READ_ITERATIONS = Number(process.env.BENCH_READ_ITERATIONS ?? 100);
// 21 rounds: on two shared cores a 9-round median moves a function by about ±0.15 between runs, 15 rounds about ±0.1.
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 21);
const CLI_ROUNDS = Number(process.env.BENCH_CLI_ROUNDS ?? 11);
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

// For the secrets, load and governor sections: the deployed settings (an Idempotency-Key required on the order
// operations, events on), without the order-rate governor (it would cap load's places at 8 a second); the governor's
// own cost per permit is its section. Every other section starts a stack of its own, governor on.
const stack = await startLocalStack({ governor: false });
const session = { accessToken: stack.emulator.token, uid: stack.emulator.uid, actid: stack.emulator.actid };
const results: Record<string, unknown> = {
  node: process.version,
  cpus: (await import('node:os')).cpus().length,
  cpuModel: (await import('node:os')).cpus()[0]?.model ?? 'unknown',
  at: new Date().toISOString(),
};

/** The results so far, written after each section: a run stopped by a failed row keeps what it measured before. */
const save = () => {
  mkdirSync('cdk.out', { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
};

// The synthesized bundles, once per run (`--no-synth`: the cdk.out already there).
let synthed = flags['no-synth'] === true;
const synth = async () => {
  await synthDeployedAssets();
  synthed = true;
};

// ---- 1. warm, as deployed: the order functions' bundles warm, governor on, against a raw node:http POST ----------
const fresh = () => startLocalStack({ brokerTimeoutMs: 8_000, sessionRenewal: true, settings: BENCH_ORDER_RATE });
/** A row that timed an error throws (bench/warm.ts, signals.ts, reads.ts, cold-start.ts): the run stops there. */
if (runs('warm')) {
  if (!synthed) await synth();
  const own = await fresh();
  const rows = await measureWarm(own, WARM_ITERATIONS).finally(() => own.close());
  results.warm = { iterations: WARM_ITERATIONS, target: WARM_TARGET, rows };
  console.log(
    `\nWarm, as deployed (each bundle in its own process, governor on; ${WARM_ITERATIONS} calls each, interleaved with a raw node:http keep-alive POST of the same jData and the floor: that POST between a bare conditional claim and its completion; ms; CPU ms per call in the process; DynamoDB calls and round trips before the reply, counted at a proxy; target: +${WARM_TARGET.overFloorP50Ms} p50 over the floor, ${WARM_TARGET.cpuMs} ms CPU, ${WARM_TARGET.dynamoTrips} round trips)`,
  );
  console.table(rows);
  save();
}

// ---- 1b. signals: the webhook's acknowledgement, and DynamoDB per acknowledgement and per signal ---------------------
if (runs('signals')) {
  if (!synthed) await synth();
  const own = await fresh();
  const row = await measureSignals(own, SIGNAL_ITERATIONS).finally(() => own.close());
  results.signals = { target: SIGNAL_TARGET, ...row };
  console.log(
    `\nSignals (${SIGNAL_ITERATIONS} acknowledgements through the local HTTP API, interleaved with a bare TransactWriteItems of the same items and GET /_local/emulator on the same API; target ${SIGNAL_TARGET.ackOverBareRatio}x the bare transaction p50, ${SIGNAL_TARGET.dynamoCalls} DynamoDB calls)`,
  );
  console.table([row]);
  save();
}

// ---- 1c. reads that grow with the pending list -----------------------------------------------------------------------
if (runs('reads')) {
  if (!synthed) await synth();
  const own = await fresh();
  const reads = await measureReads(own, READ_ITERATIONS).finally(() => own.close());
  results.reads = { iterations: READ_ITERATIONS, ...reads };
  console.log(`\nReads: one order by id (GetGTTOrder warm, p50 of ${READ_ITERATIONS}) as the pending list grows`);
  console.table([reads.byId]);
  console.log('The whole pending list at a large N (GetPendingGTTOrder, import + first invoke):');
  console.table([reads.list]);
  console.log(
    `Walking every page of ${reads.walk.pending} pending orders against one full read (CPU of the decoding, pages of 1,000 and of 100; target 3x):`,
  );
  console.table([reads.walk]);
  save();
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
  if (!synthed) await synth();
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
  save();
}

// ---- 3b. memory: CPU per warm invocation and peak RSS of each deployed bundle (bench/memory.ts) --------------------
if (runs('memory')) {
  if (!synthed) await synth();
  // The governor at its highest settings: the setup places many orders a second (its permits are still taken).
  const fresh = await startLocalStack({ brokerTimeoutMs: 2_000, sessionRenewal: true, settings: BENCH_ORDER_RATE });
  const rows = await measureMemory(fresh).finally(() => fresh.close());
  results.memory = { assumedWaitMs: ASSUMED_WAIT_MS, rows };
  console.log(
    `\nMemory: CPU ms per invocation (the function's own process), its peak RSS, the CPU-bound time at each size (a full vCPU at 1,769 MB), and USD per million warm invocations with ${ASSUMED_WAIT_MS} ms of assumed waiting (arm64)`,
  );
  console.table(rows);
  save();
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
  save();
}

// ---- 5. the order-rate governor: what a permit costs (latency, DynamoDB calls), alone and contended -------------
if (runs('governor')) {
  const tableName = LOCAL_CONTROL_TABLE;
  const endpoint = stack.dynamo.url;
  // A clock that moves 510 ms per permit: never refused, and the account's log holds about a minute's 118 permits,
  // the largest item the default 120 a minute allows.
  let clock = Date.now();
  const controls = new DynamoTradingControls({
    tableName,
    endpoint,
    limits: DEFAULT_ORDER_RATE,
    now: () => (clock += 510),
  });
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
    () => new DynamoTradingControls({ tableName, endpoint, limits: DEFAULT_ORDER_RATE }),
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
  save();
}

// ---- 5b. the command line's start: the built program against tsx and curl (bench/cli-start.ts) -------------------
if (runs('cli')) {
  const rows = await measureCliStart(stack.api.url, CLI_ROUNDS);
  results.cli = { rounds: CLI_ROUNDS, targetMs: CLI_START_TARGET_MS, rows };
  console.log(
    `\nThe command line's start, ms per process (median of ${CLI_ROUNDS} interleaved rounds; node -e 0 for the floor; the built client/dist/gtt.js bare, through client/run-gtt.mjs, through npm run gtt; tsx client/cli.ts as before; curl of the same call; target ${CLI_START_TARGET_MS} ms on an idle machine)`,
  );
  console.table(rows);
  save();
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
    `\nGttWatcher, N pending orders (fresh stack per N; DynamoDB calls counted at the watcher's DynamoDB client; CPU and peak RSS of its bundle in its own process; units as DynamoDB on-demand bills them; monthly = ${CYCLES_PER_MONTH} steady cycles at $${PRICE_PER_MILLION.write}/M writes, $${PRICE_PER_MILLION.read}/M reads)`,
  );
  console.table(rows);
  save();
}

mkdirSync('cdk.out', { recursive: true });
writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
console.log("\nIssue 54's targets against this run:");
console.table(targetRows(results as unknown as Results));
console.log(`\nwrote ${RESULTS_FILE} (untracked)`);
