/**
 * The plans' model-based test (fast-check commands): random sequences of what traders, markets and brokers do to
 * plans (create, move prices, fill fully, partly, reject, cancel at the close, faults on every broker write,
 * runs cut off at their deadline or killed mid-write, overlapping runs, the kill switch, DELETE, time passing)
 * against the real engine, the emulator and dynalite, with the promises of docs/reference/plans.md checked after every step
 * against the emulator's own books. Used by test/integration/plans-model.test.ts (a bounded, seeded set) and scripts/plans-model.ts (a long
 * run that prints its count and any shrunk counterexample).
 */
import fc from 'fast-check';

import type { AdvanceResult, PlanEngine } from '../../functions/plans/engine.js';
import { createPlanEngine } from '../../functions/plans/engine-wiring.js';
import { LATE_WINDOW_MS } from '../../functions/plans/limits.js';
import { planIdOf } from '../../functions/plans/stamps.js';
import { PlanStore } from '../../functions/plans/store.js';
import type { LocalStack } from '../../local/run-local.js';
import { emulatorControl, type FaultSpec } from './emulator-control.js';
import { killedRun } from './killed-run.js';
import { captureLogger } from './logs.js';
import { checkEvents, checkInvariants } from './plans-invariants.js';
import { legsCommands } from './plans-legs-model.js';
import { optionCommands } from './plans-option-model.js';
import { SAMPLE_ORDER } from './sample-order.js';

/** Two symbols, so plans share a market; prices around the plans' triggers (entries fire below 1490). */
const SYMBOLS = ['M&M-EQ', 'SBIN-EQ'] as const;
const PRICES = [1350, 1395, 1450, 1485, 1500, 1560, 1605, 1650] as const;
const WRITES = ['PlaceGTTOrder', 'PlaceOCOOrder', 'ModifyGTTOrder', 'CancelGTTOrder'] as const;
/** What a broker write can do on a bad day: act and lose the reply, lose the request, fail, refuse. */
const RUN_WRITES = fc.constantFrom(
  'PlaceOCOOrder',
  'PlaceOCOOrder',
  'PlaceOCOOrder',
  'ModifyGTTOrder',
  'ModifyGTTOrder',
  'PlaceGTTOrder',
  'CancelGTTOrder',
);
const FAULTS = fc.constantFrom<Omit<FaultSpec, 'operation'>>(
  { kind: 'drop', executed: true },
  { kind: 'drop', executed: true },
  { kind: 'drop', executed: false },
  { kind: 'http5xx' },
  { kind: 'notOk', message: 'RMS:Rule: Check circuit limit' },
);

export interface Real {
  stack: LocalStack;
  engine: PlanEngine;
  store: PlanStore;
  /** How far the engine's clock is ahead of the wall clock (leases lapse as time passes). */
  clock: { offset: number };
  plans: string[];
  /** Plan id -> the error code the last run reported for it. */
  runErrors: Map<string, string>;
  /** The plans whose try the last run reported as unresolved (`waiting`), and when it began (the engine's clock). */
  runWaiting: Set<string>;
  runStartedAt: number;
  /** Until when a broker may still carry out a write late (a killed run's slow call). */
  lateUntil: number;
  keys: { n: number };
  log: string[];
}

type Model = { plans: number };
type Cmd = fc.AsyncCommand<Model, Real>;

/** What the sequences reached (printed by scripts/plans-model.ts). */
export const modelStats = {
  steps: 0,
  plans: 0,
  states: {} as Record<string, number>,
  refusals: {} as Record<string, number>,
};

const settleLate = async (r: Real) => {
  const wait = r.lateUntil - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
};

const control = (r: Real) => emulatorControl(r.stack.emulator.url);
const deadline = (ms = 10_000) => Date.now() + ms;

const bracketInput = (tsym: string, qty: number) => ({
  kind: 'bracket' as const,
  entry: { ...SAMPLE_ORDER, tsym, qty },
  target: { trigger: '1600', price: '1600' },
  stopLoss: { trigger: '1400', price: '1400' },
});
const trailingInput = (tsym: string) => ({
  kind: 'trailing-stop' as const,
  order: { ...SAMPLE_ORDER, tsym, trantype: 'S', d: '1400', prc: '1395' },
  trailBy: '100',
  step: '5',
});

