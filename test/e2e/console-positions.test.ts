/**
 * Today's positions in the console (issue 56), in the system's chromium against the local stack: an empty day said
 * in words; after fills (a GTT's buy, another's sell), each position with the emulator's own numbers (its
 * PositionBook: net quantity long or short, average, last, unrealised and realised P&L) and the day's totals in
 * rupees the Indian way, `GET /positions` read once as Today opens; axe clean and no wider than a 360 px phone.
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { instrumentToken } from '../../emulator/state/formats.js';
import { positionsOf } from '../../emulator/state/positions.js';
import { ltpKey } from '../../emulator/state/state.js';
import type { LocalStack } from '../../local/run-local.js';
import { axeViolations } from '../support/browser.js';
import { eventually, useConsolePage } from '../support/console-fixture.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let page: Page;
const { open } = useConsolePage((state) => ({ stack, control, page } = state));

const place = async (order: Record<string, unknown>) => {
  const res = await fetch(`${stack.api.url}/gtt-orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ ...SAMPLE_ORDER, ...order }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
};
/** The emulator's own PositionBook records of the account, by symbol (what the broker would answer). */
const brokerBook = () => {
  const emulator = stack.emulator.emulator;
  const records = positionsOf(
    emulator.book.orders.values(),
    stack.emulator.uid,
    (exch, tsym) => instrumentToken(exch, tsym),
    (exch, tsym) => emulator.state.ltps.get(ltpKey(exch, tsym)),
  ) as Record<string, string>[];
  return new Map(records.map((r) => [r.tsym!, r]));
};
const card = () => page.locator('section[aria-labelledby="positions-title"]');
const line = (tsym: string) => card().locator(`li[data-position="NSE:${tsym}:C"]`);
const text = async (tsym: string, field: string) =>
  ((await line(tsym).locator(`[data-${field}]`).textContent()) ?? '').replace(/\s+/g, ' ').trim();
const phoneWidth = async () => {
  await page.setViewportSize({ width: 360, height: 740 });
  const width = await page.evaluate<number>('document.documentElement.scrollWidth');
  await page.setViewportSize({ width: 1200, height: 900 });
  return width;
};

describe("Today's positions", () => {
  it('an empty day says so in words', async () => {
    await open('today');
    await eventually(() => card().locator('[data-positions="none"]').textContent()).toBe(
      'No positions today: nothing has filled at the broker.',
    );
    expect(await page.locator('#positions-title').textContent()).toBe('Positions (0 open)');
    expect(await axeViolations(page)).toEqual([]);
  });

  it("after fills: each position with the emulator's numbers and the day's totals, read once", async () => {
    await control.ltp('NSE', 'INFY-EQ', 1500);
    await control.ltp('NSE', 'WIPRO-EQ', 1500);
    await place({ tsym: 'INFY-EQ', qty: 5 });
    await place({ tsym: 'WIPRO-EQ', qty: 2, trantype: 'S', ai_t: 'LTP_A_O', d: '1505' });
    await control.ltp('NSE', 'INFY-EQ', 1489); // the buy's trigger met: 5 bought at 1489
    await control.ltp('NSE', 'WIPRO-EQ', 1510); // the sell's trigger met: 2 sold at 1510
    await control.ltp('NSE', 'INFY-EQ', 1495);
    await control.ltp('NSE', 'WIPRO-EQ', 1520);
    const book = brokerBook();
    expect(book.get('INFY-EQ')).toMatchObject({ netqty: '5', netavgprc: '1489.00', urmtom: '30.00', rpnl: '0.00' });
    expect(book.get('WIPRO-EQ')).toMatchObject({ netqty: '-2', netavgprc: '1510.00', urmtom: '-20.00' });

    const reads: string[] = [];
    page.on('request', (request: Request) => {
      if (new URL(request.url()).pathname === '/positions') reads.push(request.method());
    });
    await open('today');
    await eventually(() => page.locator('#positions-title').textContent()).toBe('Positions (2 open)');
    expect(await text('INFY-EQ', 'net-qty')).toBe('Long 5');
    expect(await text('INFY-EQ', 'average')).toBe('at 1489.00');
    expect(await text('INFY-EQ', 'last')).toBe('last 1495.00');
    expect(await text('INFY-EQ', 'unrealised')).toBe('unrealised ₹30');
    expect(await text('INFY-EQ', 'realised')).toBe('realised ₹0');
    expect(await line('INFY-EQ').locator('[data-unrealised]').getAttribute('class')).toBe('good');
    expect(await text('WIPRO-EQ', 'net-qty')).toBe('Short 2');
    expect(await text('WIPRO-EQ', 'average')).toBe('at 1510.00');
    expect(await text('WIPRO-EQ', 'unrealised')).toBe('unrealised -₹20');
    expect(await line('WIPRO-EQ').locator('[data-unrealised]').getAttribute('class')).toBe('bad');
    expect(await line('WIPRO-EQ').getByRole('link', { name: 'WIPRO-EQ' }).getAttribute('href')).toBe(
      '#/chart?exch=NSE&tsym=WIPRO-EQ',
    );
    // The day's totals: the book's sums.
    expect(await card().locator('[data-total="realised"]').textContent()).toBe('₹0');
    expect(await card().locator('[data-total="unrealised"]').textContent()).toBe('₹10');
    expect(await card().locator('[data-total="total"]').textContent()).toBe('₹10');
    await page.waitForLoadState('networkidle');
    expect(reads).toEqual(['GET']);
    expect(await axeViolations(page)).toEqual([]);
    expect(await phoneWidth()).toBeLessThanOrEqual(360);
  });

  it('a position sold back in part shows what it realised; a lakh grouped the Indian way', async () => {
    await control.ltp('NSE', 'INFY-EQ', 1500);
    await place({ tsym: 'INFY-EQ', qty: 1000 });
    await control.ltp('NSE', 'INFY-EQ', 1489);
    await place({ tsym: 'INFY-EQ', qty: 400, trantype: 'S', ai_t: 'LTP_A_O', d: '1505' });
    await control.ltp('NSE', 'INFY-EQ', 1750);
    // 400 sold at 1750 against 1489: 1,04,400 realised; 600 left at 1750: 1,56,600 unrealised.
    expect(brokerBook().get('INFY-EQ')).toMatchObject({ netqty: '600', rpnl: '104400.00', urmtom: '156600.00' });
    await open('today');
    await eventually(() => text('INFY-EQ', 'realised')).toBe('realised ₹1,04,400');
    expect(await text('INFY-EQ', 'net-qty')).toBe('Long 600');
    expect(await text('INFY-EQ', 'unrealised')).toBe('unrealised ₹1,56,600');
    expect(await card().locator('[data-total="total"]').textContent()).toBe('₹2,61,000');
  });
});
