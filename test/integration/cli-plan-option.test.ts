/**
 * `gtt plan-option` against the local stack (NIFTY quoted by the emulator, its options in the day's chain loaded by
 * the InstrumentRefresh): `--dry-run` names the contract the gateway would pick now and stores nothing; the same
 * command with `--key` creates one plan, watching, and again answers the same plan; a level the index is already past
 * is the gateway's refusal (exit 2, its reason); `gtt plans` shows the plan's index, level and pick, and once the index
 * crossed, its contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { loadChains, moveNifty } from '../support/option-market.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';

let stack: LocalStack;
const gtt = async (...args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
  const code = await main([...args, '--url', stack.api.url], { GTT_API_URL: '' }, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
};
const index = (ltp: number) => moveNifty(stack, ltp);
const optionPlans = async () =>
  (
    (await (await fetch(`${stack.api.url}/plans?limit=100`)).json()) as { plans: { kind: string; planId: string }[] }
  ).plans.filter((p) => p.kind === 'option-entry');

beforeAll(async () => {
  // Prices from the start, still: the options are priced from the index's level (as plans-option-entry.test.ts).
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE, market: { prices: 'start', market: 'still' } });
  await loadChains(stack);
  await index(25_000);
});
afterAll(() => stack?.close());

const PLAN = [
  'plan-option',
  'nifty',
  '--above',
  '25100',
  '--ce',
  'ATM',
  '--lots',
  '2',
  '--stop',
  '20',
  '--target',
  '25%',
];

describe('gtt plan-option', () => {
  it('--dry-run names the contract picked now; --key creates one plan; plans shows it, then its contract', async () => {
    const dry = await gtt(...PLAN, '--dry-run');
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toMatch(
      /^dry run: nothing was sent\. NIFTY above 25100: would buy NIFTY\d{2}[A-Z]{3}\d{2}C25000 now \(strike 25000, expiry [\d-]+, 2 × lot (\d+) = \d+; last [\d.]+, entry limit [\d.]+\) at NIFTY 25000; the contract is chosen again when it crosses$/,
    );
    expect(await optionPlans()).toEqual([]);
    // --max-value: the dry run tells the value now against the cap (here far below it).
    const capped = await gtt(...PLAN, '--max-value', '100', '--dry-run');
    expect(capped.out).toMatch(
      /; its value now, [\d.]+, is above --max-value 100: at this price it would send nothing and fail; the contract/,
    );
    expect(await optionPlans()).toEqual([]);

    const made = await gtt(...PLAN, '--key', 'cli-option-1');
    expect(made.code, made.err).toBe(0);
    expect(made.out).toMatch(
      /^created \w+ {2}watching {2}NIFTY above 25100 {2}ATM CE nearest 2 lots {2}contract when it crosses$/,
    );
    const again = await gtt(...PLAN, '--key', 'cli-option-1');
    expect(again.out).toMatch(/^plan already created \w+/);
    expect(await optionPlans()).toHaveLength(1);

    await index(25_130);
    await stack.watch();
    const listed = await gtt('plans');
    expect(listed.out).toMatch(
      /option-entry {2}exit-armed {2}NFO:NIFTY\w+C25150 {2}NIFTY above 25100 {2}ATM CE nearest 2 lots {2}contract NIFTY\w+C25150 \(at NIFTY 25130\)/,
    );
  });

  it('Ctrl-C (the signal given to main) stops the create: exit not 0, nothing stored', async () => {
    const before = (await optionPlans()).length;
    const err: string[] = [];
    const io = { out: () => undefined, err: (t: string) => err.push(t) };
    const args = [...PLAN.slice(0, 3), '26000', ...PLAN.slice(4), '--key', 'cli-option-interrupted'];
    const code = await main([...args, '--url', stack.api.url], { GTT_API_URL: '' }, io, AbortSignal.abort());
    expect(code, err.join('\n')).not.toBe(0);
    expect(err.join('\n')).toMatch(/abort|interrupt|cancel/i);
    expect(await optionPlans()).toHaveLength(before);
  });

  it("a level already crossed is the gateway's refusal, exit 2 with its reason, nothing stored", async () => {
    const before = (await optionPlans()).length;
    const refused = await gtt(
      'plan-option',
      'NIFTY',
      '--above',
      '100',
      '--ce',
      'ATM',
      '--lots',
      '1',
      '--stop',
      '5',
      '--target',
      '5',
    );
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/already at or above 100/);
    expect(await optionPlans()).toHaveLength(before);
  });
});