export const attempt = async (r: Real, what: string, fn: () => Promise<unknown>) => {
  try {
    await fn();
    r.log.push(`${what}: ok`);
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).message;
    modelStats.refusals[code] = (modelStats.refusals[code] ?? 0) + 1;
    r.log.push(`${what}: ${code}`);
  }
};

/** What the last run (or runs, overlapping) reported, for the checks after it. */
const saw = (r: Real, startedAt: number, outs: AdvanceResult[]) => {
  r.runStartedAt = startedAt;
  r.runErrors = new Map(outs.flatMap((o) => o.errors.map((e) => [e.planId, e.code] as const)));
  r.runWaiting = new Set(outs.flatMap((o) => (o.waiting ?? []).map((w) => w.planId)));
  for (const out of outs)
    r.log.push(
      `run: acted ${out.acted.join(',') || '-'} errors ${out.errors.map((e) => e.code).join(',') || '-'} waiting ${out.waiting?.map((w) => w.stamp).join(',') ?? '-'}`,
    );
};

const run = async (r: Real, ms = 10_000) => {
  const startedAt = Date.now() + r.clock.offset;
  saw(r, startedAt, [await r.engine.advance(deadline(ms))]);
};

/**
 * The killed run's invocation deadline, and how long its slow broker write takes: acted on late, the write lands
 * after that deadline and well inside the late window (the lease), so no later run may place the step again.
 */
const KILLED_DEADLINE_MS = 1_800;
const SLOW_WRITE_MS = 2_600;
if (SLOW_WRITE_MS >= KILLED_DEADLINE_MS + LATE_WINDOW_MS)
  throw new Error('the killed run model: a late write must land within the late window');

class Command implements Cmd {
  constructor(
    readonly label: string,
    private readonly act: (r: Real) => Promise<void>,
    readonly isRun = false,
  ) {}
  check = () => true;
  async run(_m: Model, r: Real): Promise<void> {
    modelStats.steps += 1;
    await this.act(r);
    await checkInvariants(r, this.isRun);
  }
  toString = () => this.label;
}

/** A plan made at a market of 1500 (a bracket's entry fires below 1490); its id kept even if the create fails. */
const createPlan = async (r: Real, what: string, tsym: string, input: unknown) => {
  const key = `model-${process.pid}-${Date.now()}-${++r.keys.n}`;
  r.plans.push(planIdOf(key));
  if (tsym) await control(r).ltp('NSE', tsym, 1500);
  await attempt(r, `create ${what}`, () => r.engine.create(input as never, key, deadline()));
};

const bracket = fc
  .record({ tsym: fc.constantFrom(...SYMBOLS), qty: fc.constantFrom(2, 10) })
  .map(
    ({ tsym, qty }) =>
      new Command(`bracket ${tsym} x${qty}`, (r) => createPlan(r, `bracket ${tsym}`, tsym, bracketInput(tsym, qty))),
  );

const SLOW_MODES = fc.constantFrom('executed', 'late', 'never');

/**
 * The market moves to `ltp`, then a run meets a slow `operation`: cut off at its deadline (its calls end then, and
 * the run goes on), or killed while the write is in flight (nothing of the run after it happens). The broker acts on
 * the write at once (`executed`), when the delay ends after the invocation is gone (`late`), or not at all.
 */
