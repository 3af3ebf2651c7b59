/**
 * Reads that grow with the pending list: one order by id (the GetGTTOrder bundle warm) at a small and a large
 * number of pending orders, against a raw `node:http` POST of the broker's pending list (what a hand-written
 * function reads to find one order: the broker has no read by id), interleaved; and the whole pending list at a
 * large N (GetPendingGTTOrder's bundle, import + first invoke): does it answer, or fail on the reply's size.
 * Orders are placed at the emulator directly, 25 at a time (not through the gateway), then the GttWatcher runs (as
 * it does every minute when deployed) so one order by id may answer from its copy of the pending list.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';

import { buildBrokerRequest } from '../functions/base/broker/jdata.js';
import type { LocalStack } from '../local/run-local.js';
import { deployedFunctions, localEnv, once, ORDER } from './cold-probe.js';
import { percentile, round, warmProbe } from './warm.js';

export const readSizes = () => ({
  small: Number(process.env.BENCH_READS_SMALL ?? 10),
  large: Number(process.env.BENCH_READS_LARGE ?? 1_000),
  list: Number(process.env.BENCH_READS_LIST ?? 16_000),
});

export const measureReads = async (stack: LocalStack, iterations: number) => {
  const sizes = readSizes();
  const session = { uid: stack.emulator.uid, actid: stack.emulator.actid };
  const brokerRequest = (operation: string, fields: Record<string, string>) =>
    buildBrokerRequest(
      stack.broker.baseUrl,
      operation,
      { ...session, ...fields },
      stack.emulator.token,
      stack.broker.auth,
    );
  const place = brokerRequest('PlaceGTTOrder', {
    ...Object.fromEntries(Object.entries(ORDER).map(([k, v]) => [k, String(v)])),
    tsym: encodeURIComponent(ORDER.tsym),
    validity: 'GTT',
  });
  let pending = 0;
  let first = '';
  const placeUpTo = async (n: number) => {
    for (; pending < n; pending += Math.min(25, n - pending)) {
      const replies = await Promise.all(
        Array.from({ length: Math.min(25, n - pending) }, async () => {
          const res = await fetch(place.url, { method: 'POST', headers: place.headers, body: place.body });
          return (await res.json()) as { al_id?: string };
        }),
      );
      for (const reply of replies) {
        if (!reply.al_id) throw new Error(`bench: a setup place failed: ${JSON.stringify(reply)}`);
        first ||= reply.al_id;
      }
    }
  };
  const byId = deployedFunctions().find((f) => f.name === 'GetGTTOrder');
  const list = deployedFunctions().find((f) => f.name === 'GetPendingGTTOrder');
  if (!byId || !list) throw new Error('bench: GetGTTOrder or GetPendingGTTOrder is not in the synthesized stack');
  const rawList = brokerRequest('GetPendingGTTOrder', {});
  const byIdAt = async (n: number) => {
    await placeUpTo(n);
    // The watcher's runs copy the list (at most 1,000 new orders a run): the copy is then fresh for 90 s.
    for (let run = 0; run < Math.ceil(n / 1_000) + 1; run++) await stack.watch();
    const items = Array.from({ length: iterations + 1 }, () => ({ gateway: { al_id: first }, raw: rawList }));
    const out = await warmProbe(`GetGTTOrder at ${n} pending`, byId.file, items, localEnv(stack, byId));
    return { gateway: percentile(out.gw, 50), raw: percentile(out.raw, 50), cpu: percentile(out.gwCpu, 50) };
  };
  const small = await byIdAt(sizes.small);
  const large = await byIdAt(sizes.large);
  await placeUpTo(sizes.list);
  const whole = await once(list.file, {}, localEnv(stack, list));
  // Last: it seeds BENCH_READS_WALK more orders.
  const walk = await measurePageWalk(stack);
  return {
    walk,
    byId: {
      small: sizes.small,
      large: sizes.large,
      smallP50Ms: round(small.gateway, 3),
      largeP50Ms: round(large.gateway, 3),
      ratio: round(large.gateway / small.gateway),
      rawListSmallP50Ms: round(small.raw, 3),
      rawListLargeP50Ms: round(large.raw, 3),
      cpuSmallMs: round(small.cpu),
      cpuLargeMs: round(large.cpu),
    },
    list: {
      pending: sizes.list,
      answered: whole.ok ? 'yes' : 'no',
      error: whole.ok ? '' : (whole.error ?? '').slice(0, 160),
      importPlusFirstInvokeMs: round(whole.totalMs, 1),
    },
  };
};

/**
 * Walking every page of a long pending list against one full read, in the CPU of a process of its own that reads
 * the emulator's list over loopback HTTP through the broker layer (bench/page-walk-probe.ts: the emulator's work is
 * not counted, the transport's is): the full read is the whole list decoded (what the GttWatcher reads); the walks
 * are every page from the first to the last `nextCursor`, at the default limit (100) and the largest (1,000), their
 * later pages cut from the snapshot the first page kept; and a walk at 1,000 whose every page finds no snapshot
 * (another container each time) and reads the broker: the broker has no paging.
 */
