/**
 * The command line's argument rules (client/cli.ts `main`, in process): a single-value flag given twice is a usage
 * error (exit 2) before anything is sent, instead of the last one silently winning. A loopback server stands in for
 * the API and counts what reaches it.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../client/cli.js';
import { listenOnLoopback } from '../../local/loopback.js';

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

const ORDER = ['--exch', 'NSE', '--tsym', 'M&M-EQ', '--qty', '1', '--price', '1500', '--product', 'C', '--side', 'B', '--price-type', 'LMT', '--retention', 'DAY', '--alert', 'LTP_B_O', '--trigger', '1490'];

const run = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args, '--url', api.url, '--no-sign'], { GTT_API_URL: '' }, { out: (t) => out.push(t), err: (t) => err.push(t) });
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
