/**
 * `npm run bench`: gateway overhead, cold start, bundle size, secret fetches and load, measured side by side in
 * one run on this machine. Prints a table and writes bench/results.json. Loopback only, bounded in time.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { startLocalStack } from '../local/run-local.js';
import { lambdaContext } from '../local/lambda-context.js';
import { createGatewayHandler } from '../functions/gateway.js';
import { buildBrokerRequest } from '../functions/broker/jdata.js';
import { postToBroker } from '../functions/broker/transport.js';
import { OPERATIONS, placeGttOrder } from '../functions/operations.js';
import type { AnyOperation } from '../functions/contract/operation.js';
import { bundleFunctions } from './bundle.js';
import { logger } from '../functions/runtime/logger.js';

const run = promisify(execFile);
const WARM_ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 400);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);
const LOAD_REQUESTS = Number(process.env.BENCH_LOAD_REQUESTS ?? 2000);

// The benchmark measures the gateway, not log writing to a terminal.
logger.setLogLevel('SILENT');

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

const order = { exch: 'NSE', tsym: 'M&M-EQ', qty: 1, prc: '1500', prd: 'C', trantype: 'B', prctyp: 'LMT', ret: 'DAY', ai_t: 'LTP_B_O', d: '1490' };

const stack = await startLocalStack({ settings: { IDEMPOTENCY_KEY_REQUIRED: false } });
const session = { accessToken: stack.emulator.token, uid: stack.emulator.uid, actid: stack.emulator.actid };
const results: Record<string, unknown> = { node: process.version, cpus: (await import('node:os')).cpus().length, at: new Date().toISOString() };

// ---- 1. warm overhead: the handler in-process vs a raw fetch of the same jData request -------------------------
const inputFor = async (op: AnyOperation): Promise<Record<string, unknown>> => {
  if (op.name === 'PlaceGTTOrder') return order;
  if (op.name === 'ModifyGTTOrder' || op.name === 'CancelGTTOrder') {
    const placed = (await stack.handlers.get('PlaceGTTOrder')!(order, lambdaContext('bench'))) as { al_id: string };
    return op.name === 'ModifyGTTOrder' ? { ...order, al_id: placed.al_id } : { al_id: placed.al_id };
  }
  return {};
};

const warm: Record<string, unknown>[] = [];
for (const op of OPERATIONS.filter((o) => o.name !== 'Logout')) {
  const handler = stack.handlers.get(op.name)!;
  const gatewayTimes: number[] = [];
  const rawTimes: number[] = [];
  const rawHttpTimes: number[] = [];
  for (let i = 0; i < WARM_ITERATIONS; i++) {
    const input = await inputFor(op);
    const parsed = op.input.parse(input);
    const request = buildBrokerRequest(stack.emulator.url, op.name, op.toJData(parsed as never, session), session.accessToken);
    // Interleave the two so machine noise hits both alike.
    let t = performance.now();
    await (await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body })).text();
    rawTimes.push(performance.now() - t);
    const input2 = op.name === 'CancelGTTOrder' || op.name === 'ModifyGTTOrder' ? await inputFor(op) : input;
    const request2 = buildBrokerRequest(stack.emulator.url, op.name, op.toJData(op.input.parse(input2) as never, session), session.accessToken);
    t = performance.now();
    await postToBroker(request2, 8_000);
    rawHttpTimes.push(performance.now() - t);
    const again = op.name === 'CancelGTTOrder' || op.name === 'ModifyGTTOrder' ? await inputFor(op) : input;
    t = performance.now();
    await handler(again, lambdaContext(op.name));
    gatewayTimes.push(performance.now() - t);
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
  };
  warm.push(row);
  await fetch(`${stack.emulator.url}/_emulator/reset`, { method: 'POST' });
}
results.warm = warm;
console.log(
  `\nWarm overhead, ms (${WARM_ITERATIONS} calls per operation, interleaved: raw fetch of the same jData request, raw node:http keep-alive POST (the gateway's transport), and the gateway handler in-process; loopback)`,
);
console.table(warm);

// ---- 2. secret fetches per N warm invocations ------------------------------------------------------------------
{
  const id = 'bench/secret-count';
  stack.secrets.setSecret(id, JSON.stringify(session));
  const handler = createGatewayHandler(OPERATIONS.find((o) => o.name === 'GetEnabledGTTs')!, { config: { ...stack.config, BROKER_SECRET_ID: id } });
  const n = 200;
  for (let i = 0; i < n; i++) await handler({}, lambdaContext('bench'));
  results.secretFetches = { invocations: n, fetches: stack.secrets.getCallCount(id), maxAgeSeconds: stack.config.SECRET_MAX_AGE_SECONDS };
  console.log(`\nSecret fetches: ${stack.secrets.getCallCount(id)} for ${n} warm invocations (max age ${String(stack.config.SECRET_MAX_AGE_SECONDS)} s)`);
}

// ---- 3. cold start and bundle size ---------------------------------------------------------------------------
{
  const { functions, empty } = await bundleFunctions();
  const env = {
    ...process.env,
    BROKER_BASE_URL: String(stack.config.BROKER_BASE_URL),
    BROKER_SECRET_ID: String(stack.config.BROKER_SECRET_ID),
    SECRETS_MANAGER_ENDPOINT: String(stack.config.SECRETS_MANAGER_ENDPOINT),
    IDEMPOTENCY_KEY_REQUIRED: 'false',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
  };
  // Time from the start of import to the end of the first invocation, measured inside a fresh Node process.
  const probe = `const t0=performance.now();const m=await import(process.argv[1]);const t1=performance.now();
const ctx={functionName:'bench',awsRequestId:'1',getRemainingTimeInMillis:()=>10000};
try{await m.handler(JSON.parse(process.argv[2]),ctx)}catch{}const t2=performance.now();
console.log(JSON.stringify({importMs:t1-t0,firstInvokeMs:t2-t1,totalMs:t2-t0}))`;
  const measure = async (file: string, payload: unknown) => {
    const totals: number[] = [];
    const imports: number[] = [];
    const walls: number[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      const t = performance.now();
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', probe, `./${file}`, JSON.stringify(payload)], { env });
      walls.push(performance.now() - t);
      const r = JSON.parse(stdout.trim().split('\n').pop()!) as { importMs: number; totalMs: number };
      totals.push(r.totalMs);
      imports.push(r.importMs);
    }
    return { totalMs: percentile(totals, 50), importMs: percentile(imports, 50), processMs: percentile(walls, 50) };
  };
  const emptyCold = await measure(empty.file, {});
  const cold = [];
  for (const bundle of functions) {
    const op = OPERATIONS.find((o) => o.id === bundle.name)!;
    const payload = op.name === 'PlaceGTTOrder' ? order : op.name === 'ModifyGTTOrder' ? { ...order, al_id: '1' } : op.name === 'CancelGTTOrder' ? { al_id: '1' } : {};
    const m = await measure(bundle.file, op.name === 'Logout' ? { dryRun: false } : payload);
    cold.push({
      function: bundle.name,
      bundleKB: round(bundle.bytes / 1024, 1),
      importMs: round(m.importMs, 1),
      importPlusFirstInvokeMs: round(m.totalMs, 1),
      emptyImportPlusInvokeMs: round(emptyCold.totalMs, 1),
      wholeProcessMs: round(m.processMs, 1),
      emptyWholeProcessMs: round(emptyCold.processMs, 1),
      wholeProcessRatioVsEmpty: round(m.processMs / emptyCold.processMs, 2),
    });
  }
  results.cold = { runsPerFunction: COLD_RUNS, emptyHandler: { bundleKB: round(empty.bytes / 1024, 1), ...emptyCold }, functions: cold };
  console.log(
    `\nCold start, ms (median of ${COLD_RUNS} fresh Node processes per bundle; first invoke includes the secret read and one broker call; whole process = node start + import + first invoke + exit)`,
  );
  console.table(cold);
}

// ---- 4. load: the local API under concurrent clients ------------------------------------------------------------
{
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
        setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': `load-${++placeSeq}` }, body: JSON.stringify(order) }),
        onResponse: (status) => {
          if (status === 201) placesAccepted++;
          else placesRefused++;
        },
      },
      { method: 'GET', path: '/gtt-orders/enabled' },
    ],
  });
  const placed = (await (await fetch(`${stack.emulator.url}/_emulator/orders?uid=${stack.emulator.uid}`)).json()) as { orders: unknown[] };
  const log = (await (await fetch(`${stack.emulator.url}/_emulator/requests`)).json()) as { requests: { bodyContainedToken: boolean }[] };
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

await stack.close();
writeFileSync('bench/results.json', `${JSON.stringify(results, null, 2)}\n`);
console.log('\nwrote bench/results.json');
