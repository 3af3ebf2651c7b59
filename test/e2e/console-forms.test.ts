/**
 * The console's forms and chart in chromium against the local stack: a ChartInk strategy (its side), an OCO (dry run,
 * then both legs at the emulator) and the two kinds of plan, each with the API's refusal shown beside the field it
 * names and nothing sent; the chart's symbol box from the location, the day's band and previous close as lines, the
 * symbols with pending orders as links, the points polled this session kept for the next opening, and a fresh
 * session's chart opening with the day's price bars (`GET /quotes/series`).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { LocalStack } from '../../local/run-local.js';
import { axeViolations } from '../support/browser.js';
import { eventually, useConsolePage } from '../support/console-fixture.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let page: Page;
let problems: string[];
const { open, newPage } = useConsolePage((state) => ({ stack, control, page, problems } = state));

const get = async <T>(path: string): Promise<T> => (await fetch(`${stack.api.url}${path}`)).json() as Promise<T>;

/** The emulator's own book: what the broker holds, whatever the gateway says. */
const book = async (): Promise<Record<string, unknown>[]> => {
  const res = await fetch(`${stack.emulator.url}/_emulator/orders?uid=${stack.emulator.uid}`);
  return ((await res.json()) as { orders: Record<string, unknown>[] }).orders;
};

/** The refusals the browser logged (every failed request is a console line): exactly `count` 400s, then none kept. */
const refusalsLogged = (count: number) => {
  expect(problems).toEqual(Array.from({ length: count }, () => expect.stringContaining('status of 400')));
  problems.length = 0;
};

describe('the console: a ChartInk strategy', () => {
  it('shows the API refusing one without a side beside the Side field, then creates it on the side chosen', async () => {
    await open('signals');
    const form = page.locator('form[data-form="strategy"]');
    await form.getByLabel('Source').selectOption('chartink');
    await form.getByLabel('Name').fill('breakouts');
    await form.getByRole('button', { name: 'Create' }).click();
    const sideError = page.locator('[data-field-error="strategy-side"]');
    await eventually(() => sideError.textContent()).toContain('is required for a ChartInk strategy');
    expect(await form.getByLabel('Side').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('alert').textContent()).toContain('VALIDATION_FAILED');
    expect((await get<{ strategies: unknown[] }>('/strategies')).strategies).toEqual([]);
    refusalsLogged(1);

    await form.getByLabel('Side').selectOption('S');
    await form.getByLabel('Trigger offset').fill('0');
    await form.getByLabel('Limit price offset').fill('-0.2%');
    await form.getByRole('button', { name: 'Create' }).click();
    await eventually(() => page.locator('[data-webhook-url]').textContent()).toMatch(/\/signals\/[A-Za-z0-9_-]{43}$/);
    expect(await sideError.count()).toBe(0);
    const { strategies } = await get<{ strategies: Record<string, unknown>[] }>('/strategies');
    expect(strategies).toEqual([
      expect.objectContaining({
        name: 'breakouts',
        source: 'chartink',
        mode: 'paper',
        action: expect.objectContaining({
          order: expect.objectContaining({ exch: 'NSE', trantype: 'S', qty: 1 }),
          trigger: { offset: '0' },
          price: { offset: '-0.2%' },
        }),
      }),
    ]);
    await eventually(() => page.locator('li[data-strategy]').filter({ hasText: 'breakouts' }).count()).toBe(1);
  });
});

