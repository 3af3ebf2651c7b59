/**
 * `GET /options` through the local API (the quote function's stack, functions/orders/gateway/quote-stack.ts): the
 * chain of a copy filled by the refresh's own code from a master text of the test's, then from the emulator's master
 * by the stack's own InstrumentRefresh run; the index's ltp and ATM, the expiry picks, and bad input refused with the
 * way forward and no broker write; SENSEX's from the emulator's BFO master; and `gtt chain`
 * (client/cli/commands/chain.ts) printing it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { indiaDay } from '../../functions/base/schemas/india-time.js';
import { refreshInstruments } from '../../functions/instruments/refresh.js';
import { InstrumentCopy } from '../../functions/orders/instruments/copy.js';
import { LOCAL_INSTRUMENTS_TABLE } from '../../local/dynamodb.js';
import { lambdaContext } from '../../local/lambda-context.js';
import type { LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { optionMaster } from '../support/option-master.js';

let stack: LocalStack;
let control: EmulatorControl;
let server: Server;
let master = '';

useLocalStack({}, (s, c) => {
  stack = s;
  control = c;
});
beforeAll(async () => {
  server = createServer((_req, res) => res.end(master));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise((resolve) => server?.close(resolve)));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions on arbitrary JSON
const get = async (path: string): Promise<{ status: number; body: Record<string, any> }> => {
  const res = await fetch(`${stack.api.url}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** India's date `days` from today. */
const dayAfter = (days: number): string => indiaDay(Date.now() + days * 86_400_000);
/** The 21st of next month, India's calendar: always in the next month. */
const nextMonth = (): string => {
  const today = indiaDay(Date.now());
  const d = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)), 21));
  return d.toISOString().slice(0, 10);
};

