/**
 * `GET /quotes?exch=&tsym=` end to end over HTTP, the local API and its real handler against the emulator: the last
 * traded price, today's band, the instrument's tick and lot (an index future's lot is the exchange's); a listed
 * symbol with no price yet still gets its rules; input that is not strictly right is refused with a clear 400
 * before any broker call; an unlisted symbol is refused naming the closest listed one. A GetQuotes reply naming
 * another instrument (Shoonya's, now and then: the emulator's `otherInstrument` fault) is never used: the quote
 * answers its rules without `lp`, `priceUnavailable` saying why (issue 58, item 5).
 */
import { describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { indexContract } from '../../emulator/state/symbols.js';
import type { LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { useLocalStack } from '../support/local-stack-fixture.js';

let stack: LocalStack;
let control: EmulatorControl;
useLocalStack({}, (s, c) => {
  stack = s;
  control = c;
});

const quote = async (query: string) => {
  const res = await fetch(`${stack.api.url}/quotes${query}`);
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions on arbitrary JSON
};
const brokerCalls = async () => (await control.requests()).map((r) => r.operation);

describe('GET /quotes', () => {
  it("answers the last traded price, today's band, the day's open, high and low, the previous close, tick and lot", async () => {
    await control.ltp('NSE', 'SBIN-EQ', 805, 800);
    await control.ltp('NSE', 'SBIN-EQ', 798.35);
    await control.ltp('NSE', 'SBIN-EQ', 801.4);
    const { status, body } = await quote('?exch=NSE&tsym=SBIN-EQ');
    expect(status).toBe(200);
    expect(body).toEqual({
      exch: 'NSE',
      tsym: 'SBIN-EQ',
      token: expect.stringMatching(/^\d+$/),
      lp: '801.4',
      band: { lc: '720.00', uc: '880.00' },
      day: { open: '805', high: '805', low: '798.35', close: '800' },
      // The emulator's 52-week range, seeded 25% either side of the first price (805): GetQuotes wk52_h, wk52_l.
      figures: { changePercent: ((1.4 / 800) * 100).toFixed(2), week52High: '1006.25', week52Low: '603.75' },
      tick: '0.05',
      lot: 1,
      precision: 2,
      quotedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it('answers the figures the other alert types watch: average price, OI, total OI, volume, the 52-week range', async () => {
    const tsym = indexContract('NIFTY', new Date(Date.now() + 7 * 86_400_000), 'F');
    const figures = { atp: 25040.5, oi: 150020, toi: 9000000, volume: 0, week52High: 26500, week52Low: 21000 };
    await control.ltp('NFO', tsym, 25100, 25000, figures);
    const { status, body } = await quote(`?exch=NFO&tsym=${tsym}`);
    expect(status).toBe(200);
    expect(body.figures).toEqual({
      changePercent: '0.40',
      averagePrice: '25040.5',
      openInterest: '150020',
      totalOpenInterest: '9000000',
      volume: '0',
      week52High: '26500.00',
      week52Low: '21000.00',
    });
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
    expect(await main(['quote', tsym, '--exch', 'NFO', '--url', stack.api.url], {}, io)).toBe(0);
    expect(out.join('\n')).toContain(
      'watched   change 0.40%  atp 25040.5  oi 150020  total-oi 9000000  volume 0  52-week high 26500.00  52-week low 21000.00\n',
    );
    // A price above the 52-week high is the new one.
    await control.ltp('NFO', tsym, 26550);
    expect((await quote(`?exch=NFO&tsym=${tsym}`)).body.figures).toMatchObject({
      week52High: '26550.00',
      week52Low: '21000.00',
    });
  });

  it("an index future's lot is the exchange's; with no price yet the rules still come, without lp", async () => {
    const tsym = indexContract('NIFTY', new Date(Date.now() + 7 * 86_400_000), 'F');
    const { status, body } = await quote(`?exch=NFO&tsym=${tsym}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ exch: 'NFO', tsym, tick: '0.05', lot: 65 });
    expect(body).not.toHaveProperty('lp');
  });

  it('a reply naming another instrument is not used: no lp, no band of its, and priceUnavailable says why', async () => {
    await control.ltp('NSE', 'TCS-EQ', 3500.5, 3500);
    expect((await quote('?exch=NSE&tsym=TCS-EQ')).body.lp).toBe('3500.5');
    await control.fault({ operation: 'GetQuotes', kind: 'otherInstrument', times: 2 });
    const { status, body } = await quote('?exch=NSE&tsym=TCS-EQ');
    await control.clearFaults();
    expect(status).toBe(200);
    expect(body).toMatchObject({ exch: 'NSE', tsym: 'TCS-EQ', token: expect.stringMatching(/^\d+$/), tick: '0.05' });
    expect(body).not.toHaveProperty('lp');
    expect(body.token).not.toBe('26000');
    expect(body.priceUnavailable).toBe(
      "the broker's quote for NSE:TCS-EQ named another instrument, NSE:Nifty 50 (token 26000); it was not used (ask again)",
    );
    // gtt quote says so too.
    await control.fault({ operation: 'GetQuotes', kind: 'otherInstrument', times: 2 });
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
    expect(await main(['quote', 'TCS-EQ', '--url', stack.api.url], {}, io)).toBe(0);
    await control.clearFaults();
    expect(out.join('\n')).toContain(
      "NSE:TCS-EQ  last unavailable: the broker's quote for NSE:TCS-EQ named another instrument, NSE:Nifty 50",
    );
    // Asked again, the broker answers for the instrument asked: its price comes back.
    expect((await quote('?exch=NSE&tsym=TCS-EQ')).body).toMatchObject({ lp: '3500.5' });
  });

  it('the emulator takes an otherInstrument fault for GetQuotes only', async () => {
    await expect(control.fault({ operation: 'PlaceGTTOrder', kind: 'otherInstrument' })).rejects.toThrow(
      /otherInstrument fault is for GetQuotes only/,
    );
  });

  it.each([
    ['', ['exch is required', 'tsym is required']],
    ['?tsym=SBIN-EQ', ['exch is required']],
    ['?exch=NSE', ['tsym is required']],
    ['?exch=XYZ&tsym=SBIN-EQ', ['exch must be one of NSE, NFO, BSE, MCX, BFO, CDS, BCD, NCX, NCOM, BSTAR']],
    ['?exch=NSE&tsym=', ['tsym must not be empty']],
    ['?exch=NSE&tsym=SBIN-EQ&qty=1', ['qty']],
  ])('refuses %s with a 400 naming the problem, and calls no broker', async (query, problems) => {
    await control.clearRequests();
    const { status, body } = await quote(query);
    expect(status).toBe(400);
    expect(body.error.code).toBe('VALIDATION_FAILED');
    for (const problem of problems) expect(body.error.message).toContain(problem);
    expect(await brokerCalls()).toEqual([]);
  });

  it('an unlisted symbol is refused naming the closest listed one, and no quote is read', async () => {
    await control.clearRequests();
    const { status, body } = await quote('?exch=NSE&tsym=MM-EQ');
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'VALIDATION_FAILED', outcome: 'not_executed' });
    expect(body.error.message).toContain('Did you mean M&M-EQ?');
    expect(await brokerCalls()).not.toContain('GetQuotes');
  });
});
