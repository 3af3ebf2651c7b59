/**
 * The console's other half in chromium: how npm start serves it (types, 404s, the content security policy), every
 * view without a serious or critical axe-core violation or a console error, the phone's width, the keyboard, and
 * the Events, Plans and Signals views driven against the local stack.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { sampleAlert } from '../../client/signals.js';
import type { LocalStack } from '../../local/run-local.js';
import { axeViolations, screenshot } from '../support/browser.js';
import { eventually, useConsolePage } from '../support/console-fixture.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let page: Page;
const { open, newPage } = useConsolePage((state) => ({ stack, control, page } = state));

const api = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
  const res = await fetch(`${stack.api.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.ok).toBe(true);
  return (await res.json()) as Record<string, unknown>;
};
/** The text of the element that has the focus. */
const focused = () => page.evaluate<string | undefined>('document.activeElement?.textContent?.trim()');
const VIEWS = ['today', 'orders', 'plans', 'signals', 'chart?exch=NSE&tsym=M%26M-EQ', 'events'];

describe('npm start serves the console', () => {
  it('at /console/, with its files typed, unknown ones 404, and a CSP with no inline script or style', async () => {
    const moved = await fetch(`${stack.api.url}/console`, { redirect: 'manual' });
    expect([moved.status, moved.headers.get('location')]).toEqual([308, '/console/']);
    const index = await fetch(`${stack.api.url}/console/`);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'; style-src 'self'");
    const html = await index.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=|\son\w+=/i);
    const types = await Promise.all(
      ['app.js', 'app.css', 'icon.svg', 'config.json'].map(async (name) => {
        const res = await fetch(`${stack.api.url}/console/${name}`);
        return [name, res.status, res.headers.get('content-type')];
      }),
    );
    expect(types).toEqual([
      ['app.js', 200, 'text/javascript; charset=utf-8'],
      ['app.css', 200, 'text/css; charset=utf-8'],
      ['icon.svg', 200, 'image/svg+xml'],
      ['config.json', 200, 'application/json'],
    ]);
    expect(await (await fetch(`${stack.api.url}/console/config.json`)).json()).toEqual({ mode: 'local' });
    expect((await fetch(`${stack.api.url}/console/nothing.js`)).status).toBe(404);
    expect((await fetch(`${stack.api.url}/console/`, { method: 'POST' })).status).toBe(405);
  });
});

describe('every view', () => {
  it('has no serious or critical axe-core violation and logs no error', async () => {
    await api('POST', '/gtt-orders', SAMPLE_ORDER);
    const found: Record<string, string[]> = {};
    for (const view of VIEWS) {
      await open(view);
      await page.locator('main h1').waitFor();
      await page.waitForLoadState('networkidle');
      found[view] = await axeViolations(page);
    }
    expect(found).toEqual(Object.fromEntries(VIEWS.map((v) => [v, []])));
  });

  it("fits a phone's width (360 px) without sideways scrolling", async () => {
    await newPage({ width: 360, height: 740 });
    await api('POST', '/gtt-orders', SAMPLE_ORDER);
    const wider: string[] = [];
    for (const view of VIEWS) {
      await open(view);
      await page.locator('main h1').waitFor();
      await page.waitForLoadState('networkidle');
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      if (width > 360) wider.push(`${view}: ${width}px`);
      if (view === 'today') await screenshot(page, 'phone-today');
    }
    expect(wider).toEqual([]);
  });

  it('is reachable by keyboard: the skip link first, then the views, each link followed with Enter', async () => {
    await open('today');
    await page.locator('main h1').waitFor();
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Skip to the view');
    const names: string[] = [];
    for (let n = 0; n < 7; n++) {
      await page.keyboard.press('Tab');
      names.push((await focused()) ?? '');
    }
    expect(names.slice(0, 6)).toEqual(['Today', 'Orders', 'Plans', 'Signals', 'Chart', 'Events']);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await eventually(() => page.locator('main h1').textContent()).toBe('Events');
  });
});

describe('events, plans and signals', () => {
  it('lists the events in IST, filters them by type, and shows a cancel made from the Orders view', async () => {
    const placed = await api('POST', '/gtt-orders', SAMPLE_ORDER);
    const alId = String(placed.al_id);
    await open('orders');
    await page
      .locator(`li[data-al-id="${alId}"]`)
      .getByRole('button', { name: `Cancel order ${alId}` })
      .click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel the order' }).click();
    await eventually(() => page.getByRole('status').textContent()).toBe(`Order ${alId} cancelled.`);
    expect((await control.orders(stack.emulator.uid)).find((o) => o.al_id === alId)?.state).not.toBe('pending');
    await stack.eventsForwarded();
    await open('events');
    const placedEvent = page.locator('li[data-event-type="GTT Placed"]').filter({ hasText: alId });
    await eventually(() => placedEvent.textContent()).toMatch(/\d{2}:\d{2}:\d{2} IST.*GTT Placed.*M&M-EQ/);
    await page.getByLabel('Type').selectOption('GTT Cancelled');
    await eventually(() => page.locator('li[data-event-type]').filter({ hasText: alId }).count()).toBe(1);
    const shown = await page
      .locator('li[data-event-type]')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-event-type')));
    expect(new Set(shown)).toEqual(new Set(['GTT Cancelled']));
    await screenshot(page, 'events');
  });

  it('shows a plan with its legs, and cancels it after asking', async () => {
    const plan = await api('POST', '/plans', {
      kind: 'bracket',
      entry: SAMPLE_ORDER,
      target: { trigger: '1600', price: '1600' },
      stopLoss: { trigger: '1400', price: '1400' },
    });
    const planId = String(plan.planId);
    await open('plans');
    const row = page.locator(`li[data-plan="${planId}"]`);
    await eventually(() => row.locator('[data-plan-state]').textContent()).toBe('armed');
    expect(await row.locator('.legs').textContent()).toContain('Target 1600.00 → 1600.00');
    await row.getByRole('button', { name: `Cancel plan ${planId}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel the plan' }).click();
    await eventually(() => row.locator('[data-plan-state]').textContent()).toBe('cancelled');
  });

  it('creates a strategy from its template, shows its webhook URL once, and the signal it got with its fate', async () => {
    await open('signals');
    await page.getByLabel('Source').selectOption('tradingview');
    await page.getByLabel('Name').fill('console-test');
    await page.getByRole('button', { name: 'Create' }).click();
    const url = (await page.locator('[data-webhook-url]').textContent()) ?? '';
    expect(url).toMatch(/\/signals\/[A-Za-z0-9_-]{43}$/);
    const strategy = page.locator('li[data-strategy]').filter({ hasText: 'console-test' });
    await eventually(() => strategy.textContent()).toContain('paper');
    const alert = sampleAlert({ source: 'tradingview', action: { kind: 'gtt', order: { tsym: 'M&M-EQ' } } });
    const sent = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(alert),
    });
    expect(sent.status).toBe(202);
    await stack.signalQueue.drained();
    await page.reload();
    await strategy.getByText('Signals', { exact: false }).first().click();
    await eventually(() => strategy.locator('[data-signal-state]').getAttribute('data-signal-state')).toMatch(
      /acted|refused/,
    );
  });
});
