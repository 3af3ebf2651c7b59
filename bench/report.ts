/**
 * Markdown tables of the last `npm run bench` (cdk.out/bench-results.json, untracked), for docs/explanation/benchmarks.md
 * (`npx tsx bench/report.ts` prints them; `--write` puts them into the page). Each states its machine and date.
 */
import { readFileSync, writeFileSync } from 'node:fs';

import { targetRows } from './targets.js';

type Row = Record<string, number | string | boolean>;

export interface Results {
  node: string;
  cpus: number;
  cpuModel?: string;
  at: string;
  warm?: { iterations: number; target: Record<string, number>; rows: Row[] };
  signals?: Row & { target: Record<string, number> };
  reads?: { iterations: number; byId: Row; list: Row; walk?: Row };
  secretFetches?: { invocations: number; fetches: number; maxAgeSeconds: number };
  cold?: { rounds: number; functions: Row[] };
  load?: Row;
  watcher?: { cyclesPerMonth: number; pricePerMillion: { write: number; read: number }; rows: Row[] };
  memory?: { assumedWaitMs: number; rows: Row[] };
  metricsColdStart?: { bareMs: number; withMetricsMs: number; addedMs: number; bundleKB: number };
  governor?: Row;
  /** The watcher's rows when they come from a later run of that section alone (bench/run.ts --only watcher). */
  watcherMeasuredAt?: string;
}

const table = (header: string[], rows: (string | number | boolean | undefined)[][]) => [
  `| ${header.join(' | ')} |`,
  `|${header.map(() => '---').join('|')}|`,
  ...rows.map((r) => `| ${r.map((c) => (c === undefined || c === '' ? '–' : String(c))).join(' | ')} |`),
  '',
];

