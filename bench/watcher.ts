/**
 * The GttWatcher at N pending orders (bench section `watcher`): for each N a fresh local stack (emulator, dynalite,
 * local PutEvents), N orders placed at the broker outside the gateway (the emulator's bulk seed), the baseline run,
 * steady runs (nothing changed) and a run with changed orders.
 *
 * CPU and memory are the deployed function's: the watcher's handler, bundled as `cdk synth` bundles it (esbuild, ESM,
 * minified), runs in a fresh Node process against the stack (which stays in this process, so its work is not
 * counted): the baseline and STEADY_CPU_RUNS steady cycles, each cycle's CPU time (user + system) and the process's
 * peak RSS (the kernel's VmHWM, reset after the baseline so the steady peak is its own). Lambda gives a function CPU
 * in proportion to its memory (a full vCPU at 1,769 MB): a cycle's time at 512 MB is about its CPU × 1,769 / 512.
 * Every DynamoDB call the watcher makes is counted, with the units DynamoDB on-demand would bill (dynamo-units.ts).
 *
 *   npx tsx bench/watcher.ts [--sizes 10,1000,10000] [--steady 5]
 *
 * BENCH_WATCHER_CPU_PROF=<dir> writes V8 CPU profiles of the child's baseline (`baseline.cpuprofile`) and of its
 * steady cycles (`steady.cpuprofile`) there (the profiler's own cost is in those cycles' CPU: compare without it).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { build } from 'esbuild';

import { buildBrokerRequest } from '../functions/base/broker/jdata.js';
import { MAX_LIST_RECORDS } from '../functions/base/broker/transport.js';
import { LOCAL_SECRET_ID, type LocalStack, startLocalStack } from '../local/run-local.js';
import { countCalls, type Counter, CYCLES_PER_MONTH, emptyCounter, PRICE_PER_MILLION } from './dynamo-units.js';

export { CYCLES_PER_MONTH, PRICE_PER_MILLION } from './dynamo-units.js';

/** The pending orders of the watcher's runs: a buy of 3 TCS-EQ at 4000 when the price falls to 3990, as jData. */
const BENCH_ORDER = {
  exch: 'NSE',
  tsym: 'TCS-EQ',
  qty: '3',
  prc: '4000',
  prd: 'C',
  trantype: 'B',
  prctyp: 'LMT',
  ret: 'DAY',
  ai_t: 'LTP_B_O',
  validity: 'GTT',
  d: '3990',
};

const placeOutside = async (stack: LocalStack, fields: Record<string, string>) => {
  const request = buildBrokerRequest(
    stack.emulator.url,
    'PlaceGTTOrder',
    { uid: stack.emulator.uid, actid: stack.emulator.actid, ...BENCH_ORDER, ...fields },
    stack.emulator.token,
  );
  const body = (await (
    await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body })
  ).json()) as { stat: string; al_id?: string };
  if (body.stat !== 'OI created' || !body.al_id)
    throw new Error(`bench: the emulator refused an order: ${JSON.stringify(body)}`);
  return body.al_id;
};

/** Many pending orders at once through the emulator's control surface (placing them one by one takes minutes). */
const seedOutside = async (stack: LocalStack, count: number) => {
  const res = await fetch(`${stack.emulator.url}/_emulator/seed-gtts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      uid: stack.emulator.uid,
      count,
      order: { uid: stack.emulator.uid, actid: stack.emulator.actid, ...BENCH_ORDER },
    }),
  });
  if (res.status !== 201) throw new Error(`bench: the emulator's seed failed: ${res.status} ${await res.text()}`);
};

/** Orders placed outside the gateway before the changed cycle. */
const CHANGED = 10;
const STEADY_CPU_RUNS = 3;
const FULL_VCPU_MB = 1_769;
const DEPLOYED_MB = 512;

/** The watcher's handler bundled as the deployed one is (infra/constructs/gateway-function.ts), once per bench run. */
let bundled: Promise<string> | undefined;
const watcherBundle = (): Promise<string> =>
  (bundled ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gtt-watcher-bench-'));
    const outfile = join(dir, 'index.mjs');
    await build({
      // BENCH_WATCHER_ENTRY: another tree's handler (an older commit's, for a before/after comparison).
      entryPoints: [process.env.BENCH_WATCHER_ENTRY ?? 'functions/handlers/gtt-watcher.ts'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      minify: true,
      mainFields: ['module', 'main'],
      outfile,
      logLevel: 'error',
      alias: { '@aws-sdk/credential-provider-node': './functions/base/runtime/env-credentials.ts' },
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
    });
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return outfile;
  })());

