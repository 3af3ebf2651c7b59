/**
 * A position's close (functions/risk/close.ts `closeDecision`) never takes the position past flat: the quantity plus
 * what waits to close it on that side (the GTTs and OCOs resting, and what live plans owe that is not at the broker
 * yet, such as a trailing stop whose first place was lost) is at most the position; the refusal names each.
 */
import { expect, it } from 'vitest';

import { owedExitsOf } from '../../functions/base/schemas/exit-only.js';
import type { Position } from '../../functions/base/schemas/positions.js';
import { closeDecision } from '../../functions/risk/close.js';

const PLAN = 'pl0123456789abcdef';
const input = { exch: 'NSE' as const, tsym: 'INFY-EQ', prd: 'C' as const };
const long = (netQty: number) =>
  [{ exch: 'NSE', tsym: 'INFY-EQ', product: 'C', netQty, lastPrice: 1500 }] as unknown as Position[];
const stopOwed = owedExitsOf([
  {
    planId: PLAN,
    kind: 'trailing-stop',
    state: 'armed',
    exch: 'NSE',
    tsym: 'INFY-EQ',
    alIds: {},
    order: { ...input, trantype: 'S', qty: 3, prctyp: 'LMT', ai_t: 'LTP_B_O', d: '1400', prc: '1400' },
  },
]);

it('closes the whole of a long when nothing waits to close it', () => {
  expect(closeDecision(input, long(5), [], [])).toMatchObject({ ok: true, trantype: 'S', qty: 5 });
});

it("counts a live plan's stop that is not at the broker yet, and names the plan", () => {
  const refused = closeDecision(input, long(5), [], stopOwed);
  expect(refused).toMatchObject({ ok: false, field: 'qty' });
  expect(refused.ok ? '' : refused.reason).toContain(`plan ${PLAN} (its stop)`);
  expect(refused.ok ? '' : refused.reason).toContain('close at most 2');
  expect(closeDecision({ ...input, qty: '2' }, long(5), [], stopOwed)).toMatchObject({ ok: true, qty: 2 });
});

it("counts the plan's stop once when it rests at the broker with the plan's stamp", () => {
  const resting = { al_id: '26120700000001', tag: `${PLAN}.s`, ...input, trantype: 'S', qty: '3', ai_t: 'LTP_B_O' };
  expect(closeDecision({ ...input, qty: '2' }, long(5), [resting], stopOwed)).toMatchObject({ ok: true, qty: 2 });
  const refused = closeDecision({ ...input, qty: '3' }, long(5), [resting], stopOwed);
  expect(refused.ok ? '' : refused.reason).toContain('would sell 3 more');
});
