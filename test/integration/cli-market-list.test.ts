/**
 * The market beside every order, through the command line (client/cli/main.ts in-process) against the local stack
 * and its emulator: `list` shows each symbol's last price and the trigger's distance from it (points, %) beside the
 * tag, one quote per distinct symbol; a quote that fails or names another instrument shows "—" and the list still
 * prints; a quote for another instrument is answered by the gateway with no price and why (`priceUnavailable`), and
 * refuses the --alert default; `triggered` is
 * newest first by the time each order fired, in at most 120 columns. The quoting function reads the broker through
 * a proxy that can make GetQuotes answer for another instrument (test/support/quote-swap-proxy.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { main } from '../../client/cli.js';
import { EXIT_CODES } from '../../client/exit-codes.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { CLI_OCO, CLI_ORDER } from '../support/cli-orders.js';
import { emulatorControl } from '../support/emulator-control.js';
import { type QuoteSwapProxy, startQuoteSwapProxy } from '../support/quote-swap-proxy.js';

let stack: LocalStack;
let proxy: QuoteSwapProxy;

beforeAll(async () => {
  proxy = await startQuoteSwapProxy();
  stack = await startLocalStack({ overrides: { GetQuote: { BROKER_BASE_URL: proxy.url } } });
  proxy.target = stack.emulator.url;
});
afterAll(async () => {
  await stack?.close();
  await proxy?.close();
});
beforeEach(async () => {
  proxy.swap = undefined;
  await emulatorControl(stack.emulator.url).reset();
});

const gtt = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args, '--url', stack.api.url], {}, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
};

/** The table's rows by al_id, each cell by its column. */
const rowsOf = (text: string): Map<string, Record<string, string>> => {
  const [header, rule, ...rows] = text.split('\n');
  // Columns start where the rule's dashes do.
  const starts = [...rule!.matchAll(/-+/g)].map((m) => m.index);
  const cells = (line: string) => starts.map((at, i) => line.slice(at, starts[i + 1]).trim());
  const names = cells(header!);
  return new Map(
    rows
      .filter((line) => /^\d/.test(line))
      .map((line) => {
        const row = Object.fromEntries(cells(line).map((cell, i) => [names[i]!, cell]));
        return [row.al_id!, row];
      }),
  );
};

const placedId = (text: string): string => /al_id (\S+)/.exec(text)?.[1] ?? '';

