/**
 * create_plan's option entry over the real remote MCP server (`POST /mcp` on the local stack: NIFTY quoted by the
 * emulator, its options in the day's chain loaded by the InstrumentRefresh): a trade assistant's preview says the plan
 * in words with the contract the gateway's dry run picks now and stores nothing; its confirm creates one plan,
 * watching, and a second confirm creates none; a level already crossed is refused at the preview with the gateway's
 * reason; an exit-only assistant is refused (an option entry opens a position) and nothing is stored. A legs plan
 * (a straddle) the same way: its preview says each leg and the net premium now, its confirm creates one plan. An
 * assistant with maxValuePerOrder gets a preview when the entry's value now is within it, refused (both numbers) when
 * not, and the plan it creates carries the limit as its maxValue (held when the index crosses) and the product asked.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { localApi } from '../support/local-api.js';
import { callTool, remoteMcpClient } from '../support/mcp-tools.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';

let stack: LocalStack;
type Body = Record<string, unknown>;
const api = localApi<Body>(() => stack.api.url);
const PLAN = {
  kind: 'option-entry',
  underlying: 'NIFTY',
  when: { above: 25_100 },
  pick: { expiry: 'nearest', strike: 'ATM', type: 'CE' },
  lots: 2,
  exit: { stop: '20', target: '25%' },
};
const optionPlans = async () =>
  ((await api('GET', '/plans?limit=100')).body.plans as { kind: string; planId: string; state: string }[]).filter(
    (p) => p.kind === 'option-entry',
  );
let trade: Client;
let exit: Client;
const assistant = async (name: string, scopes: string[], limits?: Record<string, number>) => {
  const created = await api(
    'POST',
    '/assistants',
    { name, scopes, ...(limits ? { limits } : {}) },
    { 'Idempotency-Key': `mcp-option-${name}` },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return remoteMcpClient(stack.api.url, created.body.token as string);
};

beforeAll(async () => {
  // Prices from the start, still: the options are priced from the index's level (as plans-option-entry.test.ts).
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE, market: { prices: 'start', market: 'still' } });
  expect((await fetch(`${stack.api.url}/_local/run/InstrumentRefresh`, { method: 'POST' })).status).toBe(200);
  const moved = await fetch(`${stack.emulator.url}/_emulator/ltp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ exch: 'NSE', tsym: 'Nifty 50', ltp: 25_000 }),
  });
  expect(moved.ok).toBe(true);
  trade = await assistant('option-trade', ['read', 'trade']);
  exit = await assistant('option-exit', ['read', 'exit']);
});
afterAll(async () => {
  await trade?.close();
  await exit?.close();
  await stack?.close();
});

describe('create_plan, kind option-entry, over the remote server', () => {
  it('previews in words with the contract picked now, then confirm creates it once', async () => {
    const preview = (await callTool(trade, 'create_plan', PLAN)).structuredContent!;
    expect(preview.refused, JSON.stringify(preview)).toBeUndefined();
    expect(preview.summary).toMatch(
      /^Watch NIFTY; when it goes above ₹25,100 buy 2 lots \((\d+)\) of the ATM CE of the nearest expiry, now NIFTY\d{2}[A-Z]{3}\d{2}C25000 at NIFTY 25,000; exit stop 20 points, target 25%\. Product M \(NRML\)\.$/,
    );
    expect(preview.rulesChecked).toContainEqual(
      expect.stringMatching(/^the contract it picks now: NIFTY\w+C25000 \(strike 25000/),
    );
    expect(await optionPlans()).toEqual([]);

    const done = (await callTool(trade, 'confirm', { confirmationId: preview.confirmationId })).structuredContent!;
    expect(done, JSON.stringify(done)).toMatchObject({
      confirmed: true,
      result: { kind: 'option-entry', state: 'watching' },
    });
    // A second confirm of the same preview replays the first answer: the same plan, none created.
    const again = (await callTool(trade, 'confirm', { confirmationId: preview.confirmationId })).structuredContent!;
    expect(again).toMatchObject({ replayed: true, result: { planId: (done.result as Body).planId } });
    expect(await optionPlans()).toHaveLength(1);
  });

  it("refuses at the preview a level already crossed, with the gateway's reason", async () => {
    const before = (await optionPlans()).length;
    const answer = await callTool(trade, 'create_plan', { ...PLAN, when: { above: 24_900 } });
    expect(answer.isError).toBe(true);
    expect(JSON.stringify(answer.structuredContent)).toMatch(/already at or above 24900/);
    expect(await optionPlans()).toHaveLength(before);
  });

  it('refuses an exit-only assistant: an option entry opens a position', async () => {
    const before = (await optionPlans()).length;
    const answer = (await callTool(exit, 'create_plan', PLAN)).structuredContent!;
    expect(answer).toMatchObject({ refused: true });
    expect(answer.reason).toMatch(/^EXIT_ONLY: an option-entry plan places an entry that opens a position/);
    expect(await optionPlans()).toHaveLength(before);
  });
});

describe('create_plan, kind option-entry, from an assistant with maxValuePerOrder', () => {
  it('previews it, and the plan created carries the limit as maxValue and the product asked', async () => {
    const capped = await assistant('option-capped', ['read', 'trade'], { maxValuePerOrder: 1_000_000 });
    const low = await assistant('option-low', ['read', 'trade'], { maxValuePerOrder: 100 });
    try {
      const refused = (await callTool(low, 'create_plan', PLAN)).structuredContent!;
      expect(refused.reason).toMatch(
        /^the option plan's entry \(NIFTY\w+C25000 now\): value ₹[\d,.]+ \(quantity \d+ × [\d.]+\) is over this assistant's most per order \(₹100\)$/,
      );
      const before = (await optionPlans()).length;
      const preview = (await callTool(capped, 'create_plan', { ...PLAN, prd: 'C' })).structuredContent!;
      expect(preview.refused, JSON.stringify(preview)).toBeUndefined();
      expect(preview.summary).toMatch(/Product C \(CNC\); the entry at most ₹10,00,000 in value/);
      expect(preview.dryRun).toMatchObject({ maxValue: 1_000_000, value: expect.any(Number) });
      const done = (await callTool(capped, 'confirm', { confirmationId: preview.confirmationId })).structuredContent!;
      const planId = (done.result as Body).planId as string;
      expect((await api('GET', `/plans/${planId}`)).body).toMatchObject({
        kind: 'option-entry',
        state: 'watching',
        option: { maxValue: 1_000_000, prd: 'C' },
      });
      expect(await optionPlans()).toHaveLength(before + 1);
    } finally {
      await capped.close();
      await low.close();
    }
  });
});

describe('create_plan, kind option-legs, over the remote server', () => {
  it('previews the legs in words with the net premium now, then confirm creates it once; exit-only refused', async () => {
    const dry = await api('POST', '/plans?dryRun=true', { ...PLAN, lots: 1 });
    const CE = (dry.body.contract as { tsym: string }).tsym;
    const STRADDLE = {
      kind: 'option-legs',
      legs: [
        { tsym: CE, trantype: 'S', lots: 1 },
        { tsym: CE.replace(/C25000$/, 'P25000'), trantype: 'S', lots: 1 },
      ],
      exit: { stop: '40', target: '25%' },
    };
    const legsPlans = async () =>
      ((await api('GET', '/plans?limit=100')).body.plans as { kind: string }[]).filter((p) => p.kind === 'option-legs');
    const refused = (await callTool(exit, 'create_plan', STRADDLE)).structuredContent!;
    expect(refused.reason).toMatch(/^EXIT_ONLY: an option-legs plan places an entry that opens a position/);

    const preview = (await callTool(trade, 'create_plan', STRADDLE)).structuredContent!;
    expect(preview.refused, JSON.stringify(preview)).toBeUndefined();
    expect(preview.summary).toMatch(
      /^Sell 1 lot \(\d+\) NIFTY\w+C25000 at a protected limit about ₹[\d,.]+ and sell 1 lot \(\d+\) NIFTY\w+P25000 at a protected limit about ₹[\d,.]+ together; net premium received ₹[\d,.]+ a unit; close every leg when the move is 40 points against or 25% for\. Product M \(NRML\)\.$/,
    );
    expect(await legsPlans()).toEqual([]);

    const done = (await callTool(trade, 'confirm', { confirmationId: preview.confirmationId })).structuredContent!;
    expect(done, JSON.stringify(done)).toMatchObject({ confirmed: true, result: { kind: 'option-legs' } });
    const again = (await callTool(trade, 'confirm', { confirmationId: preview.confirmationId })).structuredContent!;
    expect(again).toMatchObject({ replayed: true, result: { planId: (done.result as Body).planId } });
    expect(await legsPlans()).toHaveLength(1);
  });
});
