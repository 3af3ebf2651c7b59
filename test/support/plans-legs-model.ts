/**
 * Legs-as-one plans in the plans' model-based test (plans-model.ts registers the commands, plans-invariants.ts the
 * check): short and long NIFTY straddles and a call spread at the emulator's nearest expiry, the index moved through
 * their stops and targets, lost replies on PlaceOrder. With the model's own commands (next-order outcomes: partial,
 * rejected, open; the kill switch; DELETE; runs) this drives the legs' entries and closes through their faults.
 *
 * The invariant (docs/reference/plans.md, "Legs as one"): once a legs plan has ended (`done`, `failed`, `cancelled`),
 * the orders stamped by it at the emulator net to nothing on every contract (no leg open alone), and no leg's entry
 * is ever at the exchange twice.
 */
import fc from 'fast-check';

import { MONTHS, parseIndexContract } from '../../emulator/state/indices.js';
import { contractPriceAt } from '../../emulator/state/option-model.js';
import type { BookOrder } from '../../emulator/state/order-book.js';
import { expiriesOf } from '../../emulator/state/symbol-master.js';
import { splitRemarks } from '../../functions/base/broker/order-stamps.js';
import { TERMINAL } from '../../functions/base/schemas/event-types.js';
import { planIdOf } from '../../functions/plans/stamps.js';
import { emulatorControl } from './emulator-control.js';
import type { Real } from './plans-model.js';

type Act = (r: Real) => Promise<void>;
type MakeCommand<C> = (label: string, act: Act, isRun?: boolean) => C;
type Attempt = (r: Real, what: string, fn: () => Promise<unknown>) => Promise<void>;

const INDEX = { exch: 'NSE', tsym: 'Nifty 50' };
const LEVELS = [24_950, 25_000, 25_020, 25_050] as const;

/** NIFTY's option of the emulator's nearest expiry (the family's form: NIFTY08DEC26C25000). */
const option = (type: 'C' | 'P', strike: number): string => {
  const d = new Date(expiriesOf(new Date())[0]!.date);
  const dd = String(d.getUTCDate()).padStart(2, '0');
  return `NIFTY${dd}${MONTHS[d.getUTCMonth()]}${String(d.getUTCFullYear()).slice(2)}${type}${strike}`;
};

const SHAPES = {
  'short straddle': () => [
    { tsym: option('C', 25_000), trantype: 'S', lots: 1 },
    { tsym: option('P', 25_000), trantype: 'S', lots: 1 },
  ],
  'long strangle': () => [
    { tsym: option('C', 25_050), trantype: 'B', lots: 1 },
    { tsym: option('P', 24_950), trantype: 'B', lots: 1 },
  ],
  'call spread 1:2': () => [
    { tsym: option('C', 25_000), trantype: 'B', lots: 1 },
    { tsym: option('C', 25_050), trantype: 'S', lots: 2 },
  ],
} as const;

/** The model's commands of legs plans, made with its own Command (plans-model.ts). */
export const legsCommands = <C>(command: MakeCommand<C>, attempt: Attempt): fc.Arbitrary<C>[] => [
  fc
    .record({
      shape: fc.constantFrom(...(Object.keys(SHAPES) as (keyof typeof SHAPES)[])),
      stop: fc.constantFrom('3', '8', '20%'),
    })
    .map(({ shape, stop }) =>
      command(`legs ${shape} stop ${stop}`, async (r) => {
        const key = `model-legs-${process.pid}-${Date.now()}-${++r.keys.n}`;
        r.plans.push(planIdOf(key));
        const c = emulatorControl(r.stack.emulator.url);
        await c.ltp(INDEX.exch, INDEX.tsym, 25_000);
        // The model's market opens nothing by itself: each leg priced from the index, then it follows the index.
        for (const { tsym } of SHAPES[shape]())
          await c.ltp('NFO', tsym, contractPriceAt(parseIndexContract('NFO', tsym)!, 25_000, new Date()));
        const input = {
          kind: 'option-legs' as const,
          legs: SHAPES[shape]().map((l) => ({ exch: 'NFO' as const, ...l })),
          exit: { stop, target: '5' },
          prd: 'M' as const,
        };
        await attempt(r, `create legs ${shape}`, () => r.engine.create(input as never, key, Date.now() + 10_000));
      }),
    ),
  fc.constantFrom(...LEVELS).map((level) =>
    command(`index ${level}`, (r) =>
      emulatorControl(r.stack.emulator.url)
        .ltp(INDEX.exch, INDEX.tsym, level)
        .then(() => undefined),
    ),
  ),
  fc.constantFrom({ kind: 'drop' as const, executed: true }, { kind: 'drop' as const, executed: false }).map((fault) =>
    command(`fault PlaceOrder ${JSON.stringify(fault)}`, (r) =>
      emulatorControl(r.stack.emulator.url)
        .fault({ operation: 'PlaceOrder', ...fault })
        .then(() => undefined),
    ),
  ),
];

const latest = (o: BookOrder) => o.history[0]!;

/** No leg left open alone once a legs plan has ended; no leg's entry at the exchange twice (checked every step). */
export const checkLegs = async (r: Real, orders: BookOrder[], fail: (message: string) => never): Promise<void> => {
  for (const planId of r.plans) {
    const mine = orders.filter((o) => (splitRemarks(o.remarks).tag ?? '').startsWith(`${planId}.`));
    if (!mine.length) continue;
    const entries = new Map<string, number>();
    for (const o of mine.filter((x) => splitRemarks(x.remarks).tag === `${planId}.e`))
      entries.set(o.tsym, (entries.get(o.tsym) ?? 0) + 1);
    for (const [tsym, n] of entries) if (n > 1) fail(`legs plan ${planId}: ${n} entries of ${tsym} (never twice)`);
    const plan = (await r.store.get(planId))?.plan;
    if (plan?.kind !== 'option-legs' || !TERMINAL.includes(plan.state)) continue;
    const held = new Map<string, number>();
    for (const o of mine)
      held.set(o.tsym, (held.get(o.tsym) ?? 0) + (o.trantype === 'B' ? 1 : -1) * latest(o).fillshares);
    const open = [...held].filter(([, q]) => q !== 0);
    if (open.length)
      fail(`legs plan ${planId} is ${plan.state} with ${open.map(([t, q]) => `${q} ${t}`).join(', ')} still open`);
  }
};
