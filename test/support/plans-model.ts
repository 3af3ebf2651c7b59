/**
 * The plans' model-based test (fast-check commands): random sequences of what traders, markets and brokers do to
 * plans (create, move prices, fill fully, partly, reject, cancel at the close, faults on every broker write,
 * killed invocations, overlapping runs, the kill switch, DELETE, time passing) against the real engine, the
 * emulator and dynalite, with the promises of docs/plans.md checked after every step against the emulator's own
 * books. Used by test/integration/plans-model.test.ts (a bounded, seeded set) and scripts/plans-model.ts (a long
 * run that prints its count and any shrunk counterexample).
 */
import fc from 'fast-check';

import type { PlanEngine } from '../../functions/plans/engine.js';
import { createPlanEngine } from '../../functions/plans/runtime.js';
import { planIdOf } from '../../functions/plans/stamps.js';
import { PlanStore } from '../../functions/plans/store.js';
import type { LocalStack } from '../../local/run-local.js';
import { emulatorControl, type FaultSpec } from './emulator-control.js';
import { captureLogger } from './logs.js';
import { checkEvents, checkInvariants } from './plans-invariants.js';
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

const attempt = async (r: Real, what: string, fn: () => Promise<unknown>) => {
  try {
    await fn();
    r.log.push(`${what}: ok`);
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).message;
    modelStats.refusals[code] = (modelStats.refusals[code] ?? 0) + 1;
    r.log.push(`${what}: ${code}`);
  }
};

const run = async (r: Real, ms = 10_000) => {
  const out = await r.engine.advance(deadline(ms));
  r.runErrors = new Map(out.errors.map((e) => [e.planId, e.code]));
  r.log.push(`run: acted ${out.acted.join(',') || '-'} errors ${out.errors.map((e) => e.code).join(',') || '-'}`);
};

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
  await control(r).ltp('NSE', tsym, 1500);
  await attempt(r, `create ${what}`, () => r.engine.create(input as never, key, deadline()));
};

const bracket = fc
  .record({ tsym: fc.constantFrom(...SYMBOLS), qty: fc.constantFrom(2, 10) })
  .map(
    ({ tsym, qty }) =>
      new Command(`bracket ${tsym} x${qty}`, (r) => createPlan(r, `bracket ${tsym}`, tsym, bracketInput(tsym, qty))),
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
        const [a, b] = await Promise.all([r.engine.advance(deadline()), r.engine.advance(deadline())]);
        r.runErrors = new Map([...a.errors, ...b.errors].map((e) => [e.planId, e.code]));
      },
      true,
    ),
  ),
  // The market moves, then a run is killed at its deadline while one broker write is slow.
  fc
    .record({
      tsym: fc.constantFrom(...SYMBOLS),
      ltp: fc.constantFrom(...PRICES),
      operation: RUN_WRITES,
      mode: fc.constantFrom('executed', 'late', 'never'),
    })
    .map(
      ({ tsym, ltp, operation, mode }) =>
        new Command(`ltp ${tsym} ${ltp}, killed run (${operation} slow, ${mode})`, async (r) => {
          await control(r).ltp('NSE', tsym, ltp);
          // executed: acted at once; late: acted when the delay ends, after the invocation is gone; never: not acted.
          await control(r).fault({
            operation,
            kind: 'delay',
            delayMs: 2_600,
            ...(mode === 'executed' ? { executed: true } : mode === 'late' ? { late: true } : {}),
          });
          // The invocation's deadline comes before the broker's answer: its calls end at the deadline.
          await r.engine.advance(deadline(1_800)).catch(() => undefined);
          await control(r).clearFaults();
          r.lateUntil = Math.max(r.lateUntil, Date.now() + 2_000);
        }),
    ),
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
  return { stack, engine, store, clock, plans: [], runErrors: new Map(), keys: KEYS, log: [], lateUntil: 0 };
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
      const state = (await real.store.get(planId))?.plan.state ?? 'never-recorded';
      modelStats.plans += 1;
      modelStats.states[state] = (modelStats.states[state] ?? 0) + 1;
    }
  });