describe('the console: an OCO', () => {
  it('shows a bad trigger beside its field, then dry-runs and places both legs as the emulator holds them', async () => {
    await open('orders');
    await page.getByLabel('An OCO: a target and a stop').check();
    const form = page.locator('form[data-form="oco"]');
    await form.getByLabel('Symbol').fill('M&M-EQ');
    await form.getByLabel('Quantity').fill('2');
    await form.getByLabel('Target trigger').fill('16OO');
    await form.getByLabel('Target limit price').fill('1600');
    await form.getByLabel('Stop trigger').fill('1400');
    await form.getByLabel('Stop limit price').fill('1395');
    await form.getByRole('button', { name: 'Dry run' }).click();
    await eventually(() => page.locator('[data-field-error="oco-targetTrigger"]').textContent()).toContain(
      'trigger must be a plain non-negative decimal number',
    );
    expect(await form.getByRole('button', { name: 'Place this OCO' }).isDisabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    refusalsLogged(1);

    await form.getByLabel('Target trigger').fill('1600');
    await form.getByRole('button', { name: 'Dry run' }).click();
    const jData = JSON.parse((await page.locator('[data-dry-run="jData"]').textContent()) ?? '{}') as Record<
      string,
      unknown
    >;
    expect(jData).toMatchObject({
      tsym: 'M%26M-EQ',
      oivariable: [
        { d: '1600', var_name: 'x' },
        { d: '1400', var_name: 'y' },
      ],
      place_order_params: { trantype: 'S', qty: '2', prc: '1600' },
      place_order_params_leg2: { trantype: 'S', qty: '2', prc: '1395' },
    });
    expect(await page.locator('[data-field-error]').count()).toBe(0);
    expect(await book()).toEqual([]);

    await form.getByRole('button', { name: 'Place this OCO' }).click();
    const notice = page.locator('form[data-form="oco"] ~ [role="status"]');
    await eventually(() => notice.textContent()).toMatch(/Placed: OCO \d+/);
    const alId = /OCO (\d+)/.exec((await notice.textContent()) ?? '')![1]!;
    const held = (await book()).find((o) => o.al_id === alId);
    expect(held).toMatchObject({ state: 'pending', tsym: 'M&M-EQ', x: '1600', y: '1400' });
    const placed = page.locator(`[data-placed="${alId}"]`);
    await eventually(() => placed.locator('li').allTextContents()).toEqual([
      'Target 1600: sell 2 at 1600',
      'Stop 1400: sell 2 at 1395',
    ]);
    await eventually(() => page.locator(`li[data-al-id="${alId}"]`).count()).toBeGreaterThan(0);
  });
});

describe('the console: a GTT on another alert type', () => {
  it('offers each type with what its trigger means, and places one the emulator holds with that ai_t', async () => {
    await control.ltp('NSE', 'M&M-EQ', 1500, 1480);
    await open('orders');
    const form = page.locator('form.place');
    const alert = form.getByLabel('Fires when');
    const offered = await alert
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
    expect(offered).toEqual([
      ...['LTP_B_O', 'LTP_A_O', 'CH_PER_A_O', 'CH_PER_B_O', 'ATP_A_O', 'ATP_B_O', 'OI_A_O', 'OI_B_O'],
      ...['TOI_A_O', 'TOI_B_O', 'VOLUME_A_O', 'LTP_A_52HIGH', 'LTP_B_52LOW'],
    ]);
    const hint = page.locator('#place-d-hint');
    await alert.selectOption('LTP_A_52HIGH');
    await eventually(() => hint.textContent()).toContain('makes a new 52-week high of its own range');
    await alert.selectOption('CH_PER_B_O');
    await eventually(() => hint.textContent()).toContain("the day's change from the previous close in percent");
    expect(await form.getByLabel('Trigger (% change)').getAttribute('aria-describedby')).toBe('place-d-hint');
    await form.getByLabel('Symbol').fill('M&M-EQ');
    await form.getByLabel('Trigger (% change)').fill('-2.5');
    await form.getByLabel('Limit price').fill('1450');
    await form.getByRole('button', { name: 'Dry run' }).click();
    await eventually(() => page.locator('[data-dry-run="jData"]').count()).toBe(1);
    expect(JSON.parse((await page.locator('[data-dry-run="jData"]').textContent()) ?? '{}')).toMatchObject({
      ai_t: 'CH_PER_B_O',
      d: '-2.5',
    });
    expect(await book()).toEqual([]);
    await form.getByRole('button', { name: 'Place this order' }).click();
    await eventually(() => page.getByRole('status').textContent()).toMatch(/Placed: order \d+/);
    const alId = /order (\d+)/.exec((await page.getByRole('status').textContent()) ?? '')![1]!;
    expect(await book()).toEqual([
      expect.objectContaining({ al_id: alId, ai_t: 'CH_PER_B_O', d: '-2.5', state: 'pending' }),
    ]);
    // The pending list says what it watches, not a price.
    await eventually(() => page.locator(`li[data-al-id="${alId}"]`).first().textContent()).toContain(
      'Change from the close -2.5%',
    );
    // Its distance is from the day's change (+1.35%), not from the last price.
    await eventually(() =>
      page.locator(`li[data-al-id="${alId}"] [data-distance="trigger"]`).first().textContent(),
    ).toBe('trigger 3.85 points below the change 1.35%');
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('the console: plans', () => {
  it('shows a bracket whose target is below its entry refused beside the field, then creates it', async () => {
    await open('plans');
    const form = page.locator('form[data-form="plan"]');
    await form.getByLabel('Symbol').fill('M&M-EQ');
    await form.getByLabel('Entry trigger').fill('1490');
    await form.getByLabel('Entry limit price').fill('1500');
    await form.getByLabel('Target trigger').fill('1450');
    await form.getByLabel('Target price').fill('1600');
    await form.getByLabel('Stop-loss trigger').fill('1400');
    await form.getByLabel('Stop-loss price').fill('1400');
    await form.getByRole('button', { name: 'Create the plan' }).click();
    await eventually(() => page.locator('[data-field-error="plan-targetTrigger"]').textContent()).toContain(
      "a long bracket's target (1450) must be above the entry's 1500",
    );
    expect(await book()).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    refusalsLogged(1);

    await form.getByLabel('Target trigger').fill('1600');
    await form.getByRole('button', { name: 'Create the plan' }).click();
    await eventually(() => page.locator('form[data-form="plan"] ~ [role="status"]').textContent()).toMatch(
      /Plan \S+ created: armed/,
    );
    const planId = (await page.locator('[data-made-plan]').getAttribute('data-made-plan'))!;
    expect(await page.locator('[data-made-plan]').textContent()).toContain('Target 1600.00 → 1600.00');
    expect(await book()).toEqual([expect.objectContaining({ state: 'pending', tsym: 'M&M-EQ', d: '1490' })]);
    await eventually(() => page.locator(`li[data-plan="${planId}"] [data-plan-state]`).textContent()).toBe('armed');
  });

  it('creates a trailing stop for a long (a sell stop that fires as the price falls)', async () => {
    await control.ltp('NSE', 'WIPRO-EQ', 1500);
    await open('plans');
    const form = page.locator('form[data-form="plan"]');
    await form.getByLabel('Kind').selectOption('trailing-stop');
    await form.getByLabel('Symbol').fill('WIPRO-EQ');
    await form.getByLabel('Stop trigger').fill('1400');
    await form.getByLabel('Stop limit price').fill('1395');
    await form.getByLabel('Trail by').fill('100');
    expect(JSON.parse((await page.locator('[data-plan-request]').textContent())!.replace('POST /plans', ''))).toEqual({
      kind: 'trailing-stop',
      order: {
        exch: 'NSE',
        tsym: 'WIPRO-EQ',
        qty: '1',
        trantype: 'S',
        prctyp: 'LMT',
        prc: '1395',
        prd: 'C',
        ret: 'DAY',
        ai_t: 'LTP_B_O',
        d: '1400',
      },
      trailBy: '100',
    });
    await form.getByRole('button', { name: 'Create the plan' }).click();
    await eventually(() => page.locator('[data-made-plan]').textContent()).toContain('trailing-stop WIPRO-EQ');
    expect(await book()).toEqual([expect.objectContaining({ state: 'pending', tsym: 'WIPRO-EQ', d: '1400' })]);
  });
});

describe("the forms at a phone's width", () => {
  it('fit 360 px without sideways scrolling: the OCO, the strategy and both kinds of plan', async () => {
    await newPage({ width: 360, height: 740 });
    const wider: string[] = [];
    const measure = async (what: string) => {
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      if (width > 360) wider.push(`${what}: ${width}px`);
    };
    await open('orders');
    await page.getByLabel('An OCO: a target and a stop').check();
    await page.locator('form[data-form="oco"]').waitFor();
    await measure('oco');
    await open('signals');
    await page.locator('form[data-form="strategy"]').getByLabel('Source').selectOption('chartink');
    await measure('strategy');
    await open('plans');
    await page.locator('form[data-form="plan"]').waitFor();
    await measure('bracket');
    await page.locator('form[data-form="plan"]').getByLabel('Kind').selectOption('trailing-stop');
    await measure('trailing-stop');
    expect(wider).toEqual([]);
  });
});

describe('the console: the chart', () => {
  it('takes the symbol from the location, draws the band and previous close, links the symbols with orders', async () => {
    await control.ltp('NSE', 'M&M-EQ', 1510, 1500);
    await control.ltp('NSE', 'SBIN-EQ', 801.4, 800);
    const order = async (body: Record<string, unknown>) =>
      fetch(`${stack.api.url}/gtt-orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({ ...SAMPLE_ORDER, ...body }),
      });
    expect((await order({})).status).toBe(201);
    expect((await order({ tsym: 'SBIN-EQ', d: '790', prc: '790' })).status).toBe(201);
    await open('chart?tsym=M%26M-EQ&exch=NSE');
    expect(await page.getByRole('textbox', { name: 'Symbol' }).inputValue()).toBe('M&M-EQ');
    // The emulator gives the previous close it was told (and the band around it); a day's open, high and low too
    // where it gives them.
    await eventually(() => page.locator('.reference-lines li').allTextContents()).toEqual(
      expect.arrayContaining(['Upper band: 1650.00', 'Lower band: 1350.00', 'Previous close: 1500.00']),
    );
    const symbols = page.locator('[data-order-symbol]');
    await eventually(() => symbols.evaluateAll((li) => li.map((l) => l.getAttribute('data-order-symbol')))).toEqual([
      'NSE:M&M-EQ',
      'NSE:SBIN-EQ',
    ]);
    await symbols.getByRole('link', { name: 'SBIN-EQ' }).click();
    await eventually(() => page.getByRole('textbox', { name: 'Symbol' }).inputValue()).toBe('SBIN-EQ');
    await eventually(() => page.locator('[data-last-price]').textContent()).toBe('801.40');
    await eventually(() => page.locator('.reference-lines li').allTextContents()).toContain('Previous close: 800.00');
  });

  it('keeps the points it polled for the session: reopening the chart starts with them', async () => {
    await control.ltp('NSE', 'M&M-EQ', 1510, 1500);
    await open('chart?exch=NSE&tsym=M%26M-EQ');
    const kept = () =>
      page.evaluate<number>(`JSON.parse(sessionStorage.getItem('gtt-chart:NSE:M&M-EQ') ?? '[]').length`);
    await eventually(kept).toBeGreaterThanOrEqual(2);
    await page.reload();
    await eventually(async () =>
      Number(await page.locator('[data-kept-points]').getAttribute('data-kept-points')),
    ).toBeGreaterThanOrEqual(2);
    expect(await page.locator('[data-kept-points]').textContent()).toMatch(/Opened with \d+ points polled earlier/);
  });

  it("a fresh session's chart opens with the day's price bars from the series", async () => {
    const moves = [1500, 1520, 1490, 1505];
    for (const price of moves) await control.ltp('NSE', 'M&M-EQ', price);
    // A fresh page: nothing kept this session, so every point it opens with is the day's bars'.
    await newPage();
    await open('chart?exch=NSE&tsym=M%26M-EQ');
    const held = page.locator('[data-series-points]');
    await eventually(async () => Number(await held.getAttribute('data-series-points'))).toBeGreaterThanOrEqual(1);
    expect(await held.getAttribute('data-kept-points')).toBe('0');
    // Read back from the chart's series: the first minute opened at the first move; every point is a move's price.
    const values = ((await held.getAttribute('data-history')) ?? '').split(' ').map(Number);
    expect(values[0]).toBe(1500);
    for (const value of values) expect(moves).toContain(value);
    expect(await held.textContent()).toMatch(/Opened with \d+ points of today's bars/);
  });
});
