/**
 * `gtt risk` and `gtt risk-set` against the local stack (client/cli/main.ts in-process): no limits said in words;
 * risk-set without a limit refused before any call; a loss limit set, a fill marked down past it, one watcher run:
 * `gtt risk` says HIT with the P&L and the kill switch on in the mode chosen; `--off` clears the limits.
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
const ok = async (args: string[]) => {
  const r = await gtt(args);
  expect(r, `${args.join(' ')}: ${r.err}`).toMatchObject({ code: 0, err: '' });
  return r.out;
};

describe('gtt risk', () => {
  it('says no limits in words; risk-set needs a limit and sends nothing without one', async () => {
    const shown = await ok(['risk']);
    expect(shown).toMatch(/^limits {6}none set$/m);
    expect(shown).toMatch(/^today {7}\d{4}-\d\d-\d\d: clear$/m);
    const bad = await gtt(['risk-set', '--mode', 'cancel-all']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/give --loss RUPEES, --target RUPEES or both/);
    expect(await ok(['risk'])).toMatch(/none set/);
  });

  it('a loss past the limit at a watcher run: HIT with the P&L, the kill switch on in the mode chosen; --off clears', async () => {
    const control = emulatorControl(stack.emulator.url);
    const set = await ok(['risk-set', '--loss', '400', '--mode', 'cancel-all']);
    expect(set).toMatch(/^limits {6}loss ₹400\.00, then the kill switch cancel-all, positions left open \(set /m);
    await ok(['ltp', 'INFY-EQ', '1500']);
    await ok([
      'place',
      ...'--exch NSE --tsym INFY-EQ --product C --price-type LMT --retention DAY --side buy --qty 5'.split(' '),
      '--price',
      '1500',
      '--alert',
      'below',
      '--trigger',
      '1490',
    ]);
    await control.ltp('NSE', 'INFY-EQ', 1489);
    await control.ltp('NSE', 'INFY-EQ', 1400);
    await stack.watch();
    const shown = await ok(['risk']);
    // 5 bought at 1489, marked at 1400: -445.
    expect(shown).toMatch(/HIT at .*day loss limit \(-₹400\.00\) crossed at -₹445\.00 .*kill switch on \(cancel-all\)/);
    expect(await ok(['kill-switch', 'status'])).toMatch(/kill switch ON \(cancel-all\)/);
    await ok(['kill-switch', 'off']);
    expect(await ok(['risk-set', '--off'])).toMatch(/none set/);
  });
});
