/**
 * The console as a trader reads the day (issue 58), in the system's chromium against the local stack: the Events
 * view newest first with a rejection's reason, an OCO's legs and a trailing stop's steps; Today's lists, limits used
 * and rupees the Indian way; the market beside every pending order (last price, distance to each trigger, tag; one
 * quote read per symbol; a reply about another instrument is no price); a fired OCO's leg and the fired list newest
 * first by when each fired; the kill switch's keep-exits mode, and a sweep that is not complete said as such, with
 * until when and what to do. The stack's late window is long (as a slow broker's would be), so a sweep right after a
 * place cannot wait for it and answers `complete: false` with `inFlightUntil`.
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { firedAtMs } from '../../console/src/format.js';
import type { LocalStack } from '../../local/run-local.js';
import { axeViolations } from '../support/browser.js';
import { eventually, useConsolePage } from '../support/console-fixture.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let page: Page;
const { open } = useConsolePage((state) => ({ stack, control, page } = state), {
  brokerTimeoutMs: 10_000,
  settings: { ORDER_LATE_WINDOW_MS: 200_000 },
});

const post = async (path: string, body: unknown): Promise<string> => {
  const res = await fetch(`${stack.api.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { al_id: string };
  expect(res.status, JSON.stringify(answer)).toBe(201);
  return answer.al_id;
};
const single = (order: Record<string, unknown> = {}) => post('/gtt-orders', { ...SAMPLE_ORDER, ...order });
const oco = (tsym: string, qty = 3, target = '1600', stop = '1400') =>
  post('/gtt-orders/oco', {
    exch: 'NSE',
    tsym,
    target: { trigger: target, order: { trantype: 'S', prctyp: 'LMT', prc: target, qty, prd: 'C' } },
    stopLoss: { trigger: stop, order: { trantype: 'S', prctyp: 'LMT', prc: stop, qty, prd: 'C' } },
  });
/** A symbol's price now, and the close its band is cut around. */
const market = (tsym: string, ltp: number, close = 1500) => control.ltp('NSE', tsym, ltp, close);
const pendingRow = (alId: string) => page.locator(`section[aria-labelledby="pending-title"] li[data-al-id="${alId}"]`);
/** What a pending order's leg says of its trigger's distance, as the eye reads it (spaces collapsed). */
const distanceOf = async (alId: string, leg: string) =>
  ((await pendingRow(alId).locator(`[data-distance="${leg}"]`).textContent()) ?? '').replace(/\s+/g, ' ').trim();
/** The page's width at a phone's 360 px (what is wider scrolls sideways). */
const phoneWidth = async () => {
  await page.setViewportSize({ width: 360, height: 740 });
  const width = await page.evaluate<number>('document.documentElement.scrollWidth');
  await page.setViewportSize({ width: 1200, height: 900 });
  return width;
};
const firedIds = () =>
  page
    .locator('section[aria-labelledby="triggered-title"] li[data-al-id]')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-al-id')));
/** Waits until the clock is past the second the order fired in (the broker writes fire times to the second). */
const pastFiringSecond = async (alId: string) => {
  const res = await fetch(`${stack.api.url}/gtt-orders/triggered`);
  const { orders } = (await res.json()) as { orders: { al_id: string; triggeredAt?: string }[] };
  const at = firedAtMs(orders.find((o) => o.al_id === alId)?.triggeredAt);
  expect(at).toBeDefined();
  await eventually(() => Promise.resolve(Date.now())).toBeGreaterThanOrEqual(at! + 1_000);
};

