/**
 * `gtt coverage` and `gtt coverage-set` against the local stack (client/cli/main.ts in-process) and its emulator: an
 * empty day said in words with the settings; a long with no exit shows UNCOVERED with its whole quantity; an OCO for
 * its quantity makes it covered, the OCO listed; one stop more is flagged as over-cover. coverage-set writes the
 * settings `gtt coverage` then shows; bad input (no setting, a bad distance, --off with others) is a usage error and
 * changes nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

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
beforeEach(async () => {
  await emulatorControl(stack.emulator.url).reset();
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
/** The row of a symbol in the table, its cells split on the table's two-space gaps. */
const rowOf = (text: string, symbol: string) =>
  text
    .split('\n')
    .find((line) => line.startsWith(symbol))
    ?.split(/ {2,}/);
const ORDER = '--exch NSE --tsym INFY-EQ --product C --price-type LMT --retention DAY';

describe('gtt coverage', () => {
  it('an empty day in words; coverage-set writes the settings gtt coverage shows; bad input sends nothing', async () => {
    await ok(['coverage-set', '--off']);
    const empty = await ok(['coverage']);
    expect(empty.split('\n')[0]).toBe('no open positions: nothing to cover');
    expect(empty).toMatch(/^watch {7}off: no watcher run checks coverage/m);
    expect(empty).toMatch(/^autoCover {3}off$/m);

    const set = await ok(['coverage-set', '--auto-cover', '--target', '2%', '--stop', '10']);
    expect(set).toMatch(/^watch {7}on: each watcher run raises Position Unprotected/m);
    expect(set).toMatch(/^autoCover {3}on: .*target 2% and stop 10 from the average price$/m);
    const shown = await ok(['coverage']);
    expect(shown).toMatch(/^watch {7}on/m);
    expect(shown).toMatch(/^autoCover {3}on: .*target 2% and stop 10 /m);
    expect(shown).toMatch(/^changed {5}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+05:30/m);
    expect(JSON.parse(await ok(['coverage', '--json']))).toMatchObject({
      positions: [],
      settings: { watch: true, autoCover: { target: '2%', stop: '10' } },
    });

    for (const [args, words] of [
      [['coverage-set'], /give --watch on\|off, --auto-cover --target D --stop D, or --off/],
      [['coverage-set', '--auto-cover', '--target', '-5', '--stop', '10'], /--target must be points above 0/],
      [['coverage-set', '--auto-cover', '--target', '120%', '--stop', '10'], /below 100/],
      [['coverage-set', '--auto-cover', '--target', '5'], /needs both distances/],
      [['coverage-set', '--watch', 'yes'], /--watch must be on or off, got "yes"/],
      [['coverage-set', '--off', '--watch', 'on'], /--off turns coverage off: give it alone/],
      [['coverage-set', '--watch', 'on', '--stop', '3'], /give them with --auto-cover/],
    ] as const) {
      const bad = await gtt([...args]);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.err, args.join(' ')).toMatch(words);
    }
    // Nothing of the refused commands reached the gateway: the settings are as set.
    expect(JSON.parse(await ok(['coverage', '--json'])).settings).toMatchObject({
      watch: true,
      autoCover: { target: '2%', stop: '10' },
    });

    expect(await ok(['coverage-set', '--watch', 'on'])).toMatch(/^autoCover {3}off$/m);
    expect(await ok(['coverage-set', '--off'])).toMatch(/^watch {7}off/m);
  });

  it('an uncovered long shows UNCOVERED; an OCO for its quantity covers it; one stop more is over-cover', async () => {
    await ok(['ltp', 'INFY-EQ', '1500']);
    await ok(['place', ...ORDER.split(' '), '--qty', '5', '--side', 'B', '--price', '1500', '--trigger', '1490']);
    expect(await ok(['ltp', 'INFY-EQ', '1489'])).toContain('1 GTT order(s) fired');

    let text = await ok(['coverage']);
    expect(text.split('\n')[0]).toMatch(/^symbol +product +net qty +status +uncovered +exits$/);
    expect(rowOf(text, 'NSE:INFY-EQ')).toEqual(['NSE:INFY-EQ', 'C', '5 long', 'UNCOVERED', '5', '—']);
    expect(text).toContain('1 open: 0 covered, 0 partly, 0 target-only, 1 uncovered');

    const placed = await ok([
      'place-oco',
      ...'--exch NSE --tsym INFY-EQ --side S --qty 5 --product C'.split(' '),
      ...'--target-trigger 1600 --target-price 1600 --stop-trigger 1400 --stop-price 1400'.split(' '),
    ]);
    const ocoId = /\b(\d{6,})\b/.exec(placed)?.[1];
    expect(ocoId, placed).toBeDefined();
    text = await ok(['coverage']);
    expect(rowOf(text, 'NSE:INFY-EQ')).toEqual([
      'NSE:INFY-EQ',
      'C',
      '5 long',
      'covered',
      '0',
      `oco ${ocoId} x5 (target 1600, stop 1400)`,
    ]);
    expect(text).toContain('1 open: 1 covered, 0 partly, 0 target-only, 0 uncovered');
    expect(text).not.toContain('over-cover');

    // A stop for 2 more: the exits close 2 more than held, flagged, still covered.
    await ok(['place', ...ORDER.split(' '), '--qty', '2', '--side', 'S', '--price', '1450', '--trigger', '1450']);
    text = await ok(['coverage']);
    expect(rowOf(text, 'NSE:INFY-EQ')?.slice(3, 5)).toEqual(['covered, OVER by 2', '0']);
    expect(text).toContain(
      "over-cover: NSE:INFY-EQ's stops and OCOs close 2 more than the 5 long: a fired one would open a position the other way",
    );
  });
});
