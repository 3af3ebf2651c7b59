/**
 * The trader's console in a real browser (the system's chromium) against the local stack npm start runs: what the
 * API does shows in the page, and what the page does reaches the emulator's book. Each test fails on a console error
 * or an uncaught exception in the page (which includes a content security policy violation: the page is served with
 * the policy a deployment sends).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { LocalStack } from '../../local/run-local.js';
import { screenshot } from '../support/browser.js';
import { eventually, useConsolePage } from '../support/console-fixture.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let page: Page;
let problems: string[];
const { open } = useConsolePage((state) => ({ stack, control, page, problems } = state));

const placeOverApi = async (order: Record<string, unknown> = {}): Promise<string> => {
  const res = await fetch(`${stack.api.url}/gtt-orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ ...SAMPLE_ORDER, ...order }),
  });
  const body = (await res.json()) as { al_id: string };
  expect(res.status).toBe(201);
  return body.al_id;
};

/** The emulator's own book: what the broker holds, whatever the gateway says. */
const book = async (): Promise<{ al_id: string; state: string; d: string; tsym: string }[]> => {
  const res = await fetch(`${stack.emulator.url}/_emulator/orders?uid=${stack.emulator.uid}`);
  return ((await res.json()) as { orders: { al_id: string; state: string; d: string; tsym: string }[] }).orders;
};