describe('the day as the console shows it', () => {
  // First in the file: Today's lists are the day's, and the stack keeps its history across this file's tests.
  it("Events newest first with a rejection's reason and an OCO's legs; Today's lists and limits in rupees", async () => {
    await market('M&M-EQ', 1510);
    const exit = await oco('M&M-EQ');
    const entry = await single();
    await stack.watch(); // the watcher's first run only takes its baseline
    await fetch(`${stack.emulator.url}/_emulator/next-order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'rejected', reason: 'RED:Margin Shortfall:INR 1,500.00 Available:INR 0.00' }),
    });
    await market('M&M-EQ', 1480);
    await stack.watch();
    await stack.eventsForwarded();

    await open('events');
    const items = page.locator('li[data-event-type]');
    // The reason on the rejection (and on the trigger's line, whose order the book already showed rejected).
    const rejected = page.locator('li[data-event-type="Order Rejected"]');
    await eventually(() => rejected.count()).toBe(1);
    expect(await rejected.textContent()).toContain('INSUFFICIENT_FUNDS: RED:Margin Shortfall:INR 1,500.00');
    expect(await rejected.textContent()).toMatch(new RegExp(`order ${entry} · order \\d+ rejected: `));
    const placedOco = items.filter({ hasText: `order ${exit}` }).and(page.locator('[data-event-type="GTT Placed"]'));
    expect(await placedOco.first().textContent()).toContain(
      'OCO · target 1600 (sell 3, LMT 1600) · stop 1400 (sell 3, LMT 1400)',
    );
    const times = await items.evaluateAll((list) =>
      list.map((li) => Date.parse(li.querySelector('time')?.getAttribute('datetime') ?? '')),
    );
    expect(times.length).toBeGreaterThanOrEqual(4);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(await items.first().getAttribute('data-event-type')).not.toBe('GTT Placed');

    await open('today');
    await eventually(() => page.locator('#day-placed').textContent()).toBe('Placed today (2)');
    expect(await page.locator('#day-fired').textContent()).toBe('Fired today (1)');
    expect(await page.locator('#day-rejected').textContent()).toBe('Rejected today (1)');
    const rejection = page.locator(`[data-day="rejected"] li[data-al-id="${entry}"]`);
    expect(await rejection.textContent()).toContain('Margin Shortfall');
    expect(await rejection.getByRole('link', { name: 'M&M-EQ' }).getAttribute('href')).toBe(
      '#/chart?exch=NSE&tsym=M%26M-EQ',
    );
    expect(await page.locator(`[data-day="placed"] li[data-al-id="${exit}"]`).textContent()).toContain(
      'OCO Sell 3, target 1600, stop 1400',
    );
    // The default largest order value (₹25 lakh), and the day's largest: the OCO's 3 × 1600.
    await eventually(() => page.locator('[data-limit="value"]').textContent()).toBe(
      "₹25,00,000 (₹25 lakh); today's largest ₹4,800 (0.19%)",
    );
    expect(await axeViolations(page)).toEqual([]);
    expect(await phoneWidth()).toBeLessThanOrEqual(360);
    await page.getByRole('link', { name: 'Every Order Rejected event' }).click();
    await eventually(() => page.locator('li[data-event-type]').count()).toBe(1);
    expect(await page.getByLabel('Type').inputValue()).toBe('Order Rejected');
  });

  it('Orders: the last price, the distance to each trigger and the tag, one quote read per symbol', async () => {
    await market('M&M-EQ', 1510);
    await market('WIPRO-EQ', 1500);
    const tagged = await single({ tag: 'swing-1' });
    const lower = await single({ d: '1480', prc: '1490' });
    const exit = await oco('WIPRO-EQ');
    const quoteReads: string[] = [];
    page.on('request', (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname === '/quotes') quoteReads.push(url.searchParams.get('tsym') ?? '');
    });
    await open('orders');
    await eventually(() => pendingRow(tagged).locator('[data-last-price]').textContent()).toBe('1510.00');
    expect(await pendingRow(tagged).locator('[data-order-tag]').textContent()).toBe('tag swing-1');
    expect(await distanceOf(tagged, 'trigger')).toBe('trigger 20.00 below (1.32%)');
    expect(await distanceOf(lower, 'trigger')).toBe('trigger 30.00 below (1.99%)');
    await eventually(() => pendingRow(exit).locator('[data-last-price]').textContent()).toBe('1500.00');
    expect(await distanceOf(exit, 'target')).toBe('trigger 100.00 above (6.67%)');
    expect(await distanceOf(exit, 'stopLoss')).toBe('trigger 100.00 below (6.67%)');
    await page.waitForLoadState('networkidle');
    expect(quoteReads.sort()).toEqual(['M&M-EQ', 'WIPRO-EQ']);
    expect(await phoneWidth()).toBeLessThanOrEqual(360);

    // A reply that names another instrument is no price of this one.
    await page.route(
      (url) => url.pathname === '/quotes' && url.searchParams.get('tsym') === 'WIPRO-EQ',
      (route) =>
        route.fulfill({
          contentType: 'application/json',
          body: JSON.stringify({
            exch: 'NSE',
            tsym: 'INFY-EQ',
            token: '1594',
            lp: '9999.00',
            tick: '0.05',
            lot: 1,
            precision: 2,
            quotedAt: new Date().toISOString(),
          }),
        }),
    );
    await page.getByRole('button', { name: 'Refresh' }).click();
    await eventually(() => pendingRow(exit).locator('[data-last-price]').textContent()).toBe('—');
    expect(await pendingRow(exit).textContent()).not.toContain('9999');
    expect(await pendingRow(tagged).locator('[data-last-price]').textContent()).toBe('1510.00');
  });

  it("Fired: an OCO's fired leg and its trigger, the list newest first by when each fired", async () => {
    await market('M&M-EQ', 1510);
    await market('WIPRO-EQ', 1500);
    await market('INFY-EQ', 1510);
    const first = await single();
    const second = await oco('WIPRO-EQ');
    const third = await single({ tsym: 'INFY-EQ' });
    // Fired in the order second, first, third: neither the ids' order nor its reverse.
    await market('WIPRO-EQ', 1390);
    await pastFiringSecond(second);
    await market('M&M-EQ', 1480);
    await pastFiringSecond(first);
    await market('INFY-EQ', 1480);

    await open('orders');
    await eventually(firedIds).toEqual([third, first, second]);
    const fired = page.locator(`section[aria-labelledby="triggered-title"] li[data-al-id="${second}"] [data-fired]`);
    expect(await fired.textContent()).toMatch(
      /^Stop leg fired at 1400\.00 \(Sell 3\), \d+ \w+,? \d{2}:\d{2}:\d{2} IST$/,
    );
  });

  it("Events: a trailing stop's move, old and new trigger, and a price it could not read said as such", async () => {
    await market('ITC-EQ', 1500);
    const res = await fetch(`${stack.api.url}/plans`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({
        kind: 'trailing-stop',
        order: { ...SAMPLE_ORDER, tsym: 'ITC-EQ', trantype: 'S', d: '1400', prc: '1395' },
        trailBy: '100',
      }),
    });
    expect(res.status).toBe(201);
    const { planId } = (await res.json()) as { planId: string };
    await stack.watch();
    await market('ITC-EQ', 1550);
    await stack.watch();
    await control.fault({ operation: 'GetQuotes', kind: 'http5xx', status: 503, times: 1_000 });
    for (let run = 0; run < 3; run++) await stack.watch();
    await control.clearFaults();
    await stack.eventsForwarded();

    await open('events?type=Plan%20Step');
    const steps = page.locator('li[data-event-type="Plan Step"]').filter({ hasText: `plan ${planId}` });
    await eventually(() => steps.count()).toBe(2);
    // Newest first: the price that could not be read, then the move.
    expect(await steps.nth(0).textContent()).toContain('price unavailable: the stop is not trailing (');
    expect(await steps.nth(0).textContent()).not.toMatch(/^[^(]*BROKER_REJECTED/);
    expect(await steps.nth(1).textContent()).toContain('stop moved 1400 → 1450');
  });

  // Last: the switch stays on if this fails.
  it('kill switch: keep-exits chosen, what it kept and cancelled, and NOT complete with until when', async () => {
    await market('M&M-EQ', 1510);
    const exit = await oco('M&M-EQ');
    const entry = await single();
    await open('today');
    const card = page.locator('section[aria-labelledby="kill-title"]');
    await eventually(() => card.locator('[data-kill-switch]').getAttribute('data-kill-switch')).toBe('off');
    expect(await card.getByRole('group', { name: 'When it goes on' }).textContent()).toContain(
      "OCOs and plans' exits and trailing stops stay at the broker",
    );
    await card.getByLabel('Keep the exits (keep-exits)').check();
    await card.getByRole('button', { name: 'Turn the kill switch on' }).click();
    const question = page.getByRole('alertdialog');
    expect(await question.textContent()).toContain('keep the exits');
    expect(await question.textContent()).toContain("every OCO and plans' exits and stops stay at the broker");
    await question.getByRole('button', { name: 'Turn it on' }).click();

    await eventually(() => card.locator('[data-kill-switch]').textContent()).toContain('On (keep-exits)');
    expect(await card.locator('[data-sweep="cancelled"]').textContent()).toBe(entry);
    expect(await card.locator('[data-sweep="kept"]').textContent()).toBe(exit);
    const incomplete = card.locator('[data-sweep-incomplete]');
    expect(await incomplete.getAttribute('role')).toBe('alert');
    expect(await incomplete.textContent()).toContain('NOT complete');
    expect(await incomplete.locator('[data-in-flight-until]').textContent()).toMatch(
      /may still land until \d+ \w+,? \d{2}:\d{2}:\d{2} IST: press Sweep again after then/,
    );
    expect(await axeViolations(page)).toEqual([]);
    expect(await phoneWidth()).toBeLessThanOrEqual(360);
    const book = await control.orders(stack.emulator.uid);
    expect(book.find((o) => o.al_id === exit)?.state).toBe('pending');
    expect(book.find((o) => o.al_id === entry)?.state).not.toBe('pending');

    await card.getByRole('button', { name: 'Turn the kill switch off' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Turn it off' }).click();
    await eventually(() => card.locator('[data-kill-switch]').getAttribute('data-kill-switch')).toBe('off');
    expect(await card.locator('[data-sweep-incomplete]').count()).toBe(0);
  });
});
