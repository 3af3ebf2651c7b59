/**
 * The command line's argument rules (client/cli.ts `main`, in process): a single-value flag given twice is a usage
 * error (exit 2) before anything is sent, instead of the last one silently winning. A loopback server stands in for
 * the API and counts what reaches it.
 */
import http from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { cliAccepts, main, version } from '../../client/cli.js';
import { placeOrderInput } from '../../functions/base/schemas/input.js';
import { listenOnLoopback } from '../../local/loopback.js';
import { CLI_ORDER } from '../support/cli-orders.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

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

const ORDER = CLI_ORDER;

const run = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    [...args, '--url', api.url, '--no-sign'],
    { GTT_API_URL: '' },
    { out: (t) => out.push(t), err: (t) => err.push(t) },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
};

describe('repeated flags', () => {
  it.each([
    ['--qty', ['place', ...ORDER, '--qty', '2', '--key', 'k-1']],
    ['--price', ['place', ...ORDER, '--price', '1400', '--key', 'k-1']],
    ['--key', ['place', ...ORDER, '--key', 'k-1', '--key', 'k-2']],
    ['--url', ['list', '--url', 'http://127.0.0.1:1']],
    ['--dry-run', ['place', ...ORDER, '--dry-run', '--dry-run']],
  ])('%s given twice: usage error naming it, exit 2, nothing sent', async (flag, args) => {
    const before = requests;
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.err).toContain(`${flag} was given more than once`);
    expect(requests).toBe(before);
  });

  it('--path and --query may repeat (they are lists)', async () => {
    const before = requests;
    const result = await run(['call', 'GetPendingGTTOrder', '--query', 'exch=NSE', '--query', 'tsym=M%26M-EQ']);
    expect(result.err).not.toMatch(/more than once/);
    expect(requests).toBeGreaterThan(before);
  });
});

describe('every missing or bad flag at once, one line of usage', () => {
  it('names every missing flag and every bad number together, with one usage line; nothing sent', async () => {
    const before = requests;
    const result = await run([
      'place',
      '--exch',
      'NSE',
      '--qty',
      '-1',
      '--price',
      '1e3',
      '--trigger',
      'abc',
      '--timeout',
      '0',
    ]);
    expect(result.code).toBe(2);
    const [problems, hint, ...more] = result.err.split('\n');
    expect(more).toEqual([]);
    expect(problems).toBe(
      'missing --tsym, --product, --side; --timeout must be a positive whole number, got "0"; ' +
        '--qty must be a positive whole number, got "-1"; ' +
        '--price must be a plain non-negative decimal number (no sign, exponent or more than 8 decimals), got "1e3"; ' +
        '--trigger must be a plain non-negative decimal number (no sign, exponent or more than 8 decimals), got "abc"',
    );
    expect(hint).toMatch(/^usage: npm run gtt -- place --exch --tsym .* {3}\(--help: every command and flag\)$/);
    expect(requests).toBe(before);
  });

  it('--qty -1 and --qty=-1 get the quantity rule, not the argument parser\'s "ambiguous" message', async () => {
    for (const qty of [['--qty', '-1'], ['--qty=-1']]) {
      const result = await run([
        'place',
        ...ORDER.filter((_, i) => ORDER[i] !== '--qty' && ORDER[i - 1] !== '--qty'),
        ...qty,
      ]);
      expect(result.code).toBe(2);
      expect(result.err).toMatch(/^--qty must be a positive whole number, got "-1"\n/);
      expect(result.err).not.toMatch(/ambiguous/);
    }
  });

  it("place-oco: the legs' prices and triggers checked like the single order's", async () => {
    const result = await run([
      'place-oco',
      '--exch',
      'NSE',
      '--tsym',
      'INFY-EQ',
      '--side',
      'S',
      '--qty',
      '2',
      '--product',
      'C',
      '--target-trigger',
      '-1600',
      '--stop-trigger',
      '1400',
      '--stop-price',
      'x',
    ]);
    expect(result.code).toBe(2);
    expect(result.err.split('\n')[0]).toBe(
      '--target-trigger must be a plain non-negative decimal number (no sign, exponent or more than 8 decimals), got "-1600"; ' +
        '--stop-price must be a plain non-negative decimal number (no sign, exponent or more than 8 decimals), got "x"',
    );
  });

  it('the full help only on --help; --version prints the package version', async () => {
    expect((await run(['place'])).err).not.toMatch(/exit codes:/);
    const help = await run(['place', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/exit codes:/);
    expect(await run(['--version'])).toMatchObject({ code: 0, out: `gtt-gateway ${version()}` });
  });

  it('--json: a usage error is one JSON object naming all of it', async () => {
    const result = await run(['place', '--json', '--qty', 'x']);
    expect(JSON.parse(result.err)).toEqual({
      error: {
        code: 'USAGE',
        message: expect.stringMatching(/^missing --exch, --tsym, .*; --qty must be a positive whole number, got "x"$/),
      },
    });
  });

  it("the CLI's number rules give the gateway's answers (functions/base/schemas/input.ts)", () => {
    const base = { ...SAMPLE_ORDER, qty: '1' };
    for (const value of [
      '1',
      '10',
      '0',
      '-1',
      '1.5',
      '01',
      'abc',
      '1e3',
      ' 7',
      '',
      '9999999999',
      '12345678901',
      '0x10',
      '+3',
    ]) {
      const apiQty = placeOrderInput.safeParse({ ...base, qty: value }).success;
      // The shape of a number, seen on the trigger (a limit price also has rules of its own, e.g. above 0, left to the gateway).
      const apiPrice = placeOrderInput.safeParse({ ...base, d: value }).success;
      expect([value, cliAccepts('quantity', value)]).toEqual([value, apiQty]);
      // "0" is a number of the right shape (a market order's price) that a trigger refuses for its own rule (above 0).
      if (value !== '0') expect([value, cliAccepts('decimal', value)]).toEqual([value, apiPrice]);
    }
  });
});

describe('network errors name the URL', () => {
  it('a refused connection says where it tried', async () => {
    const closed = await listenOnLoopback(http.createServer());
    await closed.close();
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(
      ['list', '--attempts', '1', '--url', closed.url],
      { GTT_API_URL: '' },
      { out: (t) => out.push(t), err: (t) => err.push(t) },
    );
    expect(code).toBe(6);
    expect(err.join('\n')).toContain(`at ${closed.url}.`);
  });
});

describe('ltp: the local sandbox only', () => {
  it('a URL that is not loopback is refused before anything is sent; a loopback API without a sandbox is named', async () => {
    const remote = await main(
      ['ltp', 'INFY-EQ', '1400', '--url', 'https://a1b2c3d4e5.execute-api.ap-south-1.amazonaws.com'],
      { GTT_API_URL: '' },
      { out: () => undefined, err: () => undefined },
    );
    expect(remote).toBe(2);
    const before = requests;
    const result = await run(['ltp', 'INFY-EQ', '1400']);
    expect(requests).toBe(before + 1); // only GET /_local/emulator, answered 500 by this stand-in
    expect(result.code).toBe(6); // an HTTP 5xx outside the contract, as the exit-code table says
    expect(result.err).toContain(`${api.url} has no local sandbox (GET /_local/emulator answered HTTP 500)`);
  });
});