/** The test's own master, loaded into the stack's copy by the refresh's code (no symbol in use: no broker call). */
const loadOwnMaster = async (expiries: string[]) => {
  master = optionMaster(expiries, { from: 24_000, to: 25_000, step: 50 });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/NFO_symbols.txt`;
  const run = await refreshInstruments({
    copy: new InstrumentCopy({ tableName: LOCAL_INSTRUMENTS_TABLE, endpoint: stack.dynamo.url }),
    broker: {} as never,
    exchanges: ['NFO'],
    masterUrl: () => url,
    symbolsInUse: () => Promise.resolve([]),
    timeoutMs: 5_000,
  });
  expect(run.masters[0]).toMatchObject({ chains: { expiries: expiries.length + 1 } });
};

describe('GET /options', () => {
  it('answers the nearest expiry of a copy filled from a master text, with ltp and ATM from the index', async () => {
    const [near, week, month] = [dayAfter(2), dayAfter(9), nextMonth()];
    await loadOwnMaster([week, near, month]);
    await control.ltp('NSE', 'Nifty 50', 24_512);
    const { status, body } = await get('/options?underlying=nifty');
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      underlying: { name: 'NIFTY', exch: 'NSE', tsym: 'Nifty 50', token: '26000' },
      exch: 'NFO',
      expiries: [near, week, month].sort(),
      expiry: near,
      lot: 65,
      tick: '0.05',
      strikeStep: 50,
      atm: 24_500,
    });
    expect(Number(body.ltp)).toBe(24_512);
    expect(body.strikes).toHaveLength(21);
    const atm = body.strikes.find((s: { strike: number }) => s.strike === 24_500);
    expect(atm.CE.tsym).toMatch(/^NIFTY\d{2}[A-Z]{3}\d{2}C24500$/);
    expect(atm.PE.tsym).toMatch(/P24500$/);
    expect(atm.CE.token).toMatch(/^\d+$/);

    expect((await get(`/options?underlying=NIFTY&expiry=next-month`)).body.expiry).toBe(month);
    // Direct invocation: the quote function's `{action: "options"}`; its own quote payload is unchanged.
    const quoteFn = stack.handlers.get('GetQuote')!;
    const direct = (await quoteFn(
      { action: 'options', underlying: 'NIFTY', expiry: week },
      lambdaContext('GetQuote'),
    )) as {
      expiry: string;
    };
    expect(direct.expiry).toBe(week);
    expect(await quoteFn({ exch: 'NSE', tsym: 'INFY-EQ' }, lambdaContext('GetQuote'))).toMatchObject({
      tsym: 'INFY-EQ',
    });
    expect((await get(`/options?underlying=Nifty%2050&expiry=${week}`)).body.expiry).toBe(week);
  });

  it('bad input is a 400 with the way forward: the names, the listed expiries; nothing is sent', async () => {
    await loadOwnMaster([dayAfter(3)]);
    await control.clearRequests();
    const unknown = await get('/options?underlying=NIFTYY');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('NIFTY, BANKNIFTY, FINNIFTY, MIDCPNIFTY, SENSEX');
    expect((await get('/options')).status).toBe(400);
    const badDate = await get('/options?underlying=NIFTY&expiry=tomorrow');
    expect(badDate.status).toBe(400);
    expect(badDate.body.error.message).toContain('next-month');
    const unlisted = await get('/options?underlying=NIFTY&expiry=2031-01-07');
    expect(unlisted.status).toBe(400);
    expect(unlisted.body.error.message).toContain(`listed: ${dayAfter(3)}`);
    const noChain = await get('/options?underlying=SENSEX');
    expect(noChain.status).toBe(400);
    expect(noChain.body.error.message).toContain('InstrumentRefresh');
    expect((await control.requests()).filter((r) => r.operation && r.operation !== 'GetQuotes')).toEqual([]);
  });

  it('a quote that cannot be read leaves ltp and atm out with a note; the chain is still answered', async () => {
    await loadOwnMaster([dayAfter(4)]);
    await control.ltp('NSE', 'Nifty 50', 24_480);
    await control.fault({ operation: 'GetQuotes', kind: 'notOk', message: 'Session Expired-like refusal', times: 5 });
    const { status, body } = await get('/options?underlying=NIFTY');
    await control.clearFaults();
    expect(status).toBe(200);
    expect(body.strikes).toHaveLength(21);
    expect(body).not.toHaveProperty('atm');
    expect(body.note).toMatch(/Nifty 50/);
  });

  it("the stack's InstrumentRefresh loads the emulator's master: NIFTY's chain is listed", async () => {
    const res = await fetch(`${stack.api.url}/_local/run/InstrumentRefresh`, { method: 'POST' });
    expect(res.status).toBe(200);
    const { status, body } = await get('/options?underlying=NIFTY');
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.expiries.length).toBeGreaterThan(1);
    expect(body.strikes.length).toBeGreaterThan(10);
    expect(body.strikeStep).toBeGreaterThan(0);
  });

  it("SENSEX's chain is BFO's (the master's Symbol BSXOPT), SENSEX50's rows not in it; `gtt chain SENSEX` shows it", async () => {
    expect((await fetch(`${stack.api.url}/_local/run/InstrumentRefresh`, { method: 'POST' })).status).toBe(200);
    await control.ltp('BSE', 'SENSEX', 82_240);
    const { status, body } = await get('/options?underlying=sensex');
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      underlying: { name: 'SENSEX', exch: 'BSE', tsym: 'SENSEX', token: '1' },
      exch: 'BFO',
      lot: 20,
      tick: '0.05',
      strikeStep: 100,
      atm: 82_200,
    });
    expect(body.expiries).toHaveLength(3); // the monthlies: this month's (or the next) and two more
    expect(body.strikes).toHaveLength(81); // 78000 to 86000 by 100: no SENSEX50 strike among them
    for (const s of body.strikes as { strike: number; CE: { tsym: string }; PE: { tsym: string } }[]) {
      expect(s.CE.tsym).toMatch(new RegExp(`^SENSEX\\d{2}[A-Z]{3}${s.strike}CE$`));
      expect(s.PE.tsym).toMatch(new RegExp(`^SENSEX\\d{2}[A-Z]{3}${s.strike}PE$`));
    }
    const shown = await gtt(['chain', 'SENSEX', '--strikes', '1']);
    expect(shown, shown.err).toMatchObject({ code: 0, err: '' });
    expect(shown.out).toContain('lot 20  tick 0.05  strike step 100');
    expect(shown.out).toMatch(/^> SENSEX\w+82200CE +82200 +SENSEX\w+82200PE +ATM$/m);
  });

  it("a quote naming another instrument gives no ATM: the note says so (never BANKNIFTY's ATM from NIFTY's price)", async () => {
    expect((await fetch(`${stack.api.url}/_local/run/InstrumentRefresh`, { method: 'POST' })).status).toBe(200);
    await control.fault({ operation: 'GetQuotes', kind: 'otherInstrument', times: 3 });
    const { status, body } = await get('/options?underlying=BANKNIFTY');
    await control.clearFaults();
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.strikes.length).toBeGreaterThan(10);
    expect(body).not.toHaveProperty('atm');
    expect(body).not.toHaveProperty('ltp');
    expect(body.note).toMatch(/named another instrument, NSE:Nifty 50 \(token 26000\)/);
  });
});

const gtt = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args, '--url', stack.api.url], {}, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
};

describe('gtt chain', () => {
  it('prints the expiries, the lot, the step and N strikes either side of ATM, ATM marked', async () => {
    const [near, week] = [dayAfter(2), dayAfter(9)];
    await loadOwnMaster([near, week]);
    await control.ltp('NSE', 'Nifty 50', 24_512);
    const shown = await gtt(['chain', 'NIFTY', '--strikes', '2']);
    expect(shown, shown.err).toMatchObject({ code: 0, err: '' });
    expect(shown.out).toContain(`expiries  [${near}]  ${week}`);
    expect(shown.out).toContain(`expiry ${near}  lot 65  tick 0.05  strike step 50`);
    expect(shown.out).toMatch(/^price {5}24512(\.00)? {2}ATM 24500$/m);
    const rows = shown.out.split('\n').filter((line) => /NIFTY\w+C\d+ +\d+ +NIFTY/.test(line));
    expect(rows.map((line) => Number(line.trim().replace(/^> /, '').split(/ +/)[1]))).toEqual([
      24_400, 24_450, 24_500, 24_550, 24_600,
    ]);
    expect(rows[2]).toMatch(/^> NIFTY\w+C24500 +24500 +NIFTY\w+P24500 +ATM$/);
    expect(rows.filter((line) => line.startsWith('>'))).toHaveLength(1);

    const later = await gtt(['chain', 'nifty', '--expiry', week, '--json']);
    expect(later.code).toBe(0);
    expect(JSON.parse(later.out)).toMatchObject({ expiry: week, strikeStep: 50 });
  });

  it('a name that is not an index is refused with the names; a bad --strikes is named, nothing sent', async () => {
    const wrong = await gtt(['chain', 'NIFTI']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.err).toContain('NIFTY, BANKNIFTY, FINNIFTY, MIDCPNIFTY, SENSEX');
    await control.clearRequests();
    const bad = await gtt(['chain', 'NIFTY', '--strikes', 'many']);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('--strikes must be a positive whole number');
    expect(await control.requests()).toEqual([]);
  });
});
