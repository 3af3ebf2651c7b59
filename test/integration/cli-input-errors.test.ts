/**
 * The command line's answers to a trader's mistakes, through `main` against the local stack: `plan-create` takes
 * its JSON from `--file` or `--body` and says which is wrong and how (not valid JSON, not an object, none or both);
 * `plan-create --help` names its own flags only; `signal-test` refused by a strategy's `allowIps` (403) exits 7 as
 * REQUEST_FORBIDDEN does for every command (docs/reference/client.md).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { EXIT_CODES } from '../../client/exit-codes.js';
import type { LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
useLocalStack({ settings: HIGH_ORDER_RATE }, (s, c) => {
  stack = s;
  control = c;
});

const gtt = async (...args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
  const code = await main([...args, '--url', stack.api.url], { GTT_API_URL: '' }, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
};

const BRACKET = {
  kind: 'bracket',
  entry: { ...SAMPLE_ORDER, qty: 2 },
  target: { trigger: '1600', price: '1600' },
  stopLoss: { trigger: '1400', price: '1400' },
};

describe('gtt plan-create', () => {
  it('takes --file like strategy-create, and --body as before', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'gtt-plan-')), 'plan.json');
    writeFileSync(file, JSON.stringify(BRACKET));
    const fromFile = await gtt('plan-create', '--file', file);
    expect(fromFile.code, fromFile.err).toBe(0);
    expect(fromFile.out).toMatch(/^created pl[0-9a-f]{16} {2}bracket {2}armed {2}NSE:M&M-EQ/);
    const fromBody = await gtt('plan-create', '--body', JSON.stringify(BRACKET));
    expect(fromBody.code, fromBody.err).toBe(0);
  });

  it.each([
    [
      ['--body', '{"kind": "bracket",'],
      /^plan-create: --body is not valid JSON \(.+\); give the JSON of POST \/plans$/,
    ],
    [['--body', '[1, 2]'], /^plan-create: --body must be a JSON object: the JSON of POST \/plans$/],
    [[], /^plan-create: needs the JSON of POST \/plans: its file, or the JSON itself \(see the usage below\)$/],
    [['--file', 'plan.json', '--body', '{}'], /^plan-create: give --file or --body, not both$/],
    [['--file', '/nonexistent/plan.json'], /^plan-create: cannot read --file \/nonexistent\/plan.json: ENOENT/],
  ])('%j: a usage error that says what is wrong with it, exit 2, nothing sent', async (args, said) => {
    await control.clearRequests();
    const run = await gtt('plan-create', ...args);
    expect(run.code).toBe(EXIT_CODES.USAGE);
    const [message, usage] = run.err.split('\n');
    expect(message).toMatch(said);
    expect(usage).toMatch(/^usage: npm run gtt -- plan-create --file --body --key {3}\(--help/);
    expect(await control.requests()).toEqual([]);
  });

  it('a bad file names the file', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'gtt-plan-')), 'broken.json');
    writeFileSync(file, '{ kind: bracket }');
    expect((await gtt('plan-create', '--file', file)).err).toContain(`plan-create: --file ${file} is not valid JSON (`);
  });

  it('--help after the command names its own flags only (and the global ones)', async () => {
    const help = await gtt('plan-create', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain("plan-create  [--file plan.json] [--body '<JSON of POST /plans>'] [--key K]");
    for (const other of ['--tsym', '--trigger', '--webhook-url', '--stop-trigger', '--source'])
      expect(help.out).not.toContain(other);
    expect(help.out).toMatch(/global flags:[\s\S]*--url URL[\s\S]*exit codes:/);
    // Alone, --help still lists every command.
    expect((await gtt('--help')).out).toContain('--webhook-url');
  });
});

describe('gtt signal-test', () => {
  it("refused by the strategy's allowIps (403 REQUEST_FORBIDDEN): exit 7, configuration, as docs/reference/client.md says", async () => {
    const body = {
      name: 'allow-elsewhere',
      source: 'tradingview',
      mode: 'paper',
      allowIps: ['203.0.113.9'],
      action: {
        kind: 'gtt',
        order: { exch: 'NSE', prd: 'C', qty: 1 },
        trigger: { offset: '0' },
        price: { offset: '0' },
      },
    };
    const created = await gtt('strategy-create', '--body', JSON.stringify(body));
    expect(created.code, created.err).toBe(0);
    const strategyId = /st[0-9a-f]{16}/.exec(created.out)![0];
    const url = /(http\S+\/signals\/[A-Za-z0-9_-]{43})/.exec(created.out)![1]!;
    const refused = await gtt('signal-test', strategyId, '--webhook-url', url);
    expect(refused.out).toContain('HTTP 403');
    expect(refused.out).toContain('REQUEST_FORBIDDEN');
    expect(refused.code).toBe(EXIT_CODES.CONFIGURATION);
  });
});
