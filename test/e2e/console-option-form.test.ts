/**
 * A new option plan from the console, in chromium against the local stack (NIFTY quoted by the emulator, its options
 * in the day's chain loaded by the InstrumentRefresh): a bad level refused beside its field with nothing stored; the
 * dry run says the plan in words and the contract it would pick now, and nothing is stored; **Create this plan** makes
 * one plan with the key made at its dry run, shown `watching` with its index and level; the index crosses and
 * the watcher runs: the row shows the contract it chose at that price and its exit.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { LocalStack } from '../../local/run-local.js';
import { axeViolations } from '../support/browser.js';
import { eventually, useConsolePage } from '../support/console-fixture.js';
import { loadChains, moveNifty, plansOfKind } from '../support/option-market.js';

let stack: LocalStack;
let page: Page;
let problems: string[];
// Prices from the start, still: the options are priced from the index's level (as plans-option-entry.test.ts).
const { open } = useConsolePage((state) => ({ stack, page, problems } = state), {
  market: { prices: 'start', market: 'still' },
});

const index = (ltp: number) => moveNifty(stack, ltp);
const optionPlans = () => plansOfKind(stack, 'option-entry');

describe('a new option plan', () => {
  it('is refused beside its field, dry-run, created once, then shows the contract it chose', async () => {
    // The day's chain in the instruments' copy, and the index where the test starts.
    await loadChains(stack);
    await index(25_000);
    await stack.watch();
    await open('plans');
    const form = page.locator('form[data-form="option-plan"]');
    await form.getByLabel('Index', { exact: true }).selectOption('NIFTY');
    await form.getByLabel('When it goes', { exact: true }).selectOption('above');
    // A level the index is already above: refused, said beside the level, nothing stored.
    await form.getByLabel('Level of the index', { exact: true }).fill('24900');
    await form.getByLabel('Lots', { exact: true }).fill('2');
    await form.getByLabel('Stop on the premium', { exact: true }).fill('20');
    await form.getByLabel('Target on the premium', { exact: true }).fill('25');
    await form.getByRole('button', { name: 'Dry run' }).click();
    await eventually(() => page.locator('[data-field-error="option-level"]').textContent()).toContain(
      'already at or above 24900',
    );
    // The browser logs the refused request (a 400) as a console line: that one, and no other.
    expect(problems).toEqual([expect.stringContaining('status of 400')]);
    problems.length = 0;
    expect(await optionPlans()).toEqual([]);

    await form.getByLabel('Level of the index', { exact: true }).fill('25100');
    await form.getByLabel('Most the entry may be worth, ₹ (optional)', { exact: true }).fill('1000000');
    await form.getByRole('button', { name: 'Dry run' }).click();
    const review = page.locator('[data-option-dry-run]');
    await eventually(() => review.locator('[data-option-cap]').textContent()).toMatch(
      /^Its value now, ₹[\d,.]+, is within the most it may be worth \(₹10,00,000\), checked again when the index crosses\.$/,
    );
    await eventually(() => review.textContent()).toMatch(
      /Watch NIFTY; when it goes above ₹25,100 buy 2 lots \(\d+\) of the ATM CE of the nearest expiry, now NIFTY\d{2}[A-Z]{3}\d{2}C25000 at NIFTY 25,000; exit stop 20 points, target 25%\./,
    );
    expect(await review.textContent()).toMatch(/It would pick NIFTY\w+ \(strike 25,000, expiry \d{4}-\d{2}-\d{2}\)/);
    expect(await optionPlans()).toEqual([]);

    // Sent with the key made at the dry run; the review is then spent (the button off until a new dry run).
    const create = form.getByRole('button', { name: 'Create this plan' });
    await create.click();
    await eventually(() => page.locator('[role="status"]').allTextContents()).toContainEqual(
      expect.stringMatching(/Plan \w+ created: watching\./),
    );
    expect(await optionPlans()).toHaveLength(1);
    const [made] = await optionPlans();
    expect((made as unknown as { option?: { maxValue?: number } }).option?.maxValue).toBe(1_000_000);
    const row = page.locator(`li[data-plan="${made!.planId}"]`);
    await eventually(() => row.locator('[data-plan-state]').textContent()).toBe('watching');
    expect(await row.locator('[data-option-level]').textContent()).toBe('above 25,100');
    expect(await create.isDisabled()).toBe(true);

    // The index crosses; the watcher picks at the price it sees (25,130: the 25,150 strike) and arms the exit.
    await index(25_130);
    await stack.watch();
    await page.reload();
    await eventually(() => row.locator('[data-plan-state]').textContent()).toBe('exit-armed');
    expect(await row.locator('[data-option-contract]').textContent()).toMatch(/^NIFTY\d{2}[A-Z]{3}\d{2}C25150$/);
    const legs = (await row.locator('.legs').textContent()) ?? '';
    expect(legs).toMatch(/Contract NIFTY\w+ \(strike 25,150, expiry [\d-]+\), chosen at NIFTY 25,130/);
    expect(legs).toMatch(/Target [\d.]+ → [\d.]+ \(order \d+\)/);
    expect(legs).toMatch(/Position: long \d+/);
    expect(await axeViolations(page)).toEqual([]);
  });
});
