/**
 * Option plans in the console, in chromium against the local stack: a plan watching NIFTY shows the index, its level,
 * the pick in words and its `watching` badge; once resolved, the contract (its symbol, strike, expiry and the index
 * price it saw), its entry order, then its exit like a bracket's. The plans are seeded as records in the plans' store
 * (the watcher is not run), so the view is tested on its own of the engine that makes them. A legs-as-one plan
 * being closed shows each leg, its fill, what is open and its close, the net premium at the fills and the exit.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { Plan } from '../../functions/base/schemas/plans.js';
import { PlanStore } from '../../functions/plans/store.js';
import type { LocalStack } from '../../local/run-local.js';
import { axeViolations } from '../support/browser.js';
import { eventually, useConsolePage } from '../support/console-fixture.js';

let stack: LocalStack;
let page: Page;
const { open } = useConsolePage((state) => ({ stack, page } = state));

const at = new Date().toISOString();
const option: NonNullable<Plan['option']> = {
  underlying: { name: 'NIFTY', exch: 'NSE', tsym: 'Nifty 50', token: '26000' },
  when: { above: '24500' },
  pick: { expiry: 'nearest', strike: 'ATM', type: 'CE' },
  lots: 2,
  trantype: 'B',
  prd: 'M',
  exit: { stop: '20', target: '25%' },
};
const seed = async (planId: string, extra: Partial<Plan>, without?: 'option'): Promise<void> => {
  const store = new PlanStore({
    tableName: String(stack.config.EVENTS_TABLE_NAME),
    endpoint: String(stack.config.DYNAMODB_ENDPOINT),
  });
  const plan: Plan = {
    planId,
    kind: 'option-entry',
    state: 'watching',
    exch: 'NSE',
    tsym: 'Nifty 50',
    createdAt: at,
    updatedAt: at,
    alIds: {},
    option,
    history: [{ at, action: 'created' }],
    ...extra,
  };
  if (without) delete plan[without];
  expect(await store.create(plan)).toBe(true);
};

describe('an option plan in the Plans view', () => {
  it('shows the index, level and pick while watching, then the contract it chose and its exit', async () => {
    await seed('plopt0000000watch1', {});
    await seed('plopt0000000armed1', {
      state: 'exit-armed',
      exch: 'NFO',
      tsym: 'NIFTY08DEC26C24500',
      tick: '0.05',
      alIds: { exit: '24120700009' },
      target: { trigger: '150', price: '150' },
      stopLoss: { trigger: '100', price: '100' },
      position: { side: 'B', qty: 130 },
      option: {
        ...option,
        entryOrder: '24120700008',
        resolved: {
          at,
          price: 24512.35,
          exch: 'NFO',
          tsym: 'NIFTY08DEC26C24500',
          token: '45001',
          expiry: '2026-12-08',
          type: 'CE',
          strike: 24500,
          atm: 24500,
          strikeStep: 50,
          lot: 65,
          qty: 130,
        },
      },
    });
    await open('plans');
    const watching = page.locator('li[data-plan="plopt0000000watch1"]');
    await eventually(() => watching.locator('[data-plan-state]').textContent()).toBe('watching');
    expect(await watching.locator('.row-head strong').first().textContent()).toBe('NIFTY');
    expect(await watching.locator('[data-option-level]').textContent()).toBe('above 24,500');
    expect(await watching.locator('[data-option-contract]').count()).toBe(0);
    expect(await watching.locator('[data-option-line]').allTextContents()).toEqual([
      'Watches NIFTY (NSE:Nifty 50) to go above 24,500',
      'Pick: ATM CE, nearest expiry, 2 lots (buy, product M)',
      'Contract: chosen when the index crosses the level',
      'Then exit stop 20 points, target 25% on the premium',
    ]);
    expect(await watching.locator('[data-plan-state]').getAttribute('title')).toContain('waiting for the index');
    // A live plan: it may be cancelled.
    expect(await watching.getByRole('button', { name: 'Cancel plan plopt0000000watch1' }).count()).toBe(1);

    const armed = page.locator('li[data-plan="plopt0000000armed1"]');
    expect(await armed.locator('[data-option-contract]').textContent()).toBe('NIFTY08DEC26C24500');
    const legs = (await armed.locator('.legs').textContent()) ?? '';
    expect(legs).toContain('Contract NIFTY08DEC26C24500 (strike 24,500, expiry 2026-12-08), chosen at NIFTY 24,512.35');
    expect(legs).toContain('Entry order 24120700008 at the broker');
    // The exit, like a bracket's: the OCO's legs on the premium and the position it protects.
    expect(legs).toContain('Target 150.00 → 150.00 (order 24120700009)');
    expect(legs).toContain('Stop 100.00 → 100.00');
    expect(legs).toContain('Position: long 130');
    // The unprotected first: an armed exit is listed before a plan still watching.
    const order = await page
      .locator('li[data-plan]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-plan')));
    expect(order.indexOf('plopt0000000armed1')).toBeLessThan(order.indexOf('plopt0000000watch1'));
    expect(await axeViolations(page)).toEqual([]);
  });

  it('shows a legs plan being closed: each leg, its fill, open quantity and close, the net premium and exit', async () => {
    const leg = { exch: 'NFO', token: '45001', lots: 1, lot: 65, qty: 65, tick: '0.05', weight: 1, prc: '115' };
    await seed(
      'plopt00000000legs1',
      {
        kind: 'option-legs',
        state: 'unprotected',
        exch: 'NFO',
        tsym: 'NIFTY08DEC26C25000 + NIFTY08DEC26P25000',
        reason:
          'the net premium moved -41.5 points against the legs (from -161.2 to -202.7; the stop is at -40): every leg is closed',
        legs: {
          legs: [
            {
              ...leg,
              tsym: 'NIFTY08DEC26C25000',
              trantype: 'S',
              entryOrder: '24120700021',
              filledQty: 65,
              fill: 81.4,
              open: 65,
              closeGen: 1,
              closePrc: '108.6',
              closeOrder: '24120700023',
            },
            {
              ...leg,
              tsym: 'NIFTY08DEC26P25000',
              token: '45002',
              trantype: 'S',
              entryOrder: '24120700022',
              filledQty: 65,
              fill: 79.8,
              open: 0,
            },
          ],
          exit: { stop: '40', target: '25%' },
          prd: 'M',
          entryNet: -161.2,
          stopPoints: 40,
          targetPoints: 40.3,
          closing: { end: 'done', why: 'stop', gen: 1 },
        },
      },
      'option',
    );
    await open('plans');
    const row = page.locator('li[data-plan="plopt00000000legs1"]');
    await eventually(() => row.locator('[data-plan-state]').textContent()).toBe('unprotected');
    expect(await row.locator('.tag').textContent()).toBe('option-legs');
    expect(await row.textContent()).toContain('the stop is at -40): every leg is closed');
    expect(await row.locator('[data-option-line]').count()).toBe(0);
    expect(await row.locator('[data-legs-line]').allTextContents()).toEqual([
      'S 1 lot NFO:NIFTY08DEC26C25000: filled 65 at 81.40, open 65; closing: order 24120700023 at limit 108.60 (close 1)',
      'S 1 lot NFO:NIFTY08DEC26P25000: filled 65 at 79.80, open 0',
      'Net premium at the fills -161.2 points per unit of the smallest leg (received)',
      'Exit on the net premium: stop 40 points, target 25%; every leg closes together at a move of -40 or +40.3 points (net -201.2 or -120.9)',
      'Product M, every leg',
      'Closing every leg (close 1); the plan ends done once flat',
    ]);
    // Unprotected: listed first, and in red.
    expect(await page.locator('li[data-plan]').first().getAttribute('data-plan')).toBe('plopt00000000legs1');
    expect(await row.getAttribute('class')).toContain('alarm');
    expect(await axeViolations(page)).toEqual([]);
  });
});
