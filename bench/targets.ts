/**
 * Issue 54's targets against what one run measured (cdk.out/bench-results.json): one row per target, its measured
 * value and met or not. `npm run bench` prints it last; bench/report.ts puts it at the top of docs/explanation/benchmarks.md's
 * tables. A target whose section did not run says so.
 */
import type { Results } from './report.js';

export interface TargetRow {
  target: string;
  measured: string;
  met: 'met' | 'not met' | 'not measured';
}

type Row = Record<string, number | string | boolean>;

const WATCHER_TIMEOUT_MS = 12_000;
const WATCHER_MEMORY_MB = 512;

const verdict = (ok: boolean): TargetRow['met'] => (ok ? 'met' : 'not met');
const notMeasured = (target: string, why: string): TargetRow => ({ target, measured: why, met: 'not measured' });

const warmRows = (r: Results): TargetRow[] => {
  if (!r.warm) return [notMeasured('Warm place, modify, cancel, PATCH', 'section `warm` not run')];
  const t = r.warm.target;
  return r.warm.rows.flatMap((w) => [
    {
      target: `Warm ${w.operation}: p50 at most +${t.overFloorP50Ms} ms over the floor`,
      measured: `+${w.overFloorP50} ms (function ${w.gatewayP50}, floor ${w.floorP50})`,
      met: verdict(Number(w.overFloorP50) <= Number(t.overFloorP50Ms)),
    },
    {
      target: `Warm ${w.operation}: CPU at most ${t.cpuMs} ms per call`,
      measured: `${w.cpuMs} ms (raw call ${w.rawCpuMs}, floor ${w.floorCpuMs})`,
      met: verdict(Number(w.cpuMs) <= Number(t.cpuMs)),
    },
    {
      target: `Warm ${w.operation}: at most ${t.dynamoTrips} DynamoDB round trips before the reply`,
      measured: `${w.dynamoTrips} (${w.dynamoCalls} calls)`,
      met: verdict(Number(w.dynamoTrips) <= Number(t.dynamoTrips)),
    },
  ]);
};

const signalRows = (r: Results): TargetRow[] => {
  const s = r.signals;
  if (!s) return [notMeasured('Signal acknowledgement', 'section `signals` not run')];
  return [
    {
      target: `Signal acknowledgement at most ${s.target.ackOverBareRatio}x a bare TransactWriteItems of its items`,
      measured: `${s.ackOverBareRatio}x (${s.ackP50Ms} ms against ${s.bareTransactP50Ms} ms, p50)`,
      met: verdict(Number(s.ackOverBareRatio) <= Number(s.target.ackOverBareRatio)),
    },
  ];
};

const coldRows = (r: Results): TargetRow[] => {
  if (!r.cold) return [notMeasured('Cold start', 'section `cold` not run')];
  const functions = r.cold.functions.filter((f) => !String(f.function).startsWith('peer ('));
  const summary = (rows: Row[], limit: number, what: string): TargetRow => {
    const over = rows.filter((f) => Number(f.ratio) > limit).sort((a, b) => Number(b.ratio) - Number(a.ratio));
    const worst = over[0];
    return {
      target: `Cold: ${what} at or below ${limit.toFixed(2)}x the fair peer`,
      measured: `${rows.length - over.length} of ${rows.length}${worst ? `; worst ${worst.function} ${worst.ratio}x` : ''}`,
      met: verdict(over.length === 0),
    };
  };
  return [
    summary(
      functions.filter((f) => f.target === '1x'),
      1,
      'every order function and every read',
    ),
    summary(functions, 1.25, 'every function'),
  ];
};

const watcherRows = (r: Results): TargetRow[] => {
  const rows = r.watcher?.rows ?? [];
  const at = (n: number) => rows.find((w) => Number(w.pending) === n);
  const out: TargetRow[] = [];
  const w30 = at(30_000);
  if (!w30) out.push(notMeasured('Watcher at 30,000 pending', 'BENCH_WATCHER_SIZES without 30000'));
  else
    out.push(
      {
        target: `Watcher at 30,000 pending: a steady cycle within a third of its ${WATCHER_TIMEOUT_MS / 1000} s timeout at ${WATCHER_MEMORY_MB} MB`,
        measured: `${w30.steadyAt512Ms} ms (CPU ${w30.steadyCpuMs} ms on a full core)`,
        met: verdict(Number(w30.steadyAt512Ms) <= WATCHER_TIMEOUT_MS / 3),
      },
      {
        target: 'Watcher at 30,000 pending: under 256 MB',
        measured:
          w30.freshSteadyPeakMB === undefined
            ? `${w30.steadyPeakMB} MB steady (${w30.baselinePeakMB} MB the first cycle)`
            : `${w30.baselinePeakMB} MB the first cycle, ${w30.steadyPeakMB} MB the steady cycles after it, ${w30.freshSteadyPeakMB} MB a new container's (heap ${w30.steadyHeapUsedMB} MB at most, ${w30.retainedHeapMB} MB kept)`,
        // Every cycle: the first, the steady ones after it in that container, and a new container's.
        met: verdict(
          [w30.steadyPeakMB, w30.baselinePeakMB, w30.freshSteadyPeakMB ?? 0].every((mb) => Number(mb) < 256),
        ),
      },
    );
  const w100 = at(100_000);
  if (!w100) out.push(notMeasured('Watcher at 100,000 pending', 'BENCH_WATCHER_SIZES without 100000'));
  else
    out.push({
      target: `Watcher at 100,000 pending: a cycle within its timeout and ${WATCHER_MEMORY_MB} MB`,
      measured: `${w100.steadyAt512Ms} ms at ${WATCHER_MEMORY_MB} MB, ${w100.steadyPeakMB} MB`,
      met: verdict(Number(w100.steadyAt512Ms) <= WATCHER_TIMEOUT_MS && Number(w100.steadyPeakMB) <= WATCHER_MEMORY_MB),
    });
  return out;
};

const walkRows = (r: Results): TargetRow[] => {
  const walk = (r.reads as { walk?: Row } | undefined)?.walk;
  if (!walk) return [notMeasured('Walking every page of a list', 'section `reads` not run')];
  return [
    {
      target: `Walking every page of a ${Number(walk.pending).toLocaleString('en')} list (default page of 100) at most 3x one full read`,
      measured: `${walk.walkAt100Ratio}x (${walk.walkAt100Pages} pages, ${walk.walkAt100CpuMs} ms CPU against ${walk.fullReadCpuMs} ms; pages of 1,000: ${walk.walkAt1000Ratio}x; without the snapshot, every page reading the broker: ${walk.walkAt1000RereadRatio}x at 1,000)`,
      met: verdict(Number(walk.walkAt100Ratio) <= 3),
    },
  ];
};

export const targetRows = (r: Results): TargetRow[] => [
  ...warmRows(r),
  ...signalRows(r),
  ...coldRows(r),
  ...watcherRows(r),
  ...walkRows(r),
];
