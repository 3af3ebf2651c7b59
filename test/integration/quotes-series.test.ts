/**
 * `GET /quotes/series` end to end over HTTP, the local API and its real handler against the emulator's `TPSeries`:
 * the bars of the price moves (oldest first, prices on the tick, times ISO UTC), folded into wider bars by `interval`;
 * a symbol with no moves answers no bars; bad input is refused with a 400 naming the field, before any broker call.
 * The emulator's clock is moved between prices so the moves fall in different minutes.
 */
import { describe, expect, it } from 'vitest';

import type { LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { useLocalStack } from '../support/local-stack-fixture.js';

// The emulator's clock: the machine's plus an offset the tests move in whole minutes.
let offsetMs = 0;
let stack: LocalStack;
let control: EmulatorControl;
useLocalStack({ emulatorNow: () => new Date(Date.now() + offsetMs) }, (s, c) => {
  stack = s;
  control = c;
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions on arbitrary JSON
const series = async (query: string): Promise<{ status: number; body: Record<string, any> }> => {
  const res = await fetch(`${stack.api.url}/quotes/series${query}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const brokerCalls = async () => (await control.requests()).map((r) => r.operation);

/** A 5-minute boundary an hour ahead, so the moves below share no bar with anything earlier. */
const start = Math.ceil((Date.now() + 3_600_000) / 300_000) * 300_000;
const at = (minute: number) => {
  offsetMs = start + minute * 60_000 + 5_000 - Date.now();
};
const span = `&from=${new Date(start - 600_000).toISOString()}&to=${new Date(start + 900_000).toISOString()}`;

describe('GET /quotes/series', () => {
  it('answers the bars of the moves, oldest first, and folds them into wider bars', async () => {
    at(0);
    await control.ltp('NSE', 'M&M-EQ', 3000);
    await control.ltp('NSE', 'M&M-EQ', 3010.5);
    await control.ltp('NSE', 'M&M-EQ', 2995);
    at(1);
    await control.ltp('NSE', 'M&M-EQ', 3002.25);
    at(6);
    await control.ltp('NSE', 'M&M-EQ', 3020);
    await control.ltp('NSE', 'M&M-EQ', 3015);

    const one = await series(`?exch=NSE&tsym=M%26M-EQ&interval=1${span}`);
    expect(one.status).toBe(200);
    const minute = (m: number) => new Date(start + m * 60_000).toISOString();
    expect(one.body).toEqual({
      exch: 'NSE',
      tsym: 'M&M-EQ',
      interval: 1,
      bars: [
        { time: minute(0), open: '3000.00', high: '3010.50', low: '2995.00', close: '2995.00', volume: 3 },
        { time: minute(1), open: '3002.25', high: '3002.25', low: '3002.25', close: '3002.25', volume: 1 },
        { time: minute(6), open: '3020.00', high: '3020.00', low: '3015.00', close: '3015.00', volume: 2 },
      ],
    });
    const sent = (await control.requests()).filter((r) => r.operation === 'TPSeries');
    expect(sent.at(-1)?.jData).toMatchObject({
      exch: 'NSE',
      st: String((start - 600_000) / 1_000),
      et: String((start + 900_000) / 1_000),
      intrv: '1',
    });

    const five = await series(`?exch=NSE&tsym=M%26M-EQ&interval=5${span}`);
    expect(five.status).toBe(200);
    expect(five.body.bars).toEqual([
      { time: minute(0), open: '3000.00', high: '3010.50', low: '2995.00', close: '3002.25', volume: 4 },
      { time: minute(5), open: '3020.00', high: '3020.00', low: '3015.00', close: '3015.00', volume: 2 },
    ]);
  });

  it('a symbol with no moves has no bars', async () => {
    const { status, body } = await series('?exch=NSE&tsym=SBIN-EQ');
    expect(status).toBe(200);
    expect(body).toEqual({ exch: 'NSE', tsym: 'SBIN-EQ', interval: 1, bars: [] });
  });

  it.each([
    ['?exch=NSE', 'tsym is required'],
    ['?exch=NSE&tsym=SBIN-EQ&interval=2', 'interval must be one of 1, 3, 5, 10, 15, 30, 60, 120, 240'],
    ['?exch=NSE&tsym=SBIN-EQ&interval=day', 'interval must be one of'],
    ['?exch=NSE&tsym=SBIN-EQ&from=2026-12-07T10:00:00Z&to=2026-12-07T09:00:00Z', 'from must not be after to'],
    ['?exch=NSE&tsym=SBIN-EQ&from=yesterday', 'from must be an ISO time'],
    ['?exch=NSE&tsym=SBIN-EQ&intrv=5', 'intrv'],
  ])('refuses %s with a 400 naming the field, and calls no broker', async (query, problem) => {
    await control.clearRequests();
    const { status, body } = await series(query);
    expect(status).toBe(400);
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.message).toContain(problem);
    expect(await brokerCalls()).toEqual([]);
  });
});
