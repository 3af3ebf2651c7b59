/**
 * The option plan's commands in the plans' model-based test (plans-model.ts registers them): option-entry plans on
 * NIFTY created at an index of 25000 (its day's chain loaded once per stack by the InstrumentRefresh, the nearest
 * expiry's contracts around it priced by hand, so they follow the index from then on), the index moved across their
 * levels, and runs that meet a fault or a slow broker on the entry's PlaceOrder; some plans carry a cap (`maxValue`)
 * below, between or above their entries' values. The promises they are held to are plans-option-invariants.ts's (never
 * twice, never unprotected, recorded = broker, never above the cap) beside the bracket's.
 */
import fc from 'fast-check';

import { chainsFromCopy } from '../../functions/orders/instruments/chain-copy.js';
import { dynamoInstrumentCopy } from '../../functions/orders/instruments/copy.js';
import { DEFAULT_EXPIRY_CUTOFF_MINUTES, pickExpiry } from '../../functions/orders/instruments/option-pick.js';
import type { LocalStack } from '../../local/run-local.js';
import { emulatorControl, type FaultSpec } from './emulator-control.js';
import type { Real } from './plans-model.js';

/** What plans-model.ts lends these commands: its command, plan creation and run. */
export interface ModelKit<C> {
  command: (label: string, act: (r: Real) => Promise<void>, isRun?: boolean) => C;
  createPlan: (r: Real, what: string, tsym: string, input: unknown) => Promise<void>;
  run: (r: Real, ms?: number) => Promise<void>;
}

export const INDEX = { exch: 'NSE', tsym: 'Nifty 50' } as const;
const START = 25_000;
const LEVELS = [24_850, 24_950, 25_000, 25_080, 25_130, 25_260] as const;
const FAULTS = fc.constantFrom<Omit<FaultSpec, 'operation'>>(
  { kind: 'drop', executed: true },
  { kind: 'drop', executed: false },
  { kind: 'http5xx' },
  { kind: 'notOk', message: 'RMS:Margin Exceeds' },
);
const SLOW_WRITE_MS = 2_600;
const CUT_OFF_MS = 1_800;

const refreshed = new WeakSet<LocalStack>();
const deadline = () => Date.now() + 10_000;

/** The day's chain in the copy (once per stack), the index at 25000 and the nearest expiry's strikes around it priced. */
const marketAt25000 = async (r: Real) => {
  if (!refreshed.has(r.stack)) {
    await fetch(`${r.stack.api.url}/_local/run/InstrumentRefresh`, { method: 'POST' });
    refreshed.add(r.stack);
  }
  const control = emulatorControl(r.stack.emulator.url);
  await control.ltp(INDEX.exch, INDEX.tsym, START);
  const config = r.stack.config;
  const chains = chainsFromCopy(
    dynamoInstrumentCopy({
      instrumentsTableName: String(config.INSTRUMENTS_TABLE_NAME),
      dynamodbEndpoint: config.DYNAMODB_ENDPOINT === undefined ? undefined : String(config.DYNAMODB_ENDPOINT),
    }),
  );
  const expiry = pickExpiry(
    await chains.expiries('NFO', 'NIFTY', deadline()),
    'nearest',
    Date.now() + r.clock.offset,
    DEFAULT_EXPIRY_CUTOFF_MINUTES,
  );
  const chain = await chains.chain('NFO', 'NIFTY', expiry, deadline());
  for (const s of chain?.strikes ?? []) {
    if (s.strike < 24_700 || s.strike > 25_400) continue;
    if (s.CE) await control.ltp('NFO', s.CE.tsym, Math.max(0, START - s.strike) + 60);
    if (s.PE) await control.ltp('NFO', s.PE.tsym, Math.max(0, s.strike - START) + 60);
  }
};

/** An entry's cap, sometimes: none, below any entry, between one lot's and two lots' value (~65 × 60-ish), any. */
const CAPS = [undefined, 1_000, 6_000, 10_000_000] as const;

const optionInput = (when: 'above' | 'below', type: 'CE' | 'PE', lots: number, maxValue?: number) => ({
  kind: 'option-entry' as const,
  underlying: 'NIFTY',
  when: when === 'above' ? { above: '25100' } : { below: '24900' },
  pick: { expiry: 'nearest', strike: 'ATM', type },
  lots,
  trantype: 'B' as const,
  prd: 'M' as const,
  exit: { stop: '20%', target: '30' },
  ...(maxValue === undefined ? {} : { maxValue }),
});

/** The option plan's commands, made with plans-model.ts's kit. */
export const optionCommands = <C>(kit: ModelKit<C>): fc.Arbitrary<C>[] => [
  fc
    .record({
      when: fc.constantFrom('above', 'below'),
      type: fc.constantFrom('CE', 'PE'),
      lots: fc.constantFrom(1, 2),
      cap: fc.constantFrom(...CAPS),
    })
    .map(({ when, type, lots, cap }) =>
      kit.command(`option ${when} ${type} x${lots}${cap === undefined ? '' : ` cap ${cap}`}`, async (r) => {
        await marketAt25000(r);
        await kit.createPlan(r, `option ${when} ${type}`, '', optionInput(when, type, lots, cap));
      }),
    ),
  fc.constantFrom(...LEVELS).map((level) =>
    kit.command(`index ${level}`, async (r) => {
      await emulatorControl(r.stack.emulator.url).ltp(INDEX.exch, INDEX.tsym, level);
    }),
  ),
  // The index crosses and the run placing the entry meets a fault on PlaceOrder (cleared after it).
  fc.record({ level: fc.constantFrom(24_850, 25_130), fault: FAULTS }).map(({ level, fault }) =>
    kit.command(
      `index ${level}, run with PlaceOrder ${JSON.stringify(fault)}`,
      async (r) => {
        const control = emulatorControl(r.stack.emulator.url);
        await control.ltp(INDEX.exch, INDEX.tsym, level);
        await control.fault({ operation: 'PlaceOrder', ...fault });
        await kit.run(r);
        await control.clearFaults();
      },
      true,
    ),
  ),
  // The index crosses and the run is cut off at its deadline while the entry's PlaceOrder is slow: carried out at
  // once, late (after the run's deadline), or never.
  fc
    .record({ level: fc.constantFrom(24_850, 25_130), mode: fc.constantFrom('executed', 'late', 'never') })
    .map(({ level, mode }) =>
      kit.command(`index ${level}, cut-off run (PlaceOrder slow, ${mode})`, async (r) => {
        const control = emulatorControl(r.stack.emulator.url);
        await control.ltp(INDEX.exch, INDEX.tsym, level);
        await control.fault({
          operation: 'PlaceOrder',
          kind: 'delay',
          delayMs: SLOW_WRITE_MS,
          ...(mode === 'executed' ? { executed: true } : mode === 'late' ? { late: true } : {}),
        });
        const ends = Date.now() + CUT_OFF_MS;
        await r.engine.advance(ends).catch(() => undefined);
        await control.clearFaults();
        if (mode === 'late') r.lateUntil = Math.max(r.lateUntil, ends + SLOW_WRITE_MS);
      }),
    ),
];