/** The child: the baseline, then steady cycles; per cycle its CPU ms and status; the peak RSS of each part (MB). */
const CYCLES = `import { readFileSync, writeFileSync } from 'node:fs';
const m = await import(process.argv[1]);
const runs = Number(process.argv[2]);
// 'fresh': a container whose first cycle is a steady one (the state exists): no baseline, every cycle steady.
const fresh = process.argv[3] === 'fresh';
const hwm = () => Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const ctx = { functionName: 'bench', awsRequestId: '1', getRemainingTimeInMillis: () => 600000 };
const out = { cycles: [], baselinePeakMB: 0, steadyPeakMB: 0, steadyMemory: { heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0 } };
// What the steady peak is made of: the most of each part of process.memoryUsage() seen (every 10 ms) in the steady cycles.
let steadyPhase = fresh;
let heapSession;
const sampler = setInterval(() => {
  if (!steadyPhase) return;
  const u = process.memoryUsage();
  for (const k of Object.keys(out.steadyMemory)) out.steadyMemory[k] = Math.max(out.steadyMemory[k], Math.round(u[k] / 2 ** 20));
}, 10);
// BENCH_WATCHER_CPU_PROF=<dir>: a V8 CPU profile of the steady cycles only (the baseline's is apart).
const profDir = process.env.BENCH_WATCHER_CPU_PROF;
let session;
const post = (method, params) => new Promise((ok, ko) => session.post(method, params, (e, r) => (e ? ko(e) : ok(r))));
for (let i = fresh ? 1 : 0; i <= runs; i++) {
  if (profDir && !fresh && i <= 1) {
    if (i === 1) writeFileSync(profDir + '/baseline.cpuprofile', JSON.stringify((await post('Profiler.stop')).profile));
    if (!session) { const { Session } = await import('node:inspector'); session = new Session(); session.connect(); await post('Profiler.enable'); }
    await post('Profiler.start');
  }
  const c = cpu();
  const t = performance.now();
  const r = await m.handler({}, ctx);
  out.cycles.push({ cpuMs: cpu() - c, wallMs: performance.now() - t, status: r && r.status, pending: r && r.pending, copies: r && r.dynamo && r.dynamo.copiesWritten, calls: r && r.dynamo && r.dynamo.calls });
  if (i === 0) {
    out.baselinePeakMB = hwm(); writeFileSync('/proc/self/clear_refs', '5'); steadyPhase = true;
    if (process.env.BENCH_WATCHER_HEAP_PROF) {
      const { Session } = await import('node:inspector');
      heapSession = new Session(); heapSession.connect();
      await new Promise((ok, ko) => heapSession.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }, (e, r) => (e ? ko(e) : ok(r))));
    }
  }
}
clearInterval(sampler);
out.steadyPeakMB = hwm();
// What a warm container holds between cycles: the heap after a full collection once the cycles are done.
globalThis.gc?.();
out.retainedHeapMB = Math.round(process.memoryUsage().heapUsed / 2 ** 20);
// BENCH_WATCHER_HEAP_PROF=<dir>: what the steady cycles allocated, by stack (sampled, the collected objects too).
if (process.env.BENCH_WATCHER_HEAP_PROF && heapSession) {
  const { profile } = await new Promise((ok, ko) => heapSession.post('HeapProfiler.stopSampling', (e, r) => (e ? ko(e) : ok(r))));
  writeFileSync(process.env.BENCH_WATCHER_HEAP_PROF + '/steady.heapprofile', JSON.stringify(profile));
}
if (profDir && runs > 0) writeFileSync(profDir + '/steady.cpuprofile', JSON.stringify((await post('Profiler.stop')).profile));
console.log(JSON.stringify(out));`;

interface ChildCycles {
  cycles: { cpuMs: number; wallMs: number; status: string; pending: number; copies?: number; calls?: number }[];
  baselinePeakMB: number;
  steadyPeakMB: number;
  /** The most of each part of process.memoryUsage() in the steady cycles (MB). */
  steadyMemory: { heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };
  /** The heap after a full collection once the cycles are done: what a warm container holds (MB). */
  retainedHeapMB: number;
}

