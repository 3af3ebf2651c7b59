/**
 * A mistyped flag is a usage error that names every unknown flag at once with the closest flag of the command at
 * hand, prints that command's usage and sends nothing (exit 2). A loopback server counts what reaches it.
 */
import http from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { closest, editDistance } from '../../client/cli/suggest.js';
import { listenOnLoopback } from '../../local/loopback.js';
import { CLI_ORDER } from '../support/cli-orders.js';

let requests = 0;
let api: Awaited<ReturnType<typeof listenOnLoopback>>;

beforeAll(async () => {
  api = await listenOnLoopback(
    http.createServer((_req, res) => {
      requests++;
      res.writeHead(500, { 'content-type': 'application/json' }).end('{}');
    }),
  );
});
afterAll(async () => {
  await api?.close();
});

const run = async (args: string[]) => {
  const err: string[] = [];
  const code = await main(
    [...args, '--url', api.url, '--no-sign'],
    { GTT_API_URL: '' },
    {
      out: () => undefined,
      err: (t) => err.push(t),
    },
  );
  return { code, err: err.join('\n') };
};

/** The order's flags without `names` (and their values). */
const without = (...names: string[]) =>
  CLI_ORDER.filter((token, i) => !names.includes(token) && !names.includes(CLI_ORDER[i - 1] ?? ''));

describe('unknown flags', () => {
  it('--tirgger 1490 --qyt 5: both named with the flag meant, the place usage, exit 2, nothing sent', async () => {
    const before = requests;
    const result = await run(['place', ...without('--trigger', '--qty'), '--tirgger', '1490', '--qyt', '5']);
    expect(result.code).toBe(2);
    const [problems, hint, ...more] = result.err.split('\n');
    expect(more).toEqual([]);
    // The flags they were meant to be are not reported missing as well.
    expect(problems).toBe('unknown flags: --tirgger (did you mean --trigger?), --qyt (did you mean --qty?)');
    expect(hint).toMatch(/^usage: npm run gtt -- place --exch --tsym --qty .*--trigger/);
    expect(requests).toBe(before);
  });

  it('named with everything else that is wrong, on one line', async () => {
    const result = await run([
      'place',
      ...without('--side', '--price', '--qty'),
      '--prise',
      '1500',
      '--xyzzy',
      '--qty',
      '0',
    ]);
    expect(result.code).toBe(2);
    expect(result.err.split('\n')[0]).toBe(
      'unknown flags: --prise (did you mean --price?), --xyzzy; missing --side; --qty must be a positive whole number, got "0"',
    );
  });

  it('wire and trader names point at the flag (--quantity, --prc, --symbol), and = values are taken too', async () => {
    const result = await run([
      'place',
      ...without('--qty', '--price', '--tsym'),
      '--quantity=5',
      '--prc',
      '1',
      '--symbol',
      'X',
    ]);
    expect(result.err.split('\n')[0]).toBe(
      'unknown flags: --quantity (did you mean --qty?), --prc (did you mean --price?), --symbol (did you mean --tsym?)',
    );
  });

  it("the closest flag is the command's own: list's usage for `list --jsn`, and a switch keeps the command", async () => {
    const result = await run(['--jsn', 'list']);
    expect(result.code).toBe(2);
    const [problems, hint] = result.err.split('\n');
    expect(problems).toBe('unknown flag: --jsn (did you mean --json?)');
    expect(hint).toMatch(/^usage: npm run gtt -- list /);
  });

  it('an unknown command is named with the closest command, beside the unknown flags', async () => {
    const result = await run(['plac', '--qyt', '1']);
    expect(result.code).toBe(2);
    expect(result.err.split('\n')[0]).toBe(
      'unknown flag: --qyt (did you mean --qty?); unknown command "plac" (did you mean place?)',
    );
  });

  it('a word far from every flag gets no guess', () => {
    expect(closest('xyzzy', ['qty', 'price', 'trigger'])).toBeUndefined();
    expect(editDistance('qyt', 'qty')).toBe(1);
    expect(editDistance('tirgger', 'trigger')).toBe(1);
  });
});