describe('the console: orders', () => {
  it('shows an order placed over the API, and a trigger changed in place is what the emulator holds', async () => {
    // The market as npm start opens it: the symbol has a price, so the order shows it and the trigger's distance.
    await control.ltp('NSE', 'M&M-EQ', 1500);
    const alId = await placeOverApi();
    await open('orders');
    const row = page.locator(`li[data-al-id="${alId}"]`).first();
    await eventually(() => row.locator('[data-leg="trigger"]').textContent()).toContain('Trigger 1490.00');
    await eventually(() => row.textContent()).toContain('1500.00');
    await screenshot(page, 'orders');
    await row.getByRole('button', { name: /Change trigger/ }).click();
    await row.getByLabel('New trigger').fill('1485');
    await row.getByRole('button', { name: 'Save' }).click();
    await eventually(() => page.getByRole('status').textContent()).toContain(`Order ${alId}: trigger is now 1485`);
    expect((await book()).find((o) => o.al_id === alId)).toMatchObject({ state: 'pending', d: '1485' });
    await eventually(() => row.locator('[data-leg="trigger"]').textContent()).toContain('Trigger 1485.00');
  });

  it('shows what an alert on a percentage change watches, and draws no price line for it', async () => {
    await control.ltp('NSE', 'M&M-EQ', 1500);
    const alId = await placeOverApi({ ai_t: 'CH_PER_B_O', d: '-2' });
    await open('orders');
    const row = page.locator(`li[data-al-id="${alId}"]`).first();
    await eventually(() => row.locator('[data-leg="trigger"]').textContent()).toContain(
      'Change from the close -2% (fires when it falls to it)',
    );
    // On the chart, the LTP order beside it has its line; the percentage one has none.
    const ltpId = await placeOverApi();
    await open('chart?exch=NSE&tsym=M%26M-EQ');
    await eventually(() => page.locator(`[data-price-line="Trigger ${ltpId}"]`).textContent()).toBe(
      `Trigger ${ltpId}: 1490.00`,
    );
    expect(await page.locator(`[data-price-line="Trigger ${alId}"]`).count()).toBe(0);
  });

  it('says so when the order changed after it was opened for editing (412), and sends nothing', async () => {
    const alId = await placeOverApi();
    await open('orders');
    const row = page.locator(`li[data-al-id="${alId}"]`).first();
    await row.getByRole('button', { name: /Change trigger/ }).click();
    const patched = await fetch(`${stack.api.url}/gtt-orders/${alId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ d: '1480' }),
    });
    expect(patched.status).toBe(200);
    await row.getByLabel('New trigger').fill('1470');
    await row.getByRole('button', { name: 'Save' }).click();
    await eventually(() => page.getByRole('alert').textContent()).toContain('changed since you opened it');
    expect((await book()).find((o) => o.al_id === alId)?.d).toBe('1480');
    // The 412 itself is the one console line expected here (the browser logs every failed request).
    expect(problems).toEqual([expect.stringContaining('status of 412')]);
    problems.length = 0;
  });

  it('dry-runs the form (the exact request and the rules checked), then places it', async () => {
    await open('orders');
    const form = page.locator('form.place');
    await form.getByLabel('Symbol').fill('M&M-EQ');
    await form.getByLabel('Quantity').fill('2');
    await form.getByLabel('Trigger').fill('1490');
    await form.getByLabel('Limit price').fill('1500');
    const place = form.getByRole('button', { name: 'Place this order' });
    expect(await place.isDisabled()).toBe(true);
    await form.getByRole('button', { name: 'Dry run' }).click();
    const jData = JSON.parse((await page.locator('[data-dry-run="jData"]').textContent()) ?? '{}') as Record<
      string,
      unknown
    >;
    expect(jData).toMatchObject({ exch: 'NSE', tsym: 'M%26M-EQ', qty: '2', d: '1490', prc: '1500', ai_t: 'LTP_B_O' });
    await eventually(() => page.locator('[data-dry-run="rules"]').textContent()).toContain('0.05');
    expect(await book()).toEqual([]);
    await screenshot(page, 'dry-run');
    await place.click();
    await eventually(() => page.getByRole('status').textContent()).toMatch(/Placed: order \d+/);
    const alId = /order (\d+)/.exec((await page.getByRole('status').textContent()) ?? '')![1]!;
    expect(await book()).toEqual([expect.objectContaining({ al_id: alId, d: '1490', state: 'pending' })]);
    await eventually(() => page.locator(`li[data-al-id="${alId}"]`).count()).toBe(1);
  });

  it("changes an OCO's stop in place, and the chart draws its target and stop", async () => {
    const res = await fetch(`${stack.api.url}/gtt-orders/oco`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({
        exch: 'NSE',
        tsym: 'M&M-EQ',
        target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', prc: '1600', qty: 1, prd: 'C' } },
        stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', prc: '1400', qty: 1, prd: 'C' } },
      }),
    });
    const alId = ((await res.json()) as { al_id: string }).al_id;
    await open('orders');
    const row = page.locator(`li[data-al-id="${alId}"]`).first();
    await eventually(() => row.locator('[data-leg="stopLoss"]').textContent()).toContain('Stop 1400.00');
    await row.getByRole('button', { name: /Change stop trigger/ }).click();
    await row.getByLabel('New stop trigger').fill('1410');
    await row.getByRole('button', { name: 'Save' }).click();
    await eventually(() => row.locator('[data-leg="stopLoss"]').textContent()).toContain('Stop 1410.00');
    const held = (await fetch(`${stack.emulator.url}/_emulator/orders?uid=${stack.emulator.uid}`).then((r) =>
      r.json(),
    )) as { orders: { al_id: string; x?: string; y?: string }[] };
    expect(held.orders.find((o) => o.al_id === alId)).toMatchObject({ x: '1600', y: '1410' });
    await row.getByRole('link', { name: 'Chart' }).click();
    await eventually(() => page.locator('.price-lines li').allTextContents()).toEqual([
      `Target ${alId}: 1600.00`,
      `Stop ${alId}: 1410.00`,
    ]);
  });

  it("shows a fired order's fate", async () => {
    const alId = await placeOverApi();
    await control.ltp('NSE', 'M&M-EQ', 1480);
    await stack.watch();
    await open('orders');
    const fate = page.locator(`section[aria-labelledby="triggered-title"] li[data-al-id="${alId}"] [data-fate]`);
    await eventually(() => fate.getAttribute('data-fate')).toBe('filled');
    expect(await fate.textContent()).toBe('Filled 1 at 1480.00');
  });
});

describe('the console: today and the chart', () => {
  it('turns the kill switch on after asking once, and the emulator holds no pending order', async () => {
    await placeOverApi();
    await placeOverApi({ d: '1480', prc: '1490' });
    expect((await book()).filter((o) => o.state === 'pending')).toHaveLength(2);
    await open('today');
    await eventually(() => page.locator('[data-count="pending"]').textContent()).toBe('2');
    // The governor's limits beside the guardrails, as GET /session answers them (the stack's defaults).
    expect(await page.locator('[data-order-rate]').textContent()).toBe('at most 8 a second, 120 a minute');
    await screenshot(page, 'today');
    await page.getByRole('button', { name: 'Turn the kill switch on' }).click();
    const question = page.getByRole('alertdialog');
    expect(await question.textContent()).toContain('Every pending GTT and OCO is cancelled now');
    await question.getByRole('button', { name: 'Turn it on' }).click();
    await eventually(() => page.locator('[data-kill-switch]').getAttribute('data-kill-switch')).toBe('on');
    expect((await book()).filter((o) => o.state === 'pending')).toEqual([]);
    await eventually(() => page.locator('[data-count="pending"]').textContent()).toBe('0');
    await page.getByRole('button', { name: 'Turn the kill switch off' }).click();
    expect(await page.getByRole('alertdialog').textContent()).toContain('Places and modifies are accepted again');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Turn it off' }).click();
    await eventually(() => page.locator('[data-kill-switch]').getAttribute('data-kill-switch')).toBe('off');
  });

  it('charts the last price with a labelled line for the pending trigger', async () => {
    const alId = await placeOverApi();
    await control.ltp('NSE', 'M&M-EQ', 1510);
    await open('chart?exch=NSE&tsym=M%26M-EQ');
    await eventually(() => page.locator('[data-last-price]').textContent()).toBe('1510.00');
    const line = page.locator(`[data-price-line="Trigger ${alId}"]`);
    await eventually(() => line.textContent()).toBe(`Trigger ${alId}: 1490.00`);
    await control.ltp('NSE', 'M&M-EQ', 1505.5);
    await eventually(() => page.locator('[data-last-price]').textContent()).toBe('1505.50');
    await screenshot(page, 'chart');
  });
});
