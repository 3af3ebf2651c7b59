/**
 * Today's "Day's limits" card and its form (console/src/views/today-risk.ts, risk-form.ts), in the system's chromium
 * against the local stack: no limit said with the way to set one; the form's limits (asked first) are what `GET /risk`
 * then answers, and clearing them too; a negative limit refused with the gateway's message beside the field and
 * nothing written; the day's state as the real GttWatcher's check leaves it: unchecked with why while the positions
 * cannot be read, clear with the last P&L and the room to the limit, then, after the price takes the position past
 * the loss limit and the watcher runs, HIT with the P&L it was crossed at and the square-off order; and the coverage
 * settings' form likewise (`PUT /positions/coverage`).
 * The stack's events table lives for the file (the emulator is reset before each test, the settings and the day's
 * state are not), so each test sets what it reads, and the coverage settings (autoCover would place an OCO at the
 * watcher's next run) come after the only test that runs the watcher.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { LocalStack } from '../../local/run-local.js';
import { axeViolations, screenshot } from '../support/browser.js';
import { eventually, useConsolePage } from '../support/console-fixture.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let page: Page;
let problems: string[];
const { open } = useConsolePage((state) => ({ stack, control, page, problems } = state));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read the answers' fields as they check them
type Json = Record<string, any>;
const api = localApi<Json>(() => stack.api.url);
/** A write as a client sends it (its own Idempotency-Key). */
const call = (method: string, path: string, body?: unknown) =>
  api(method, path, body, body === undefined ? {} : { 'Idempotency-Key': crypto.randomUUID() });
const risk = async () => (await call('GET', '/risk')).body;