describe('gtt list with the market beside each order', () => {
  it("shows each symbol's last price, the distance to the trigger in points and %, and the tag", async () => {
    const control = emulatorControl(stack.emulator.url);
    await control.ltp('NSE', 'M&M-EQ', 1500);
    await control.ltp('NSE', 'INFY-EQ', 1500);
    const single = placedId((await gtt(['place', ...CLI_ORDER, '--tag', 'dip-buy'])).out);
    const oco = placedId((await gtt(['place-oco', ...CLI_OCO])).out);
    const list = await gtt(['list']);
    expect(list).toMatchObject({ code: 0, err: '' });
    const rows = rowsOf(list.out);
    expect(list.out.split('\n')[0]).toMatch(/trigger\(s\) +last +to trigger +tag$/);
    expect(rows.get(single)).toMatchObject({
      tsym: 'M&M-EQ',
      last: '1500',
      'to trigger': '-10.00 -0.67%',
      tag: 'dip-buy',
    });
    expect(rows.get(oco)).toMatchObject({
      tsym: 'INFY-EQ',
      last: '1500',
      'to trigger': '+100.00 +6.67% / -100.00 -6.67%',
      tag: 'exit-infy',
    });
    // --json is the API's list alone.
    const json = JSON.parse((await gtt(['list', '--json'])).out) as Record<string, unknown>;
    expect(Object.keys(json)).not.toContain('market');
  });

  it('measures a non-LTP alert against the figure it watches, naming it, or says — and why; never the last price', async () => {
    const control = emulatorControl(stack.emulator.url);
    await control.ltp('NSE', 'M&M-EQ', 1500, 1480, { atp: 1512.5 });
    const order = (alert: string, trigger: string) =>
      gtt(['place', ...CLI_ORDER.slice(0, -4), '--alert', alert, `--trigger=${trigger}`]).then((r) => placedId(r.out));
    const atp = await order('atp-below', '1490');
    const change = await order('change-below', '-2');
    const volume = await order('volume-above', '250000');
    const rows = rowsOf((await gtt(['list'])).out);
    expect(rows.get(atp)).toMatchObject({ last: '1500', 'to trigger': '-22.50 -1.49% atp' });
    // The change from the close is +1.35%: -2 lies 3.35 percentage points below it.
    expect(rows.get(change)).toMatchObject({ last: '1500', 'to trigger': '-3.35pt chg' });
    expect(rows.get(volume)).toMatchObject({ last: '1500', 'to trigger': '— no vol in quote' });
  });

  it('reads one quote per distinct symbol, however many orders it has', async () => {
    await emulatorControl(stack.emulator.url).ltp('NSE', 'M&M-EQ', 1500);
    for (const qty of ['1', '2', '3']) await gtt(['place', ...CLI_ORDER.map((w) => (w === '1' ? qty : w))]);
    await emulatorControl(stack.emulator.url).clearRequests();
    const list = await gtt(['list']);
    expect(list.code).toBe(0);
    expect(rowsOf(list.out).size).toBe(3);
    const quotes = (await emulatorControl(stack.emulator.url).requests()).filter((r) =>
      JSON.stringify(r).includes('GetQuotes'),
    );
    expect(quotes).toHaveLength(1);
  });

  it('a symbol whose quote fails shows — and the list still prints', async () => {
    await gtt(['place', ...CLI_ORDER]);
    await emulatorControl(stack.emulator.url).fault({ operation: 'GetQuotes', kind: 'http5xx', times: 50 });
    const list = await gtt(['list']);
    expect(list).toMatchObject({ code: 0, err: '' });
    const [row] = [...rowsOf(list.out).values()];
    expect(row).toMatchObject({ tsym: 'M&M-EQ', last: '—', 'to trigger': '—' });
  });

  it("a quote that names another instrument is never shown as this one's price: —, and `quote` says why", async () => {
    const control = emulatorControl(stack.emulator.url);
    await control.ltp('NSE', 'M&M-EQ', 1500);
    await control.ltp('NSE', 'INFY-EQ', 1700);
    const infy = JSON.parse((await gtt(['quote', 'INFY-EQ', '--json'])).out) as { token: string };
    await gtt(['place', ...CLI_ORDER]);
    await gtt(['place-oco', ...CLI_OCO]);
    proxy.swap = { from: 'M&M-EQ', to: { tsym: 'INFY-EQ', token: infy.token, lp: '1700' } };

    const list = await gtt(['list']);
    expect(list).toMatchObject({ code: 0, err: '' });
    const bySymbol = new Map([...rowsOf(list.out).values()].map((row) => [row.tsym!, row]));
    expect(bySymbol.get('M&M-EQ')).toMatchObject({ last: '—', 'to trigger': '—' });
    expect(bySymbol.get('INFY-EQ')).toMatchObject({ last: '1700' });
    expect(proxy.swapped).toBeGreaterThan(0);

    const quote = await gtt(['quote', 'M&M-EQ']);
    expect(quote.code).toBe(0);
    expect(quote.out).not.toContain('1700');
    expect(quote.out).toContain(
      `last unavailable: the broker's quote for NSE:M&M-EQ named another instrument, NSE:INFY-EQ (token ${infy.token})`,
    );
  });

  it('the --alert default refuses a quote for another instrument: nothing is sent', async () => {
    const control = emulatorControl(stack.emulator.url);
    await control.ltp('NSE', 'M&M-EQ', 1500);
    await control.ltp('NSE', 'INFY-EQ', 1400);
    const infy = JSON.parse((await gtt(['quote', 'INFY-EQ', '--json'])).out) as { token: string };
    proxy.swap = { from: 'M&M-EQ', to: { tsym: 'INFY-EQ', token: infy.token, lp: '1400' } };
    const withoutAlert = CLI_ORDER.filter((w, i, all) => w !== '--alert' && all[i - 1] !== '--alert');
    const placed = await gtt(['place', ...withoutAlert]);
    expect(placed.code).toBe(EXIT_CODES.USAGE);
    expect(placed.err).toMatch(
      /^--alert left out, and the quote of NSE:M&M-EQ cannot be trusted \(the broker's quote for NSE:M&M-EQ named another instrument/,
    );
    expect(placed.err).toContain('nothing was sent. Give --alert below or --alert above');
    expect(await control.orders(stack.emulator.uid)).toEqual([]);
    // With --alert given, no quote is read and the order goes.
    expect((await gtt(['place', ...CLI_ORDER])).code).toBe(0);
  });
});

describe('gtt triggered', () => {
  it('is newest first by the time each fired, not by id, and fits 120 columns', async () => {
    const control = emulatorControl(stack.emulator.url);
    const buy = (tsym: string) => [
      'place',
      ...CLI_ORDER.map((w) => (w === 'M&M-EQ' ? tsym : w)),
      '--tag',
      `t-${tsym.replace('&', '')}`,
    ];
    const ids: Record<string, string> = {};
    for (const tsym of ['M&M-EQ', 'SBIN-EQ', 'TCS-EQ']) ids[tsym] = placedId((await gtt(buy(tsym))).out);
    // Fired out of id order (TCS, then M&M, then SBIN), each in a second of its own (the broker's time is to the second).
    for (const tsym of ['TCS-EQ', 'M&M-EQ', 'SBIN-EQ']) {
      const second = Math.floor(Date.now() / 1000);
      await vi.waitFor(() => expect(Math.floor(Date.now() / 1000)).toBeGreaterThan(second), { timeout: 5_000 });
      expect((await control.ltp('NSE', tsym, 1480)).fired).toHaveLength(1);
    }
    const run = await gtt(['triggered']);
    expect(run).toMatchObject({ code: 0, err: '' });
    const lines = run.out.split('\n');
    expect(lines[0]).toMatch(/^fired \(IST\) +al_id +tsym +side +qty +trigger +tag +order$/);
    const order = lines.slice(2).map((line) => line.split(/\s{2,}/)[1]);
    expect(order).toEqual([ids['SBIN-EQ'], ids['M&M-EQ'], ids['TCS-EQ']]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(120);
    expect(lines[2]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}\d{14} {2}SBIN-EQ +B +1 +1490 +t-SBIN-EQ/);
  });
});
