/**
 * `gtt plan-legs` against the local stack (NIFTY's options in the day's chain loaded by the InstrumentRefresh, priced
 * from the index by the emulator): `--dry-run` says each leg's order and the net premium now and stores nothing; the
 * same command with `--key` creates one plan, its legs entered once each (the emulator's request log), and again
 * answers the same plan; a contract that is not listed is the gateway's refusal (exit 2, its reason), nothing stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';

let stack: LocalStack;
let CE = '';
let PE = '';
const gtt = async (...args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
  const code = await main([...args, '--url', stack.api.url], { GTT_API_URL: '' }, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
};
const legsPlans = async () =>
  (
    (await (await fetch(`${stack.api.url}/plans?limit=100`)).json()) as { plans: { kind: string; planId: string }[] }
  ).plans.filter((p) => p.kind === 'option-legs');
const placed = async () =>
  (await emulatorControl(stack.emulator.url).requests())
    .filter((r) => r.operation === 'PlaceOrder')
    .map((r) => `${r.jData?.trantype} ${r.jData?.tsym}`);

beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE, market: { prices: 'start', market: 'still' } });
  expect((await fetch(`${stack.api.url}/_local/run/InstrumentRefresh`, { method: 'POST' })).status).toBe(200);
  const ltp = await fetch(`${stack.emulator.url}/_emulator/ltp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ exch: 'NSE', tsym: 'Nifty 50', ltp: 25_000 }),
  });
  expect(ltp.ok).toBe(true);
  // The at-the-money call of the nearest expiry, as `gtt plan-option --dry-run` names it; its put beside it.
  const dry = await gtt(
    'plan-option',
    'NIFTY',
    '--above',
    '26000',
    '--ce',
    'ATM',
    '--lots',
    '1',
    '--stop',
    '5',
    '--target',
    '5',
    '--dry-run',
  );
  CE = /would buy (NIFTY\w+C25000) /.exec(dry.out)?.[1] ?? '';
  expect(CE, dry.out + dry.err).not.toBe('');
  PE = CE.replace(/C25000$/, 'P25000');
});
afterAll(() => stack?.close());

const plan = () => ['plan-legs', '--leg', `S:${CE}:1`, '--leg', `sell:NFO:${PE}:1`, '--stop', '40', '--target', '25%'];

describe('gtt plan-legs', () => {
  it('--dry-run says the orders and the net now; --key creates one plan, each leg entered once', async () => {
    await emulatorControl(stack.emulator.url).clearRequests();
    const dry = await gtt(...plan(), '--dry-run');
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toMatch(
      new RegExp(
        `^dry run: nothing was sent\\. would place, bought legs first: S 1 lot NFO:${CE} = \\d+ at limit [\\d.]+ \\(last [\\d.]+\\); S 1 lot NFO:${PE} = \\d+ at limit [\\d.]+ \\(last [\\d.]+\\)\\. net premium now -[\\d.]+; stop 40 target 25% count from the net at the fills$`,
      ),
    );
    expect(await legsPlans()).toEqual([]);
    expect(await placed()).toEqual([]);

    const made = await gtt(...plan(), '--key', 'cli-legs-1');
    expect(made.code, made.err).toBe(0);
    const lines = made.out.split('\n');
    expect(lines[0]).toMatch(/^created \w+ {2}entry-(placed|filled) {2}net .* {2}stop 40 target 25%/);
    expect(lines[1]).toContain(`legs: S 1 lot NFO:${CE} `);
    const again = await gtt(...plan(), '--key', 'cli-legs-1');
    expect(again.out).toMatch(/^plan already created \w+/);
    expect(await legsPlans()).toHaveLength(1);
    expect((await placed()).sort()).toEqual([`S ${CE}`, `S ${PE}`].sort());
  });

  it('Ctrl-C (the signal given to main) stops the create: exit not 0, nothing stored or sent', async () => {
    await emulatorControl(stack.emulator.url).clearRequests();
    const before = (await legsPlans()).length;
    const err: string[] = [];
    const io = { out: () => undefined, err: (t: string) => err.push(t) };
    const args = [...plan(), '--key', 'cli-legs-interrupted', '--url', stack.api.url];
    const code = await main(args, { GTT_API_URL: '' }, io, AbortSignal.abort());
    expect(code, err.join('\n')).not.toBe(0);
    expect(err.join('\n')).toMatch(/abort|interrupt|cancel/i);
    expect(await legsPlans()).toHaveLength(before);
    expect(await placed()).toEqual([]);
  });

  it("a contract that is not listed is the gateway's refusal, exit 2 with its reason, nothing stored or sent", async () => {
    await emulatorControl(stack.emulator.url).clearRequests();
    const before = (await legsPlans()).length;
    const refused = await gtt(
      'plan-legs',
      '--leg',
      `S:${CE}:1`,
      '--leg',
      'S:NIFTY08DEC26P25010:1',
      '--stop',
      '5',
      '--target',
      '5',
    );
    expect(refused.code, refused.out).toBe(2);
    expect(refused.err).toMatch(/NIFTY08DEC26P25010/);
    expect(await legsPlans()).toHaveLength(before);
    expect(await placed()).toEqual([]);
  });
});