const card = () => page.locator('section[aria-labelledby="risk-title"]');
const form = () => card().locator('form[data-form="risk"]');
const words = async (selector: string) =>
  ((await card().locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
/** Answers the page's question (the console asks before every write) with its yes. */
const confirm = async (yes: string) => {
  const question = page.getByRole('alertdialog');
  await question.getByRole('button', { name: yes }).click();
};
/** The failures the browser logged (every failed request is a console line): exactly `count` of `status`, then none kept. */
const refusalsLogged = (count: number, status = 400) => {
  expect(problems).toEqual(Array.from({ length: count }, () => expect.stringContaining(`status of ${status}`)));
  problems.length = 0;
};

describe("Today's day limits: the form", () => {
  it('no limit says so with the way to set one; the form sets them, GET /risk answers them; then clears them', async () => {
    await open('today');
    await eventually(() => words('[data-risk="none"]')).toContain("No day's limit is set");
    expect(await words('[data-risk="none"]')).toContain('Set a loss limit below');
    expect(await form().getByRole('button', { name: 'Clear the limits' }).count()).toBe(0);

    await form().getByLabel('Loss limit (₹)').fill('₹5,000');
    await form().getByLabel('Profit target (₹)').fill('12500.50');
    await form().getByLabel('When one is crossed').selectOption('cancel-all');
    await form().getByLabel('Square off: close each open position').check();
    await form().getByRole('button', { name: 'Set the limits' }).click();
    // Asked first: nothing is written before the yes.
    expect(await page.getByRole('alertdialog').textContent()).toContain(
      "Trading stops once the day's P&L is at or below -₹5,000 or at or above ₹12,500.50",
    );
    expect((await risk()).settings).toBeUndefined();
    await confirm('Set the limits');
    await eventually(() => card().getByRole('status').textContent()).toBe("Day's limits set.");
    expect((await risk()).settings).toMatchObject({
      dayLossLimit: 5000,
      dayProfitTarget: 12500.5,
      mode: 'cancel-all',
      squareOff: true,
    });
    // The card read them again: the limits in rupees the Indian way.
    await eventually(() => words('[data-risk-limit="loss"]')).toBe('₹5,000: stops at -₹5,000');
    expect(await words('[data-risk-limit="target"]')).toBe('₹12,500.50: stops at ₹12,500.50');
    expect(await card().locator('[data-risk-mode]').getAttribute('data-risk-mode')).toBe('cancel-all');
    expect(await card().locator('[data-risk-square-off]').getAttribute('data-risk-square-off')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);

    await form().getByRole('button', { name: 'Clear the limits' }).click();
    await confirm('Clear the limits');
    await eventually(() => words('[data-risk="none"]')).toContain("No day's limit is set");
    const cleared = (await risk()).settings;
    expect(cleared.dayLossLimit).toBeUndefined();
    expect(cleared.dayProfitTarget).toBeUndefined();
  });

  it("a negative limit: the gateway's message beside the field, nothing written", async () => {
    expect((await call('PUT', '/risk', { dayLossLimit: 5000 })).status).toBe(200);
    const before = (await risk()).settings;
    await open('today');
    await eventually(() => words('[data-risk-limit="loss"]')).toBe('₹5,000: stops at -₹5,000');
    await form().getByLabel('Loss limit (₹)').fill('-5000');
    await form().getByRole('button', { name: 'Set the limits' }).click();
    await confirm('Set the limits');
    const error = card().locator('[data-field-error="risk-loss"]');
    await eventually(() => error.textContent()).toContain('dayLossLimit must be a positive amount in rupees');
    expect(await form().getByLabel('Loss limit (₹)').getAttribute('aria-invalid')).toBe('true');
    expect(await card().getByRole('alert').textContent()).toContain('VALIDATION_FAILED');
    expect((await risk()).settings).toEqual(before);
    refusalsLogged(1);
  });
});

describe("Today's day limits: the watcher's check", () => {
  it('unchecked with why; clear with the last P&L and the room; past the limit, HIT with the P&L and square-off', async () => {
    expect((await call('PUT', '/risk', { dayLossLimit: 400, squareOff: true })).status).toBe(200);
    // A run that cannot read the positions decides nothing and says why.
    await control.fault({ operation: 'PositionBook', kind: 'http5xx', times: 10 });
    await stack.watch();
    expect((await risk()).today).toMatchObject({ state: 'unchecked' });
    await open('today');
    await eventually(() => card().locator('[data-risk-state]').getAttribute('data-risk-state')).toBe('unchecked');
    expect(await words('[data-risk-state]')).toBe('UNCHECKED: the positions could not be read, nothing decided');
    expect(await words('[data-risk-reason]')).toContain('positions not read');
    // Today's positions and coverage reads failed too, each said in the page (and logged by the browser).
    await eventually(async () => problems.length).toBe(2);
    refusalsLogged(2, 502);
    await control.clearFaults();

    await control.ltp('NSE', 'INFY-EQ', 1500);
    expect((await call('POST', '/gtt-orders', { ...SAMPLE_ORDER, tsym: 'INFY-EQ', qty: 5 })).status).toBe(201);
    await control.ltp('NSE', 'INFY-EQ', 1489); // 5 bought at 1489
    await stack.watch();
    expect((await risk()).today).toMatchObject({ state: 'clear', lastCheck: { pnl: { total: 0 } } });

    await page.reload();
    await eventually(() => card().locator('[data-risk-state]').getAttribute('data-risk-state')).toBe('clear');
    expect(await words('[data-risk-state]')).toBe('Clear: no limit crossed');
    expect(await words('[data-risk-last] [data-pnl]')).toBe('₹0');
    expect(await words('[data-risk-room]')).toBe('₹400 above the loss limit (-₹400)');

    // 5 at 1489 marked at 1409: -400, at the limit; the watcher's next run sees it.
    await control.ltp('NSE', 'INFY-EQ', 1409);
    await stack.watch();
    const today = (await risk()).today;
    expect(today).toMatchObject({ state: 'hit', hit: { pnl: { total: -400 }, halted: true } });
    const order = today.hit.squareOff[0];
    expect(order).toMatchObject({ side: 'S', qty: 5, price: '1402.00', norenordno: expect.any(String) });

    await page.reload();
    await eventually(() => card().locator('[data-risk-state]').getAttribute('data-risk-state')).toBe('hit');
    expect(await words('[data-risk-state]')).toBe('HIT: trading stopped for the day');
    expect(await words('[data-risk-hit]')).toBe('the loss limit (-₹400)');
    expect(await card().locator('[data-risk-hit]').getAttribute('data-risk-hit')).toBe('dayLossLimit');
    expect(await words('[data-risk-halted]')).toBe('turned on (keep-exits)');
    expect(await words('[data-square-off="NSE:INFY-EQ:C"]')).toBe(
      `Sell 5 NSE:INFY-EQ at 1402.00: order ${order.norenordno}`,
    );
    const pnls = await card().locator('[data-pnl]').allTextContents();
    expect(pnls[0]).toBe('-₹400'); // the P&L it was crossed at (then the last one seen)
    expect(await page.locator('[data-kill-switch]').getAttribute('data-kill-switch')).toBe('on');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'day-limits');
  });
});

describe("Today's position cover: the coverage settings' form", () => {
  const cover = () => page.locator('section[aria-labelledby="coverage-settings-title"]');
  const coverForm = () => cover().locator('form[data-form="coverage"]');
  const settings = async () => (await call('GET', '/positions/coverage')).body.settings as Json;

  it('sets watch and autoCover, which GET /positions/coverage answers; a bad distance is refused beside it', async () => {
    await open('today');
    await eventually(() => cover().locator('[data-coverage-watch]').getAttribute('data-coverage-watch')).toBe('false');
    expect(await coverForm().getByLabel('Stop distance').isDisabled()).toBe(true);
    await coverForm().getByLabel('Watch: check every open position each run').check();
    await coverForm().getByLabel('autoCover: place an OCO for an uncovered position').check();
    await coverForm().getByLabel('Target distance').fill('2%');
    await coverForm().getByLabel('Stop distance').fill('10');
    await coverForm().getByRole('button', { name: 'Save coverage settings' }).click();
    expect(await page.getByRole('alertdialog').textContent()).toContain('an OCO at these distances is placed once');
    expect((await settings()).watch).toBe(false); // nothing before the yes
    await confirm('Save');
    await eventually(() => cover().getByRole('status').textContent()).toBe('Coverage settings saved.');
    expect(await settings()).toMatchObject({ watch: true, autoCover: { target: '2%', stop: '10' } });
    await eventually(() => cover().locator('[data-coverage-auto]').textContent()).toContain(
      'target 2% of the average price, stop 10 points',
    );
    expect(await cover().locator('[data-coverage-watch]').getAttribute('data-coverage-watch')).toBe('true');

    const before = await settings();
    await coverForm().getByLabel('Stop distance').fill('-3');
    await coverForm().getByRole('button', { name: 'Save coverage settings' }).click();
    await confirm('Save');
    await eventually(() => cover().locator('[data-field-error="coverage-stop"]').textContent()).toContain(
      'autoCover.stop must be points above 0',
    );
    expect(await coverForm().getByLabel('Stop distance').getAttribute('aria-invalid')).toBe('true');
    expect(await settings()).toEqual(before);
    refusalsLogged(1);
    expect(await axeViolations(page)).toEqual([]);
  });
});
