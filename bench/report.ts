/** Markdown tables of the last `npm run bench` (cdk.out/bench-results.json, untracked), for docs/benchmarks.md (`npx tsx bench/report.ts`). */
import { readFileSync } from 'node:fs';

interface Results {
  node: string;
  cpus: number;
  at: string;
  warm?: Record<string, number | string>[];
  secretFetches?: { invocations: number; fetches: number; maxAgeSeconds: number };
  cold?: { rounds: number; functions: Record<string, number | string>[] };
  load?: Record<string, number | boolean>;
  watcher?: {
    cyclesPerMonth: number;
    pricePerMillion: { write: number; read: number };
    rows: Record<string, number | string>[];
  };
  memory?: { assumedWaitMs: number; rows: Record<string, number | string>[] };
  metricsColdStart?: { bareMs: number; withMetricsMs: number; addedMs: number; bundleKB: number };
  governor?: {
    permits: number;
    permitP50Ms: number;
    permitP99Ms: number;
    dynamoCallsPerPermit: number;
    contended30Granted: number;
    contended30RefusedRateLimited: number;
    contended30CallsOfGranted: number;
  };
}

export const renderReport = (r: Results): string => {
  const lines = [`Measured ${r.at} on Node ${r.node}, ${r.cpus} cores, all on loopback (\`npm run bench\`).`, ''];
  if (r.warm) {
    lines.push(
      '**Warm overhead** (ms; interleaved calls of a raw `fetch` of the same jData request, a raw `node:http` keep-alive POST, and the gateway handler in-process as deployed: order operations with an idempotency key and their event):',
      '',
      '| operation | raw fetch p50 | raw node:http p50 | gateway p50 | gateway − raw http p50 | gateway / fetch | gateway / raw http | raw http p99 | gateway p99 | gateway p50 without its event |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...r.warm.map(
        (w) =>
          `| ${w.operation} | ${w.fetchP50} | ${w.rawHttpP50} | ${w.gatewayP50} | ${w.overheadVsRawHttpP50} | ${w.ratioVsFetchP50} | ${w.ratioVsRawHttpP50} | ${w.rawHttpP99} | ${w.gatewayP99} | ${w.gatewayWithoutEventP50 ?? '–'} |`,
      ),
      '',
    );
  }
  if (r.cold) {
    lines.push(
      `**Cold start of what deploys** (the \`cdk synth\` bundles with their template environment, median of ${r.cold.rounds} interleaved rounds of fresh Node processes, beside the hand-written peer \`bench/peer.mjs\`; get, modify and cancel on real pending orders; ratio = import + first invoke, function / peer):`,
      '',
      '| function | bundle KB | import ms | import + first invoke ms | peer ms | ratio | whole process ms | peer whole process ms |',
      '|---|---|---|---|---|---|---|---|',
      ...r.cold.functions.map(
        (c) =>
          `| ${c.function} | ${c.bundleKB} | ${c.importMs} | ${c.importPlusFirstInvokeMs} | ${c.peerImportPlusFirstInvokeMs} | ${c.ratio} | ${c.wholeProcessMs} | ${c.peerWholeProcessMs} |`,
      ),
      '',
    );
  }
  if (r.metricsColdStart && r.cold) {
    lines.push(
      `**What Powertools Metrics adds to a cold start** (import + first invoke, a bare bundle against one with Metrics, the logMetrics middleware and one published metric, same esbuild settings, median of ${r.cold.rounds}): ${r.metricsColdStart.bareMs} ms against ${r.metricsColdStart.withMetricsMs} ms, so **+${r.metricsColdStart.addedMs} ms** (${r.metricsColdStart.bundleKB} KB).`,
      '',
    );
  }
  if (r.memory) {
    lines.push(
      `**Memory** (each deployed bundle in its own Node process: CPU ms of its first invocation and the mean of the warm ones after it, its peak RSS; the CPU-bound time at each size is CPU ms × 1,769 / MB, Lambda's CPU share; USD per million warm invocations at arm64 prices with ${r.memory.assumedWaitMs} ms of assumed waiting for the broker and DynamoDB):`,
      '',
      '| function | peak RSS MB | cold CPU ms | warm CPU ms | at 256 MB | at 512 MB | at 1,024 MB | USD/M at 512 | USD/M at 1,024 | chosen MB |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...r.memory.rows.map(
        (m) =>
          `| ${m.function} | ${m.peakRssMB} | ${m.coldCpuMs} | ${m.warmCpuMs} | ${m.at256Ms} | ${m.at512Ms} | ${m.at1024Ms} | ${m.usdPerMillionAt512} | ${m.usdPerMillionAt1024} | ${m.chosenMB} |`,
      ),
      '',
    );
  }
  if (r.secretFetches)
    lines.push(
      `**Secret reads:** ${r.secretFetches.fetches} for ${r.secretFetches.invocations} warm invocations (max age ${r.secretFetches.maxAgeSeconds} s).`,
      '',
    );
  if (r.load) {
    lines.push(
      `**Load** (autocannon, ${String(r.load.connections)} connections, ${String(r.load.requests)} requests, half places with fresh idempotency keys, half reads, through the local API, dynalite and the emulator): ${String(r.load.throughputRps)} req/s, p50 ${String(r.load.latencyP50Ms)} ms, p99 ${String(r.load.latencyP99Ms)} ms, ${String(r.load.errors)} errors, ${String(r.load.non2xx)} non-2xx; ${String(r.load.placesAccepted)} places accepted and ${String(r.load.emulatorOrders)} orders at the emulator (match: ${String(r.load.ordersMatchAcceptedPlaces)}); broker requests with a token in the body: ${String(r.load.brokerRequestsWithTokenInBody)}.`,
      '',
    );
  }
  if (r.watcher) {
    const w = r.watcher;
    lines.push(
      `**GttWatcher at N pending orders** (a fresh stack per N; DynamoDB calls counted at the watcher's SDK client; units as on-demand bills them; a changed cycle has 10 orders placed outside the gateway; monthly = ${w.cyclesPerMonth} steady cycles at $${w.pricePerMillion.write}/M write and $${w.pricePerMillion.read}/M read units):`,
      '',
      '| pending | baseline ms | baseline calls | steady cycle ms | steady calls | steady bytes written | steady write units | steady read units | changed cycle ms | calls per changed order | bytes written per changed order | write units per changed order | steady cycles $/month |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
      ...w.rows.map(
        (x) =>
          `| ${x.pending} | ${x.baselineMs} | ${x.baselineCalls} | ${x.steadyCycleMs} | ${x.steadyCalls} (${x.steadyCallList}) | ${x.steadyBytesWritten} | ${x.steadyWriteUnits} | ${x.steadyReadUnits} | ${x.changedCycleMs} | ${x.callsPerChangedOrder} | ${x.bytesWrittenPerChangedOrder} | ${x.writeUnitsPerChangedOrder} | ${x.steadyMonthlyUsd} |`,
      ),
      '',
    );
  }
  if (r.governor) {
    lines.push(
      `**Order-rate governor** (one permit per broker write; the warm overhead and load above run without it, since it caps places at 8 a second; dynalite on loopback behind the local stream proxy): ${r.governor.permits} permits p50 ${r.governor.permitP50Ms} ms, p99 ${r.governor.permitP99Ms} ms, ${r.governor.dynamoCallsPerPermit} DynamoDB calls per permit; 30 containers at once: ${r.governor.contended30Granted} granted (${r.governor.contended30CallsOfGranted} calls between them), ${r.governor.contended30RefusedRateLimited} refused RATE_LIMITED.`,
      '',
    );
  }
  return lines.join('\n');
};

if (import.meta.filename === process.argv[1]) {
  console.log(renderReport(JSON.parse(readFileSync('cdk.out/bench-results.json', 'utf8')) as Results));
}
