/**
 * A new legs plan from the console, in chromium against the local stack (NIFTY quoted by the emulator, its options in
 * the day's chain loaded by the InstrumentRefresh): the legs picked from the chain (`GET /options`), the presets;
 * more lots than the freeze quantity refused beside that leg's lots with nothing stored; the dry run says each leg's
 * contract and limit and the net premium received, nothing stored; **Create this plan** makes one plan with the key
 * made at its dry run, shown in Plans with its legs filled and the net premium at the fills. At a phone's width: another
 * expiry picked (its chain read, its contracts sent), four legs (an iron fly, its bought wings entered first).
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
// Prices from the start, still: the options are priced from the index's level (as plans-option-legs.test.ts).
const { open, newPage } = useConsolePage((state) => ({ stack, page, problems } = state), {
  market: { prices: 'start', market: 'still' },
});

const index = (ltp: number) => moveNifty(stack, ltp);
const legsPlans = () => plansOfKind(stack, 'option-legs');

describe('a new legs plan', () => {
  it('picks its legs from the chain, is refused beside a leg, dry-run, created once, shown with its legs', async () => {
    // The day's chain in the instruments' copy, and the index where the test starts.
    await loadChains(stack);
    await index(25_000);
    await stack.watch();
    await open('plans');
    await page.getByText("Pick 2 to 4 legs from the day's option chain").click();
    const form = page.locator('form[data-form="legs-plan"]');
    const strike = (leg: number) => form.getByLabel(`Leg ${leg} strike`, { exact: true });
    // The chain read: the nearest expiry, each leg at the ATM strike (a short straddle to start).
    await eventually(() => strike(1).inputValue()).toBe('25000');
    expect(await strike(2).inputValue()).toBe('25000');
    expect(await form.getByLabel('Expiry', { exact: true }).inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await form.getByRole('button', { name: 'Strangle 2 strikes out' }).click();
    await eventually(() => strike(1).inputValue()).toBe('25100');
    expect(await strike(2).inputValue()).toBe('24900');
    expect(await form.getByLabel('Leg 2 type', { exact: true }).inputValue()).toBe('PE');
    await form.getByRole('button', { name: 'Straddle at ATM' }).click();
    await eventually(() => strike(1).inputValue()).toBe('25000');

    // More lots than NIFTY's freeze quantity (1,800) in one order: refused beside that leg's lots, nothing stored.
    await form.getByLabel('Leg 2 lots', { exact: true }).fill('100');
    await form.getByLabel('Stop on the net premium', { exact: true }).fill('40');
    await form.getByLabel('Target on the net premium', { exact: true }).fill('25');
    await form.getByRole('button', { name: 'Dry run' }).click();
    await eventually(() => page.locator('[data-field-error="legs-leg1-lots"]').textContent()).toContain(
      'at most 27 lots',
    );
    // The browser logs the refused request (a 400) as a console line: that one, and no other.
    expect(problems).toEqual([expect.stringContaining('status of 400')]);
    problems.length = 0;
    expect(await legsPlans()).toEqual([]);

    await form.getByLabel('Leg 2 lots', { exact: true }).fill('1');
    await form.getByLabel('Tag (optional)', { exact: true }).fill('short-straddle');
    await form.getByRole('button', { name: 'Dry run' }).click();
    const review = page.locator('[data-legs-dry-run]');
    await eventually(() => review.locator('p').textContent()).toMatch(
      /^Sell 1 lot \(65\) NIFTY\d{2}[A-Z]{3}\d{2}C25000 at a protected limit about ₹[\d,.]+ and sell 1 lot \(65\) NIFTY\w+P25000 at a protected limit about ₹[\d,.]+ together; net premium received ₹[\d,.]+ a unit; close every leg when the move is 40 points against or 25% for\.$/,
    );
    expect(await review.locator('[data-legs-dry-run-leg]').allTextContents()).toEqual([
      expect.stringMatching(/^S 1 lot NFO:NIFTY\w+C25000: 65 at limit \d+\.\d{2} \(last \d+\.\d{2}\)$/),
      expect.stringMatching(/^S 1 lot NFO:NIFTY\w+P25000: 65 at limit \d+\.\d{2} \(last \d+\.\d{2}\)$/),
    ]);
    expect(await legsPlans()).toEqual([]);

    // Sent with the key made at the dry run; the review is then spent (the button off until a new dry run).
    const create = form.getByRole('button', { name: 'Create this plan' });
    await create.click();
    await eventually(() => page.locator('[role="status"]').allTextContents()).toContainEqual(
      expect.stringMatching(/Plan \w+ created: entry-filled\./),
    );
    expect(await legsPlans()).toHaveLength(1);
    const [made] = await legsPlans();
    const row = page.locator(`li[data-plan="${made!.planId}"]`);
    await eventually(() => row.locator('[data-plan-state]').textContent()).toBe('entry-filled');
    const lines = await row.locator('[data-legs-line]').allTextContents();
    expect(lines).toEqual([
      expect.stringMatching(/^S 1 lot NFO:NIFTY\w+C25000: filled 65 at \d+\.\d{2}, open 65$/),
      expect.stringMatching(/^S 1 lot NFO:NIFTY\w+P25000: filled 65 at \d+\.\d{2}, open 65$/),
      expect.stringMatching(/^Net premium at the fills -[\d,.]+ points per unit of the smallest leg \(received\)$/),
      expect.stringMatching(/^Exit on the net premium: stop 40 points, target 25%; every leg closes together at/),
      'Product M, every leg',
    ]);
    expect(await create.isDisabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("takes another expiry's contracts, four legs bought wings first, and fits a phone's width (360 px)", async () => {
    await newPage({ width: 360, height: 740 });
    await loadChains(stack);
    await index(25_000);
    await open('plans');
    await page.getByText("Pick 2 to 4 legs from the day's option chain").click();
    const form = page.locator('form[data-form="legs-plan"]');
    await eventually(() => form.getByLabel('Leg 1 strike', { exact: true }).inputValue()).toBe('25000');
    // The next listed expiry: its chain read, the legs' contracts of that expiry (NIFTY15DEC26...).
    const expiry = form.getByLabel('Expiry', { exact: true });
    const next = (await expiry.locator('option').allTextContents())[1]!;
    await expiry.selectOption(next);
    const [y, , d] = next.split('-');
    const code = `${d}${new Date(`${next}T00:00:00Z`).toLocaleString('en', { month: 'short', timeZone: 'UTC' }).toUpperCase()}${y!.slice(2)}`;
    // The request the form would send names that expiry's contracts once its chain is read.
    await eventually(() => form.locator('[data-request="legs-plan"]').textContent()).toContain(`NIFTY${code}C25000`);
    await form.getByRole('button', { name: 'Add a leg' }).click();
    await form.getByRole('button', { name: 'Add a leg' }).click();
    // A new leg starts as a copy of the last one.
    expect(await form.getByLabel('Leg 3 type', { exact: true }).inputValue()).toBe('PE');
    await form.getByLabel('Leg 3 type', { exact: true }).selectOption('CE');
    await form.getByLabel('Leg 3 strike', { exact: true }).selectOption('25200');
    await form.getByLabel('Leg 3 side', { exact: true }).selectOption('B');
    await form.getByLabel('Leg 4 strike', { exact: true }).selectOption('24800');
    await form.getByLabel('Leg 4 type', { exact: true }).selectOption('PE');
    await form.getByLabel('Leg 4 side', { exact: true }).selectOption('B');
    await form.getByLabel('Stop on the net premium', { exact: true }).fill('40');
    await form.getByLabel('Target on the net premium', { exact: true }).fill('25');
    await form.getByRole('button', { name: 'Dry run' }).click();
    // An iron fly: the two bought wings first.
    await eventually(() => page.locator('[data-legs-dry-run-leg]').allTextContents()).toEqual([
      expect.stringMatching(new RegExp(`^B 1 lot NFO:NIFTY${code}C25200: `)),
      expect.stringMatching(new RegExp(`^B 1 lot NFO:NIFTY${code}P24800: `)),
      expect.stringMatching(new RegExp(`^S 1 lot NFO:NIFTY${code}C25000: `)),
      expect.stringMatching(new RegExp(`^S 1 lot NFO:NIFTY${code}P25000: `)),
    ]);
    expect(await form.getByRole('button', { name: 'Add a leg' }).count()).toBe(0);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  });
});