/** `fresh`: a new container whose every cycle is steady (the state exists), its peak from its start. */
const runCycles = async (stack: LocalStack, runs: number, fresh = false): Promise<ChildCycles> => {
  const file = await watcherBundle();
  const env = {
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    ...stack.watcherEnv,
    // Its CPU is measured whatever the wall time on a loaded machine: the broker read may take longer than 8 s here.
    BROKER_TIMEOUT_MS: '60000',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    POWERTOOLS_METRICS_DISABLED: 'true',
    ...(process.env.BENCH_WATCHER_CPU_PROF ? { BENCH_WATCHER_CPU_PROF: process.env.BENCH_WATCHER_CPU_PROF } : {}),
    ...(process.env.BENCH_WATCHER_HEAP_PROF ? { BENCH_WATCHER_HEAP_PROF: process.env.BENCH_WATCHER_HEAP_PROF } : {}),
  };
  return new Promise((resolve, reject) => {
    // The heap limit of the deployed memory size (Lambda's Node runtime gives V8 about 90% of it), so the peak RSS
    // is what the function needs there, not what an unbounded heap grows to before collecting.
    const heap = `--max-old-space-size=${Math.floor(DEPLOYED_MB * 0.9)}`;
    const child = spawn(
      process.execPath,
      [
        heap,
        '--expose-gc',
        '--input-type=module',
        '-e',
        CYCLES,
        file,
        String(runs),
        fresh ? 'fresh' : 'after-baseline',
      ],
      {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-200_000)));
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as ChildCycles);
      } catch {
        reject(
          new Error(
            `bench: the watcher process ended (${code}) without a measurement: ${(err || out).replace(/^.{300,}$/gm, '(long line)').slice(-3000)}`,
          ),
        );
      }
    });
  });
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const totalCalls = (c: Counter) => Object.values(c.calls).reduce((a, b) => a + b, 0);
const callList = (c: Counter) =>
  Object.entries(c.calls)
    .map(([k, v]) => `${k.replace(/Command$/, '')} ${v}`)
    .join(', ');

export interface WatcherRow {
  pending: number;
  /** The orders seeded (at the list's limit, 10 fewer: the changed cycle adds 10). */
  seeded: number;
  baselineMs: number;
  baselineCalls: number;
  steadyCycleMs: number;
  steadyCalls: number;
  steadyCallList: string;
  steadyBytesWritten: number;
  steadyWriteUnits: number;
  steadyReadUnits: number;
  changedOrders: number;
  changedCycleMs: number;
  callsPerChangedOrder: number;
  bytesWrittenPerChangedOrder: number;
  writeUnitsPerChangedOrder: number;
  steadyMonthlyUsd: number;
  /** Reads of the session secret per steady cycle (issue 42: at most one). */
  secretReadsPerCycle: number;
  /** The deployed bundle in its own process: CPU ms of the baseline and of a steady cycle (median), peak RSS MB. */
  baselineCpuMs: number;
  baselinePeakMB: number;
  /** Copy items the baseline wrote (the copy is complete after one cycle when it equals `pending`). */
  baselineCopies: number;
  steadyCpuMs: number;
  steadyPeakMB: number;
  /** A new container's steady cycles, in a process of their own (no baseline before them): CPU ms and peak RSS MB. */
  freshSteadyCpuMs: number;
  freshSteadyPeakMB: number;
  /** The most heap in use in the steady cycles, and what stays after a full collection (MB). */
  steadyHeapUsedMB: number;
  retainedHeapMB: number;
  /** A steady cycle's CPU as time at the deployed 512 MB (CPU × 1,769 / 512), against the 12 s timeout. */
  steadyAt512Ms: number;
}

