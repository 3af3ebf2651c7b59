/**
 * `gtt series <tsym>` against the local stack (client/cli/main.ts in-process): the day's bars of the moves made with
 * `gtt ltp`, one line a bar in India time, and with `--json` the route's answer; a wrong `--interval` is refused
 * naming it, with nothing sent to the broker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startLocalStack();
});
afterAll(async () => {
  await stack.close();
});

const gtt = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args, '--url', stack.api.url], {}, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
};

interface Bar {
  time: string;
  open: string;
  high: string;
  low: string;
  close: string;
}

describe('gtt series', () => {
  it("prints the day's bars of the moves, oldest first", async () => {
    for (const price of ['1500', '1512.5', '1490', '1504'])
      expect(await gtt(['ltp', 'M&M-EQ', price])).toMatchObject({ code: 0 });

    const json = await gtt(['series', 'M&M-EQ', '--json']);
    expect(json).toMatchObject({ code: 0, err: '' });
    const bars = (JSON.parse(json.out) as { interval: number; bars: Bar[] }).bars;
    // The four moves fall in one minute, or two when a minute turns between them.
    expect(bars.length).toBeGreaterThanOrEqual(1);
    expect(bars[0]!.open).toBe('1500.00');
    expect(bars.at(-1)!.close).toBe('1504.00');
    expect(Math.max(...bars.map((b) => Number(b.high)))).toBe(1512.5);
    expect(Math.min(...bars.map((b) => Number(b.low)))).toBe(1490);

    const text = await gtt(['series', 'M&M-EQ', '--interval', '5']);
    expect(text).toMatchObject({ code: 0, err: '' });
    expect(text.out).toMatch(/^NSE:M&M-EQ {2}5-minute bars \(India time\):$/m);
    expect(text.out).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d {2}O 1500\.00 {2}H \d+\.\d\d {2}L \d+\.\d\d {2}C \d+\.\d\d {2}V \d+$/m,
    );
  });

  it('a wrong --interval is refused naming it, and nothing is sent to the broker', async () => {
    const control = emulatorControl(stack.emulator.url);
    await control.clearRequests();
    const wrong = await gtt(['series', 'M&M-EQ', '--interval', '7']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.err).toContain('interval must be one of 1, 3, 5, 10, 15, 30, 60, 120, 240');
    expect((await control.requests()).map((r) => r.operation)).toEqual([]);
  });
});
