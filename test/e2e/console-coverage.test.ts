/**
 * Today's coverage badge (console/src/views/today-coverage.ts, docs/explanation/coverage.md), in the system's
 * chromium against the local stack: no badge while nothing is open; a long without a stop is one unprotected
 * position, named with its uncovered quantity; an OCO for all of it takes the badge away.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { LocalStack } from '../../local/run-local.js';
import { eventually, useConsolePage } from '../support/console-fixture.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let page: Page;
const { open } = useConsolePage((state) => ({ stack, control, page } = state));

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${stack.api.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
};
const badge = () => page.locator('[data-coverage]');

describe("Today's coverage badge", () => {
  it('shows an unprotected long with its uncovered quantity, and goes once an OCO covers it', async () => {
    await open('today');
    await eventually(() => badge().getAttribute('data-coverage')).toBe('ok');

    await post('/gtt-orders', { ...SAMPLE_ORDER, tsym: 'INFY-EQ', qty: 4 });
    await control.ltp('NSE', 'INFY-EQ', 1489);
    await page.reload();
    await eventually(() => badge().getAttribute('data-coverage')).toBe('unprotected');
    expect(await page.locator('[data-count="unprotected-positions"]').textContent()).toBe('1');
    const line = ((await badge().locator('li').textContent()) ?? '').replace(/\s+/g, ' ').trim();
    expect(line).toBe('long 4 NSE:INFY-EQ: uncovered, 4 without a stop');

    await post('/gtt-orders/oco', {
      exch: 'NSE',
      tsym: 'INFY-EQ',
      target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', prc: '1600', qty: 4, prd: 'C' } },
      stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', prc: '1400', qty: 4, prd: 'C' } },
    });
    await page.reload();
    await eventually(() => badge().getAttribute('data-coverage')).toBe('ok');
  });
});