export const measureWatcher = async (sizes: readonly number[], steadyRuns = 5): Promise<WatcherRow[]> => {
  const rows: WatcherRow[] = [];
  for (const n of sizes) {
    // The in-process runs only count calls: at 100,000 pending the emulator's reply, built in this same process, alone
    // takes longer than the deployed 8 s broker timeout (the child's cycles, measured for CPU, have the stack to
    // themselves).
    const stack = await startLocalStack({ brokerTimeoutMs: 60_000 });
    const counter = countCalls(stack.watcherEnv.DYNAMODB_ENDPOINT!);
    try {
      // At the most a list may hold, 10 fewer: the changed cycle's 10 new orders bring it to the limit, not past it.
      const seeded = Math.min(n, MAX_LIST_RECORDS - CHANGED);
      await seedOutside(stack, seeded);
      // The baseline and steady cycles in the deployed bundle's own process: its CPU and memory.
      const child = await runCycles(stack, STEADY_CPU_RUNS);
      console.error(`watcher process at ${n}: ${JSON.stringify(child)}`);
      const [baseline, ...steadyCycles] = child.cycles;
      if (baseline?.status !== 'baseline' || baseline.pending !== seeded)
        throw new Error(`bench: the baseline run at ${n} went wrong: ${JSON.stringify(baseline).slice(0, 300)}`);
      if (steadyCycles.some((c) => c.status !== 'ok' || c.pending !== seeded))
        throw new Error(`bench: a steady cycle at ${n} went wrong: ${JSON.stringify(steadyCycles).slice(0, 300)}`);
      // A new container's steady cycles (every container but the one that ran the baseline): its own peak.
      const freshChild = await runCycles(stack, STEADY_CPU_RUNS, true);
      console.error(`watcher process (fresh container) at ${n}: ${JSON.stringify(freshChild)}`);
      if (freshChild.cycles.some((c) => c.status !== 'ok' || c.pending !== seeded))
        throw new Error(
          `bench: a fresh container's cycle at ${n} went wrong: ${JSON.stringify(freshChild).slice(0, 300)}`,
        );
      const baselineMs = baseline.wallMs;
      const steadyCpuMs = median(steadyCycles.map((c) => c.cpuMs));
      counter.take();
      let t: number;

      const steadyTimes: number[] = [];
      let steady = emptyCounter();
      // The session secret's reads by the watcher's steady cycles (the local Secrets Manager counts them).
      const secretReadsBefore = stack.secrets.getCallCount(LOCAL_SECRET_ID);
      for (let r = 0; r < steadyRuns; r++) {
        t = performance.now();
        const run = await stack.watch();
        steadyTimes.push(performance.now() - t);
        if (run.status !== 'ok' || run.published.length)
          throw new Error(`bench: a steady run at ${n} published or failed: ${JSON.stringify(run).slice(0, 300)}`);
        steady = counter.take();
      }

      const secretReadsPerCycle = (stack.secrets.getCallCount(LOCAL_SECRET_ID) - secretReadsBefore) / steadyRuns;
      // Changed: 10 orders placed outside the gateway (each one GTT Placed, one item written).
      const changed = CHANGED;
      for (let i = 0; i < changed; i++) await placeOutside(stack, { tsym: 'WIPRO-EQ' });
      counter.take();
      t = performance.now();
      const run = await stack.watch();
      const changedCycleMs = performance.now() - t;
      const changedCounter = counter.take();
      if (run.published.length !== changed)
        throw new Error(`bench: the changed run at ${n} published ${run.published.length} events, not ${changed}`);

      const steadyMonthly =
        ((steady.writeUnits * PRICE_PER_MILLION.write + steady.readUnits * PRICE_PER_MILLION.read) * CYCLES_PER_MONTH) /
        1e6;
      rows.push({
        pending: n,
        seeded,
        baselineMs: Math.round(baselineMs),
        baselineCalls: baseline.calls ?? 0,
        steadyCycleMs: round(median(steadyTimes), 1),
        steadyCalls: totalCalls(steady),
        steadyCallList: callList(steady),
        steadyBytesWritten: steady.bytesWritten,
        steadyWriteUnits: steady.writeUnits,
        steadyReadUnits: steady.readUnits,
        changedOrders: changed,
        changedCycleMs: round(changedCycleMs, 1),
        callsPerChangedOrder: round((totalCalls(changedCounter) - totalCalls(steady)) / changed),
        bytesWrittenPerChangedOrder: Math.round((changedCounter.bytesWritten - steady.bytesWritten) / changed),
        writeUnitsPerChangedOrder: round((changedCounter.writeUnits - steady.writeUnits) / changed),
        steadyMonthlyUsd: round(steadyMonthly, 3),
        secretReadsPerCycle: round(secretReadsPerCycle),
        baselineCpuMs: Math.round(baseline.cpuMs),
        baselinePeakMB: Math.round(child.baselinePeakMB),
        baselineCopies: baseline.copies ?? 0,
        steadyCpuMs: Math.round(steadyCpuMs),
        steadyPeakMB: Math.round(child.steadyPeakMB),
        freshSteadyCpuMs: Math.round(median(freshChild.cycles.map((c) => c.cpuMs))),
        freshSteadyPeakMB: Math.round(freshChild.steadyPeakMB),
        steadyHeapUsedMB: Math.max(child.steadyMemory.heapUsed, freshChild.steadyMemory.heapUsed),
        retainedHeapMB: Math.max(child.retainedHeapMB, freshChild.retainedHeapMB),
        steadyAt512Ms: Math.round((steadyCpuMs * FULL_VCPU_MB) / DEPLOYED_MB),
      });
    } finally {
      counter.remove();
      await stack.close();
    }
  }
  return rows;
};

if (import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({
    options: { sizes: { type: 'string', default: '10,1000,10000' }, steady: { type: 'string', default: '5' } },
  });
  const rows = await measureWatcher(values.sizes.split(',').map(Number), Number(values.steady));
  console.table(rows);
}