const slowRun = (spec: { tsym: string; ltp: number; operation: string; mode: string; killed: boolean }) =>
  new Command(
    `ltp ${spec.tsym} ${spec.ltp}, ${spec.killed ? 'killed' : 'cut-off'} run (${spec.operation} slow, ${spec.mode})`,
    async (r) => {
      await control(r).ltp('NSE', spec.tsym, spec.ltp);
      await control(r).fault({
        operation: spec.operation,
        kind: 'delay',
        delayMs: SLOW_WRITE_MS,
        ...(spec.mode === 'executed' ? { executed: true } : spec.mode === 'late' ? { late: true } : {}),
      });
      // The invocation's deadline comes before the broker's answer. Cut off, the run ends after that deadline;
      // killed, that deadline is passed on the engine's clock while the broker goes on in real time.
      const ends = Date.now() + KILLED_DEADLINE_MS;
      if (spec.killed) {
        const { write } = await killedRun(r.engine, KILLED_DEADLINE_MS, (ms) => (r.clock.offset += ms));
        // The write it died in is on its way: the fault is left for it until it arrives (or its call gives up).
        const faults = r.stack.emulator.emulator.faults;
        while (write === spec.operation && faults.list().length && Date.now() < ends)
          await new Promise((resolve) => setTimeout(resolve, 10));
      } else await r.engine.advance(ends).catch(() => undefined);
      await control(r).clearFaults();
      // A late write reached the broker before the run's deadline (its call gives up then), so it lands before this
      // bound. Executed and never-acted writes do nothing late.
      if (spec.mode === 'late') r.lateUntil = Math.max(r.lateUntil, ends + SLOW_WRITE_MS);
    },
  );

const commands = [
  // Brackets weighted up: their entry, fill and exit are where most can go wrong.
  bracket,
  bracket,
  fc
    .constantFrom(...SYMBOLS)
    .map(
      (tsym) => new Command(`trailing ${tsym}`, (r) => createPlan(r, `trailing ${tsym}`, tsym, trailingInput(tsym))),
    ),
  fc.record({ tsym: fc.constantFrom(...SYMBOLS), ltp: fc.constantFrom(...PRICES) }).map(
    ({ tsym, ltp }) =>
      new Command(`ltp ${tsym} ${ltp}`, (r) =>
        control(r)
          .ltp('NSE', tsym, ltp)
          .then(() => undefined),
      ),
  ),
  fc
    .oneof(
      fc.constant({ status: 'filled' }),
      fc.constant({ status: 'rejected' }),
      fc.constant({ status: 'open' }),
      fc.constant({ status: 'cancelled' }),
      fc.integer({ min: 1, max: 9 }).map((fillQty) => ({ status: 'partial', fillQty })),
    )
    .map(
      (outcome) =>
        new Command(`next-order ${JSON.stringify(outcome)}`, async (r) => {
          await fetch(`${r.stack.emulator.url}/_emulator/next-order`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(outcome),
          });
        }),
    ),
  fc.constant(
    new Command('market close', (r) =>
      control(r)
        .close()
        .then(() => undefined),
    ),
  ),
  fc.record({ operation: fc.constantFrom(...WRITES), fault: FAULTS }).map(
    ({ operation, fault }) =>
      new Command(`fault ${operation} ${JSON.stringify(fault)}`, (r) =>
        control(r)
          .fault({ operation, ...fault })
          .then(() => undefined),
      ),
  ),
  // A run while one broker write misbehaves (the fault cleared after it, so it hits the run's own actions); runs
  // place exits and move stops far more often than anything else, so those are faulted most.
  fc.record({ operation: RUN_WRITES, fault: FAULTS }).map(
    ({ operation, fault }) =>
      new Command(
        `run with ${operation} ${JSON.stringify(fault)}`,
        async (r) => {
          await control(r).fault({ operation, ...fault });
          await run(r);
          await control(r).clearFaults();
        },
        true,
      ),
  ),
  // The market falls through the entries' triggers and the run that follows meets a broker fault: the moment an
  // exit is placed, when a lost reply costs most.
  fc.record({ tsym: fc.constantFrom(...SYMBOLS), operation: RUN_WRITES, fault: FAULTS }).map(
    ({ tsym, operation, fault }) =>
      new Command(
        `ltp ${tsym} 1450, run with ${operation} ${JSON.stringify(fault)}`,
        async (r) => {
          await control(r).ltp('NSE', tsym, 1450);
          await control(r).fault({ operation, ...fault });
          await run(r);
          await control(r).clearFaults();
        },
        true,
      ),
  ),
  // Runs are the engine's steps: weighted up, so sequences reach the later states.
  fc.constant(new Command('run', (r) => run(r), true)),
  fc.constant(new Command('run', (r) => run(r), true)),
  fc.constant(
    new Command(
      'overlapping runs',
      async (r) => {
        const startedAt = Date.now() + r.clock.offset;
        saw(r, startedAt, await Promise.all([r.engine.advance(deadline()), r.engine.advance(deadline())]));
      },
      true,
    ),
  ),
  // The market moves, then a run meets a slow broker write: cut off at its deadline, or killed mid-write.
  fc
    .record({
      tsym: fc.constantFrom(...SYMBOLS),
      ltp: fc.constantFrom(...PRICES),
      operation: RUN_WRITES,
      mode: SLOW_MODES,
      killed: fc.boolean(),
    })
    .map(slowRun),
  // The market falls through the entries' triggers and the run placing the exits is killed while the OCO is slow.
  fc
    .record({ tsym: fc.constantFrom(...SYMBOLS), mode: SLOW_MODES })
    .map(({ tsym, mode }) => slowRun({ tsym, ltp: 1450, operation: 'PlaceOCOOrder', mode, killed: true })),
  fc.constant(
    new Command('kill switch on and off', async (r) => {
      await fetch(`${r.stack.api.url}/kill-switch`, { method: 'POST' });
      await fetch(`${r.stack.api.url}/kill-switch`, { method: 'DELETE' });
    }),
  ),
  fc.nat({ max: 5 }).map(
    (i) =>
      new Command(`DELETE plan #${i}`, async (r) => {
        const planId = r.plans[i % Math.max(1, r.plans.length)];
        if (planId) await attempt(r, `cancel ${planId}`, () => r.engine.cancel(planId, deadline()));
      }),
  ),
  ...optionCommands({ command: (label, act, isRun) => new Command(label, act, isRun), createPlan, run }),
  ...legsCommands((label, act, isRun) => new Command(label, act, isRun), attempt),
  fc.constant(
    new Command('two minutes pass', async (r) => {
      // The world moves on with the clock: what a broker was to do late has been done.
      await settleLate(r);
      r.clock.offset += 120_000;
    }),
  ),
];

