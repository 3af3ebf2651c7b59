/**
 * An option plan in the console's words (console/src/views/option-plan-values.ts, the shared sentences of
 * functions/base/schemas/option-words.ts): the index and level it watches, the pick, the contract once chosen and the
 * price it saw, the new states' badges, and the form's fields as the body POST /plans takes (checked by the gateway's
 * own schema).
 */
import { expect, it } from 'vitest';

import type { Plan } from '../../console/src/reads.js';
import {
  capWords,
  OPTION_START,
  optionHead,
  optionLines,
  optionPlanOf,
  stateBadge,
} from '../../console/src/views/option-plan-values.js';
import { optionEntryInput } from '../../functions/base/schemas/option-plan.js';
import { optionPlanSentence, pickWords, resolvedOfDryRun } from '../../functions/base/schemas/option-words.js';
import { dryRunOf } from '../support/option-dry-run.js';

const RESOLVED = {
  at: '2026-12-07T04:15:00.000Z',
  price: 24512.35,
  exch: 'NFO',
  tsym: 'NIFTY08DEC26C24500',
  token: '45001',
  expiry: '2026-12-08',
  type: 'CE' as const,
  strike: 24500,
  atm: 24500,
  strikeStep: 50,
  lot: 65,
  qty: 130,
};
const plan = (extra: Partial<NonNullable<Plan['option']>> = {}, state: Plan['state'] = 'watching'): Plan => ({
  planId: 'pl0123456789abcdef',
  kind: 'option-entry',
  state,
  exch: 'NSE',
  tsym: 'Nifty 50',
  createdAt: '2026-12-07T04:00:00.000Z',
  updatedAt: '2026-12-07T04:00:00.000Z',
  alIds: {},
  history: [],
  option: {
    underlying: { name: 'NIFTY', exch: 'NSE', tsym: 'Nifty 50', token: '26000' },
    when: { above: '24500' },
    pick: { expiry: 'nearest', strike: 'ATM', type: 'CE' },
    lots: 2,
    trantype: 'B',
    prd: 'M',
    exit: { stop: '20', target: '25%' },
    ...extra,
  },
});

it('says a watching plan: the index, its level, the pick in words, the contract not chosen yet', () => {
  expect(optionHead(plan())).toEqual({ underlying: 'NIFTY', level: 'above 24,500' });
  expect(optionLines(plan())).toEqual([
    'Watches NIFTY (NSE:Nifty 50) to go above 24,500',
    'Pick: ATM CE, nearest expiry, 2 lots (buy, product M)',
    'Contract: chosen when the index crosses the level',
    'Then exit stop 20 points, target 25% on the premium',
  ]);
});

it('says the contract once resolved: its symbol, strike, expiry and the index price it saw (IST)', () => {
  const resolved = plan({ resolved: RESOLVED, entryOrder: '24120700001' }, 'entry-placed');
  expect(optionHead(resolved)).toEqual({ underlying: 'NIFTY', level: 'above 24,500', contract: 'NIFTY08DEC26C24500' });
  const lines = optionLines(resolved);
  expect(lines[2]).toBe(
    'Contract NIFTY08DEC26C24500 (strike 24,500, expiry 2026-12-08), chosen at NIFTY 24,512.35 at 07 Dec, 09:45:00 IST: ATM 24,500, step 50, 130 (2 × lot 65)',
  );
  expect(lines[3]).toBe('Entry order 24120700001 at the broker');
});

it('gives the new states their own badges, and a bracket no option lines', () => {
  expect(stateBadge('watching').tone).toBe('muted');
  expect(stateBadge('entry-placed')).toEqual({
    tone: 'warn',
    meaning: 'the entry order is at the broker, not filled yet',
  });
  expect(stateBadge('unprotected').tone).toBe('bad');
  const bracket: Plan = { ...plan(), kind: 'bracket' };
  delete bracket.option;
  expect(optionHead(bracket)).toBeUndefined();
  expect(optionLines(bracket)).toEqual([]);
});

