/**
 * `npm start` loads the day's masters and option chains before it prints its ready lines: the first
 * `GET /options?underlying=NIFTY` right after them answers the chain, as a trader following the printed `Try:` line
 * does, never "no options in today's chain" while a refresh still runs behind the ready lines. Its ready lines say
 * what the refresh loaded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Started, startNpmStart } from '../support/processes.js';

let started: Started;
let api: string;

beforeAll(async () => {
  started = await startNpmStart();
  api = started.match[1]!;
});

afterAll(async () => {
  await started?.stop();
});

describe("npm start and the day's option chain", () => {
  it('the first GET /options after the ready lines answers the chain', async () => {
    const res = await fetch(`${api}/options?underlying=NIFTY`);
    const body = (await res.json()) as { expiry?: string; strikes?: { strike: number }[]; message?: string };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.strikes?.length).toBeGreaterThan(10);
    expect(started.output()).toMatch(/InstrumentRefresh\s+the day's masters and option chains: .*NFO \d+ rows/);
  });
});