export const measurePageWalk = async (stack: LocalStack, pending = Number(process.env.BENCH_READS_WALK ?? 50_000)) => {
  const seeded = await fetch(`${stack.emulator.url}/_emulator/seed-gtts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      uid: stack.emulator.uid,
      count: pending,
      order: {
        uid: stack.emulator.uid,
        actid: stack.emulator.actid,
        ...Object.fromEntries(Object.entries(ORDER).map(([k, v]) => [k, String(v)])),
        validity: 'GTT',
      },
    }),
  });
  if (seeded.status !== 201) throw new Error(`bench: the emulator's seed failed: ${await seeded.text()}`);
  const raw = buildBrokerRequest(
    stack.broker.baseUrl,
    'GetPendingGTTOrder',
    { uid: stack.emulator.uid },
    stack.emulator.token,
    stack.broker.auth,
  );
  const listBytes = (
    await (await fetch(raw.url, { method: 'POST', headers: raw.headers, body: raw.body })).arrayBuffer()
  ).byteLength;
  const walk = (label: string, w: { pages: number; cpuMs: number; heldBytes: number }, full: number) => ({
    [`walkAt${label}Pages`]: w.pages,
    [`walkAt${label}CpuMs`]: round(w.cpuMs),
    [`walkAt${label}Ratio`]: round(w.cpuMs / full),
  });
  const out = await probeWalk({
    baseUrl: stack.broker.baseUrl,
    auth: stack.broker.auth ?? 'bearer',
    uid: stack.emulator.uid,
    actid: stack.emulator.actid,
    token: stack.emulator.token,
  });
  return {
    pending: out.orders,
    listBytes,
    fullReadCpuMs: round(out.fullReadCpuMs),
    ...walk('1000', out.at1000, out.fullReadCpuMs),
    ...walk('100', out.at100, out.fullReadCpuMs),
    ...walk('1000Reread', out.reread, out.fullReadCpuMs),
    snapshotMb: round(out.at100.heldBytes / 2 ** 20, 1),
    probeRssMb: round(out.rssMb),
    // This row may be run on its own (`npx tsx bench/reads.ts`) and merged: it says when and under what load.
    measuredAt: new Date().toISOString(),
    load1: round(loadavg()[0]!),
  };
};

interface WalkOut {
  orders: number;
  fullReadCpuMs: number;
  at1000: { pages: number; cpuMs: number; heldBytes: number };
  at100: { pages: number; cpuMs: number; heldBytes: number };
  reread: { pages: number; cpuMs: number; heldBytes: number };
  rssMb: number;
}

const probeWalk = (config: Record<string, string>): Promise<WalkOut> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/page-walk-probe.ts'], {
      env: { ...process.env, BENCH_WALK: JSON.stringify(config) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-2_000)));
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        resolve(JSON.parse(out.trim().split('\n').pop()!) as WalkOut);
      } catch (error) {
        reject(new Error(`bench: the page walk's probe failed (${String(error)}): ${err.slice(-600)}`));
      }
    });
  });

if (import.meta.filename === process.argv[1]) {
  const { startLocalStack } = await import('../local/run-local.js');
  const stack = await startLocalStack();
  try {
    const walk = await measurePageWalk(stack);
    console.table([walk]);
    // Into the results a whole run wrote (bench/report.ts reads them), when there are some.
    const file = process.env.BENCH_RESULTS_FILE ?? 'cdk.out/bench-results.json';
    if (existsSync(file)) {
      const results = JSON.parse(readFileSync(file, 'utf8')) as { reads?: Record<string, unknown> };
      results.reads = { ...results.reads, walk };
      writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
      console.log(`the walk's row written into ${file}`);
    }
  } finally {
    await stack.close();
  }
}