export const renderReport = (r: Results): string => {
  const machineAt = (at: string) =>
    `${at.slice(0, 16).replace('T', ' ')} UTC, ${r.cpus} cores (${r.cpuModel ?? 'CPU model not recorded'}), Node ${r.node}, loopback`;
  const machine = machineAt(r.at);
  // Sections run again alone later (their rows merged into the results) say so.
  const later = [
    r.watcherMeasuredAt ? `the GttWatcher's at ${r.watcherMeasuredAt.slice(11, 16)} UTC` : '',
    r.reads?.walk?.measuredAt ? `the page walk's at ${String(r.reads.walk.measuredAt).slice(11, 16)} UTC` : '',
  ].filter(Boolean);
  const lines: string[] = [
    "### Issue 54's targets",
    '',
    `Measured ${machine}: each target of the issue against this run (the sections below hold the rows)${later.length ? `; ${later.join(' and ')}, in later runs of those sections alone on the same machine` : ''}.`,
    '',
    ...table(
      ['target', 'measured', 'met'],
      targetRows(r).map((t) => [t.target, t.measured, t.met]),
    ),
  ];
  if (r.warm) {
    const t = r.warm.target;
    lines.push(
      '### Warm, as deployed',
      '',
      `Measured ${machine}. Each order function's synthesized bundle warm in processes of its own (40 calls each, its orders placed before it starts, so the pending list stays under about 120 orders), governor on, ${r.warm.iterations} calls interleaved call by call with a raw \`node:http\` keep-alive POST of the same jData request and with the floor: that POST between a bare conditional claim and its completion on the idempotency table (bench/peer/floor.mjs, in the same process; modify, PATCH and cancel on real pending orders; a PATCH's raw call is the full modify it becomes). ms; CPU is the mean per call in the process; DynamoDB calls and round trips before the reply (median of 30, counted at a loopback proxy; calls that overlap in time are one round trip). Targets: +${t.overFloorP50Ms} ms p50 over the floor, ${t.cpuMs} ms CPU, ${t.dynamoTrips} DynamoDB round trips.`,
      '',
      ...table(
        [
          'operation',
          'raw p50',
          'floor p50',
          'function p50',
          '+p50 over the floor',
          'target',
          'raw p99',
          'floor p99',
          'function p99',
          'CPU ms (raw, floor)',
          'CPU target',
          'DynamoDB calls / round trips before the reply (after it)',
          'calls',
          'DynamoDB target',
        ],
        r.warm.rows.map((w) => [
          w.operation,
          w.rawP50,
          w.floorP50,
          w.gatewayP50,
          w.overFloorP50,
          w.overFloorMet,
          w.rawP99,
          w.floorP99,
          w.gatewayP99,
          `${w.cpuMs} (${w.rawCpuMs}, ${w.floorCpuMs})`,
          w.cpuMet,
          `${w.dynamoCalls} / ${w.dynamoTrips} (${w.dynamoAfterReply})`,
          w.dynamoActions,
          w.dynamoMet,
        ]),
      ),
    );
  }
  if (r.signals) {
    const s = r.signals;
    lines.push(
      '### Signals',
      '',
      `Measured ${machine}. ${s.acknowledgements} acknowledgements through the local HTTP API, interleaved with a bare TransactWriteItems of the same items (the webhook's own, with fresh keys, sent from the bench's process: bench/peer/floor.mjs) and GET /_local/emulator on the same API; DynamoDB per acknowledgement from the SignalWebhook bundle warm behind the counting proxy; per signal end to end (webhook, SignalWorker and its GTT, EventForwarder) at the local DynamoDB. Targets: ${s.target.ackOverBareRatio}x the bare transaction p50, ${s.target.dynamoCalls} DynamoDB calls and the queue send.`,
      '',
      ...table(
        [
          'ack p50 ms',
          'ack p99 ms',
          'bare transaction p50 ms',
          'ratio',
          'target',
          'trivial route p50 ms',
          'DynamoDB calls / round trips per ack',
          'calls',
          'DynamoDB target',
          'DynamoDB calls per signal end to end',
        ],
        [
          [
            s.ackP50Ms,
            s.ackP99Ms,
            s.bareTransactP50Ms,
            s.ackOverBareRatio,
            s.ackMet,
            s.trivialP50Ms,
            `${s.dynamoCallsPerAck} / ${s.dynamoTripsPerAck}`,
            s.dynamoActionsPerAck,
            s.dynamoMet,
            s.dynamoCallsPerSignalEndToEnd,
          ],
        ],
      ),
    );
    const cold = r.cold?.functions.find((c) => c.function === 'SignalWebhook');
    if (cold)
      lines.push(
        `The webhook cold (its bundle, import + first call, cold table below): ${cold.importPlusFirstInvokeMs} ms, against TradingView's 3,000 ms.`,
        '',
      );
  }
  if (r.reads) {
    const b = r.reads.byId;
    const l = r.reads.list;
    lines.push(
      '### Reads',
      '',
      `Measured ${machine}. One order by id: the GetGTTOrder bundle warm, p50 of ${r.reads.iterations}, beside a raw POST of the broker's pending list (what a hand-written function reads: the broker has no read by id). The whole list: GetPendingGTTOrder, import + first invoke.`,
      '',
      ...table(
        [
          `by id at ${b.small} pending ms`,
          `at ${b.large} ms`,
          'ratio',
          `raw list at ${b.small} ms`,
          `raw list at ${b.large} ms`,
          `CPU ms at ${b.small} / ${b.large}`,
        ],
        [
          [
            b.smallP50Ms,
            b.largeP50Ms,
            b.ratio,
            b.rawListSmallP50Ms,
            b.rawListLargeP50Ms,
            `${b.cpuSmallMs} / ${b.cpuLargeMs}`,
          ],
        ],
      ),
      `The whole pending list at ${l.pending}: answered **${l.answered}**${l.error ? ` (${String(l.error)})` : ''}, ${l.importPlusFirstInvokeMs} ms.`,
      '',
      ...(r.reads.walk
        ? [
            `Walking every page of ${r.reads.walk.pending} pending orders (${r.reads.walk.listBytes} bytes of list; the CPU of a process reading the emulator's list over loopback through the broker layer, the later pages of a walk cut from the snapshot its first page kept): one full read ${r.reads.walk.fullReadCpuMs} ms; ${r.reads.walk.walkAt1000Pages} pages of 1,000 ${r.reads.walk.walkAt1000CpuMs} ms (**${r.reads.walk.walkAt1000Ratio}x**); ${r.reads.walk.walkAt100Pages} pages of 100 ${r.reads.walk.walkAt100CpuMs} ms (**${r.reads.walk.walkAt100Ratio}x**); the snapshot held ${r.reads.walk.snapshotMb} MB. Every page finding no snapshot (each on another container) and reading the broker, pages of 1,000: ${r.reads.walk.walkAt1000RereadCpuMs} ms (${r.reads.walk.walkAt1000RereadRatio}x). Target: 3x.${r.reads.walk.measuredAt ? ` Measured ${String(r.reads.walk.measuredAt).slice(0, 16).replace('T', ' ')} UTC, load ${r.reads.walk.load1}.` : ''}`,
            '',
          ]
        : []),
    );
  }
  if (r.cold) {
    lines.push(
      '### Cold start',
      '',
      `Measured ${machine}. The \`cdk synth\` bundles with their template environment, median of ${r.cold.rounds} interleaved rounds of fresh Node processes, each beside the fair peer (\`bench/peer/https.mjs\`, bundled like them) making the broker call of its operation; every probe's reply checked. Ratio = import + first invoke, function / peer; targets: 1.0x for the order functions and the reads, 1.25x for every other function. The last two rows are the peers on ClientDetails, node:https and fetch.`,
      '',
      ...table(
        [
          'function',
          'peer calls',
          'bundle KB',
          'import ms',
          'import + first invoke ms',
          'peer ms',
          'ratio',
          'target',
          'whole process ms',
          'peer whole process ms',
        ],
        r.cold.functions.map((c) => [
          c.function,
          c.peer,
          c.bundleKB,
          c.importMs,
          c.importPlusFirstInvokeMs,
          c.peerImportPlusFirstInvokeMs,
          c.ratio,
          c.met,
          c.wholeProcessMs,
          c.peerWholeProcessMs,
        ]),
      ),
    );
  }
  if (r.metricsColdStart && r.cold) {
    const m = r.metricsColdStart;
    lines.push(
      `**What Powertools Metrics adds to a cold start** (${machine}; a bare bundle against one with Metrics, the logMetrics middleware and one published metric, median of ${r.cold.rounds}): ${m.bareMs} ms against ${m.withMetricsMs} ms, so **+${m.addedMs} ms** (${m.bundleKB} KB).`,
      '',
    );
  }
  if (r.memory) {
    lines.push(
      '### Memory',
      '',
      `Measured ${machine}. Each bundle in its own process: CPU ms of its first invocation and the mean of the warm ones, its peak RSS; the CPU-bound time at each size is CPU ms × 1,769 / MB; USD per million warm invocations at arm64 prices with ${r.memory.assumedWaitMs} ms of assumed waiting.`,
      '',
      ...table(
        [
          'function',
          'peak RSS MB',
          'cold CPU ms',
          'warm CPU ms',
          'at 256 MB',
          'at 512 MB',
          'at 1,024 MB',
          'USD/M at 512',
          'USD/M at 1,024',
          'chosen MB',
        ],
        r.memory.rows.map((m) => [
          m.function,
          m.peakRssMB,
          m.coldCpuMs,
          m.warmCpuMs,
          m.at256Ms,
          m.at512Ms,
          m.at1024Ms,
          m.usdPerMillionAt512,
          m.usdPerMillionAt1024,
          m.chosenMB,
        ]),
      ),
    );
  }
  if (r.secretFetches)
    lines.push(
      `**Secret reads** (${machine}): ${r.secretFetches.fetches} for ${r.secretFetches.invocations} warm invocations of one function (max age ${r.secretFetches.maxAgeSeconds} s).`,
      '',
    );
  if (r.load) {
    const l = r.load;
    lines.push(
      `**Load** (${machine}; autocannon, ${String(l.connections)} connections, ${String(l.requests)} requests, half places, half reads, through the local API without the governor): ${String(l.throughputRps)} req/s, p50 ${String(l.latencyP50Ms)} ms, p99 ${String(l.latencyP99Ms)} ms, ${String(l.errors)} errors, ${String(l.non2xx)} non-2xx; ${String(l.placesAccepted)} places accepted, ${String(l.emulatorOrders)} orders at the emulator (match: ${String(l.ordersMatchAcceptedPlaces)}); broker requests with a token in the body: ${String(l.brokerRequestsWithTokenInBody)}.`,
      '',
    );
  }
  if (r.watcher) {
    const w = r.watcher;
    lines.push(
      `**GttWatcher at N pending orders** (${r.watcherMeasuredAt ? machineAt(r.watcherMeasuredAt) : machine}; a fresh stack per N (at the list's limit, 10 fewer seeded); CPU and peak RSS of the watcher's bundle in its own process (the steady cycles after the first cycle in that process, and in a new process whose cycles are all steady, as in every container but the one that ran the first cycle; the heap at most in the steady cycles and kept after a full collection), a steady cycle's time at 512 MB = its CPU × 1,769 / 512; DynamoDB calls at the watcher's client; units as on-demand bills them; a changed cycle has 10 orders placed outside the gateway; monthly = ${w.cyclesPerMonth} steady cycles at $${w.pricePerMillion.write}/M write and $${w.pricePerMillion.read}/M read units; secret reads per steady cycle, target at most 1):`,
      '',
      ...table(
        [
          'pending',
          'baseline ms',
          'baseline calls',
          'steady cycle ms',
          'steady calls',
          'steady write units',
          'steady read units',
          'changed cycle ms',
          'calls per changed order',
          'write units per changed order',
          'steady $/month',
          'secret reads per cycle',
          'first cycle CPU ms / peak MB',
          'steady CPU ms / at 512 MB ms / peak MB (after the first cycle)',
          'new container: steady CPU ms / peak MB',
          'steady heap MB / kept MB',
        ],
        w.rows.map((x) => [
          x.pending,
          x.baselineMs,
          x.baselineCalls,
          x.steadyCycleMs,
          `${x.steadyCalls} (${x.steadyCallList})`,
          x.steadyWriteUnits,
          x.steadyReadUnits,
          x.changedCycleMs,
          x.callsPerChangedOrder,
          x.writeUnitsPerChangedOrder,
          x.steadyMonthlyUsd,
          x.secretReadsPerCycle,
          `${x.baselineCpuMs} / ${x.baselinePeakMB}`,
          `${x.steadyCpuMs} / ${x.steadyAt512Ms} / ${x.steadyPeakMB}`,
          x.freshSteadyPeakMB === undefined ? '' : `${x.freshSteadyCpuMs} / ${x.freshSteadyPeakMB}`,
          x.steadyHeapUsedMB === undefined ? '' : `${x.steadyHeapUsedMB} / ${x.retainedHeapMB}`,
        ]),
      ),
    );
  }
  if (r.governor) {
    const g = r.governor;
    lines.push(
      `**Order-rate governor** (${machine}; one permit per broker write, dynalite behind the local stream proxy): ${String(g.permits)} permits p50 ${String(g.permitP50Ms)} ms, p99 ${String(g.permitP99Ms)} ms, ${String(g.dynamoCallsPerPermit)} DynamoDB calls per permit; 30 containers at once: ${String(g.contended30Granted)} granted (${String(g.contended30CallsOfGranted)} calls between them), ${String(g.contended30RefusedRateLimited)} refused RATE_LIMITED.`,
      '',
    );
  }
  return lines.join('\n');
};

/** docs/explanation/benchmarks.md holds the tables between these two lines; `--write` replaces them there. */
const BEGIN = '<!-- bench/report.ts: generated from cdk.out/bench-results.json -->';
const END = '<!-- bench/report.ts: end -->';
const PAGE = 'docs/explanation/benchmarks.md';

if (import.meta.filename === process.argv[1]) {
  const tables = renderReport(JSON.parse(readFileSync('cdk.out/bench-results.json', 'utf8')) as Results);
  if (process.argv.includes('--write')) {
    const page = readFileSync(PAGE, 'utf8');
    const [from, to] = [page.indexOf(BEGIN), page.indexOf(END)];
    if (from < 0 || to < from) throw new Error(`${PAGE} has no ${BEGIN} ... ${END} block`);
    writeFileSync(PAGE, `${page.slice(0, from + BEGIN.length)}\n\n${tables}\n${page.slice(to)}`);
    console.log(`wrote the tables into ${PAGE}`);
  } else console.log(tables);
}