it("writes the form as the body the gateway's schema takes: ATM±n, a strike, a date, points and %", () => {
  const start = optionPlanOf({ ...OPTION_START, level: '24500', stop: '20', target: '25', lots: '2' });
  expect(start).toEqual({
    kind: 'option-entry',
    underlying: 'NIFTY',
    when: { above: '24500' },
    pick: { expiry: 'nearest', strike: 'ATM', type: 'CE' },
    lots: 2,
    trantype: 'B',
    prd: 'M',
    exit: { stop: '20', target: '25%' },
  });
  expect(optionEntryInput.safeParse(start).success).toBe(true);
  const other = optionPlanOf({
    ...OPTION_START,
    underlying: 'BANKNIFTY',
    direction: 'below',
    level: '51000',
    expiry: 'date',
    expiryDate: '2026-12-31',
    strikeMode: 'below',
    strike: '2',
    type: 'PE',
    stop: '10',
    stopUnit: '%',
    target: '40',
    targetUnit: 'points',
    side: 'S',
    tag: 'bn',
  });
  expect(other).toMatchObject({
    when: { below: '51000' },
    pick: { expiry: '2026-12-31', strike: 'ATM-2', type: 'PE' },
    trantype: 'S',
    exit: { stop: '10%', target: '40' },
    tag: 'bn',
  });
  expect(optionEntryInput.safeParse(other).success).toBe(true);
  // The cap: rupees as the gateway takes them; left empty, no cap at all.
  const capped = optionPlanOf({ ...OPTION_START, level: '24500', stop: '20', target: '25', maxValue: ' 15000.5 ' });
  expect(capped.maxValue).toBe(15000.5);
  expect(optionEntryInput.safeParse(capped).success).toBe(true);
  expect('maxValue' in start).toBe(false);
  expect(capWords({ value: 16000, maxValue: 15000 })).toBe(
    'Its value now, ₹16,000, is above the most it may be worth (₹15,000): at this price the plan would send nothing and fail.',
  );
  expect(capWords({ value: 9000, maxValue: 15000 })).toContain('within the most it may be worth (₹15,000)');
  expect(capWords({ value: 9000 })).toBeUndefined();
  const strike = optionPlanOf({
    ...OPTION_START,
    level: '1',
    stop: '1',
    target: '1',
    strikeMode: 'number',
    strike: '24600',
  });
  expect(strike.pick.strike).toBe(24600);
  // What the trader typed wrong reaches the gateway as typed, and its schema names it.
  const bad = optionEntryInput.safeParse(
    optionPlanOf({ ...OPTION_START, level: '1', stop: '1', target: '1', lots: 'two' }),
  );
  expect(bad.success).toBe(false);
});

it('says the plan in one sentence, with the contract a dry run would pick now', () => {
  const body = {
    underlying: 'NIFTY',
    when: { above: '24500' },
    pick: { expiry: 'nearest', strike: 'ATM', type: 'CE' },
    lots: 2,
    exit: { stop: '20', target: '25%' },
  };
  expect(optionPlanSentence(body, resolvedOfDryRun(dryRunOf({ ...RESOLVED, price: 24512 })))).toBe(
    'Watch NIFTY; when it goes above ₹24,500 buy 2 lots (130) of the ATM CE of the nearest expiry, now NIFTY08DEC26C24500 at NIFTY 24,512; exit stop 20 points, target 25%.',
  );
  expect(optionPlanSentence({ ...body, trantype: 'S', lots: 1, when: { below: '2450000' } })).toBe(
    'Watch NIFTY; when it goes below ₹24,50,000 sell 1 lot of the ATM CE of the nearest expiry; exit stop 20 points, target 25%.',
  );
  expect(resolvedOfDryRun(dryRunOf(RESOLVED))).toMatchObject({ tsym: 'NIFTY08DEC26C24500', price: 24512.35, qty: 130 });
  expect(resolvedOfDryRun({ dryRun: true })).toBeUndefined();
  expect(pickWords({ expiry: 'next-month', strike: 'ATM+1', type: 'PE' }, 1)).toBe(
    "ATM+1 PE, next month's expiry, 1 lot",
  );
  expect(pickWords({ expiry: '2026-12-31', strike: 24500, type: 'CE' })).toBe('24,500 CE, expiry 2026-12-31');
});