/** Plan keys are never reused, across sequences too (each plan id, and its events, belong to one sequence). */
const KEYS = { n: 0 };

/** A fresh world for one sequence: the emulator reset, no faults, no plans, the kill switch off, the clock now. */
export const freshReal = async (stack: LocalStack): Promise<Real> => {
  const c = emulatorControl(stack.emulator.url);
  await c.reset();
  await c.clearFaults();
  await fetch(`${stack.api.url}/kill-switch`, { method: 'DELETE' });
  const store = new PlanStore({
    tableName: String(stack.config.EVENTS_TABLE_NAME),
    endpoint: stack.config.DYNAMODB_ENDPOINT === undefined ? undefined : String(stack.config.DYNAMODB_ENDPOINT),
  });
  for (const s of await store.list()) await store.remove(s.plan.planId, s.version);
  for (const tsym of SYMBOLS) await c.ltp('NSE', tsym, 1500);
  const clock = { offset: 0 };
  const engine = createPlanEngine(stack.config, captureLogger().logger);
  (engine as unknown as { deps: { now?: () => Date } }).deps.now = () => new Date(Date.now() + clock.offset);
  return {
    stack,
    engine,
    store,
    clock,
    plans: [],
    runErrors: new Map(),
    runWaiting: new Set(),
    runStartedAt: 0,
    keys: KEYS,
    log: [],
    lateUntil: 0,
  };
};

export const plansModel = (stack: LocalStack, maxCommands: number) =>
  fc.asyncProperty(fc.commands(commands, { maxCommands, size: 'max' }), async (cmds) => {
    const real = await freshReal(stack);
    await fc.asyncModelRun(() => ({ model: { plans: 0 }, real }), cmds);
    await control(real).clearFaults();
    await settleLate(real);
    await checkInvariants(real, false);
    await run(real);
    await checkInvariants(real, true);
    await checkEvents(real);
    for (const planId of real.plans) {
      const stored = (await real.store.get(planId))?.plan;
      const state = `${stored?.kind === 'option-entry' ? 'option ' : ''}${stored?.state ?? 'never-recorded'}`;
      modelStats.plans += 1;
      modelStats.states[state] = (modelStats.states[state] ?? 0) + 1;
    }
  });
