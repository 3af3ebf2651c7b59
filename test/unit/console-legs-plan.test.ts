/**
 * A legs-as-one plan in the console's words (console/src/views/legs-plan-values.ts): a plan the real engine made
 * (test/support/legs-deps.ts, its record as the API sends it) shows each leg's side, lots, contract, fill and what is
 * open, the net premium at the fills and the exit in points and nets; a plan closing shows each leg's close; a record
 * missing its parts still says something whole; any other plan has no legs lines.
 */
import { expect, it } from 'vitest';

import type { Plan } from '../../console/src/reads.js';
import { legsExitWords, legsLines, netWords } from '../../console/src/views/legs-plan-values.js';
import { planInput } from '../../functions/base/schemas/plans.js';
import { PlanEngine } from '../../functions/plans/engine.js';
import { legsDeps } from '../support/legs-deps.js';

const CE = 'NIFTY08DEC26C24400';
const PE = 'NIFTY08DEC26P24400';

/** A short straddle made by the engine, its record as the API answers it (JSON). */
const made = async (): Promise<Plan> => {
  const m = legsDeps(() => new Date('2026-12-07T04:30:00Z'));
  m.prices.set(`NFO:${CE}`, 120);
  m.prices.set(`NFO:${PE}`, 110.5);
  const input = planInput.parse({
    kind: 'option-legs',
    legs: [
      { exch: 'NFO', tsym: CE, trantype: 'S', lots: 2 },
      { exch: 'NFO', tsym: PE, trantype: 'S', lots: 2 },
    ],
    exit: { stop: '20', target: '25%' },
  });
  const { plan } = await new PlanEngine(m.deps).create(input, 'k1', Date.now() + 5_000);
  return JSON.parse(JSON.stringify(plan)) as Plan;
};

it('says each leg, the net premium at the fills and the exit of a plan the engine entered', async () => {
  const plan = await made();
  expect(plan.state).toBe('entry-filled');
  expect(legsLines(plan)).toEqual([
    'S 2 lots NFO:NIFTY08DEC26C24400: filled 130 at 120.00, open 130',
    'S 2 lots NFO:NIFTY08DEC26P24400: filled 130 at 110.50, open 130',
    'Net premium at the fills -230.5 points per unit of the smallest leg (received)',
    // 25% of 230.5 is 57.63 points: the legs close at a net of -250.5 (the stop) or -172.87 (the target).
    'Exit on the net premium: stop 20 points, target 25%; every leg closes together at a move of -20 or +57.63 points (net -250.5 or -172.87)',
    'Product M, every leg',
  ]);
});

it("says each leg's close while every leg is being closed, and no closing line once the plan ended", async () => {
  const plan = await made();
  const legs = plan.legs!;
  const closing: Plan = {
    ...plan,
    state: 'unprotected',
    reason: 'the net premium moved -21 points against the legs: every leg is closed',
    legs: {
      ...legs,
      closing: { end: 'done', why: 'stop', gen: 1 },
      legs: [
        { ...legs.legs[0]!, closeGen: 1, closePrc: '126', closeOrder: '24120700011' },
        { ...legs.legs[1]!, open: 65, closeGen: 1, closePrc: '116.1' },
      ],
    },
  };
  const lines = legsLines(closing);
  expect(lines[0]).toBe(
    'S 2 lots NFO:NIFTY08DEC26C24400: filled 130 at 120.00, open 130; closing: order 24120700011 at limit 126.00 (close 1)',
  );
  expect(lines[1]).toBe(
    'S 2 lots NFO:NIFTY08DEC26P24400: filled 130 at 110.50, open 65; closing: being placed at limit 116.10 (close 1)',
  );
  expect(lines.at(-1)).toBe('Closing every leg (close 1); the plan ends done once flat');
  expect(legsLines({ ...closing, state: 'done' }).some((l) => l.startsWith('Closing'))).toBe(false);
});

it('says a leg refused, not placed, or not filled; a record missing its parts still reads whole', async () => {
  const plan = await made();
  const [a, b] = plan.legs!.legs;
  const { entryNet: _n, stopPoints: _s, targetPoints: _t, ...bare } = plan.legs!;
  const failed: Plan = {
    ...plan,
    state: 'entry-placed',
    legs: {
      ...bare,
      legs: [
        { ...a!, filledQty: 0, fill: undefined, open: undefined, entryOrder: '24120700001' },
        {
          ...b!,
          filledQty: undefined,
          fill: undefined,
          open: undefined,
          entryOrder: undefined,
          refused: 'TRADING_HALTED',
        },
        { ...b!, lots: 1, filledQty: undefined, fill: undefined, open: undefined, entryOrder: undefined, prc: '99.5' },
      ],
    },
  };
  expect(legsLines(failed).slice(0, 3)).toEqual([
    'S 2 lots NFO:NIFTY08DEC26C24400: not filled (entry order 24120700001)',
    'S 2 lots NFO:NIFTY08DEC26P24400: refused: TRADING_HALTED',
    'S 1 lot NFO:NIFTY08DEC26P24400: entry not placed yet (limit 99.50)',
  ]);
  expect(netWords(failed.legs!)).toBe('Net premium: recorded once every leg fills');
  expect(legsExitWords(failed.legs!)).toBe(
    'Exit on the net premium: stop 20 points, target 25%; every leg closes together',
  );
  // No legs at all (a record cut short): said, never an empty row or a throw.
  expect(legsLines({ ...plan, legs: { ...bare, legs: [] } })[0]).toBe('Legs: none recorded');
  const bracket: Plan = { ...plan, kind: 'bracket' };
  delete bracket.legs;
  expect(legsLines(bracket)).toEqual([]);
});
