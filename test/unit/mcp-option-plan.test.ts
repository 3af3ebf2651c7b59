/**
 * create_plan's option entry over the MCP server (mcp/plan-fields.ts, mcp/preview.ts), in front of a recording port
 * that answers as POST /plans does: the preview says the plan in words with the contract its dry run picks now, the
 * assistant's limits check that contract's quantity, the confirm sends the body once (no dry run, one key); an
 * exit-only assistant is refused before anything is read; a bracket's field on an option plan is named. Over the
 * local stack: test/integration/mcp-option-plan.test.ts.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';

import type { AssistantLimits } from '../../functions/base/schemas/assistants.js';
import { MemoryConfirmationStore } from '../../mcp/confirmations.js';
import type { CallFlags, GatewayPort, GatewayRequest } from '../../mcp/port.js';
import { createMcpServer, type Scope } from '../../mcp/server.js';
import { callTool } from '../support/mcp-tools.js';
import { dryRunOf } from '../support/option-dry-run.js';

const RESOLVED = {
  at: '2026-12-07T04:15:00.000Z',
  price: 24512,
  exch: 'NFO',
  tsym: 'NIFTY08DEC26C24500',
  token: '45001',
  expiry: '2026-12-08',
  type: 'CE' as const,
  strike: 24500,
  atm: 24500,
  strikeStep: 50,
  lot: 65,
  qty: 130,
};
/** The dry run's entry: 130 at its protected limit 124.05 (test/support/option-dry-run.ts). */
const VALUE = 16126.5;
const PLAN = {
  kind: 'option-entry',
  underlying: 'NIFTY',
  when: { above: 24500 },
  pick: { expiry: 'nearest', strike: 'ATM', type: 'CE' },
  lots: 2,
  exit: { stop: '20', target: '25%' },
};

const serve = async (scopes: Scope[], limits?: AssistantLimits) => {
  const sent: { request: GatewayRequest; flags: CallFlags }[] = [];
  const port: GatewayPort = {
    call: (request, flags = {}) => {
      sent.push({ request, flags });
      if (request.operation !== 'CreatePlan') return Promise.resolve({ positions: [], orders: [], plans: [] });
      const maxValue = request.body?.maxValue;
      return Promise.resolve(
        flags.dryRun
          ? { ...dryRunOf(RESOLVED), value: VALUE, ...(maxValue === undefined ? {} : { maxValue }) }
          : { planId: 'pl0123456789abcdef', kind: 'option-entry', state: 'watching' },
      );
    },
  };
  const server = createMcpServer(port, {
    scopes,
    confirmations: new MemoryConfirmationStore(),
    ...(limits ? { limits } : {}),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'option-plan-test', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, sent };
};

describe('create_plan, kind option-entry', () => {
  it('previews in words with the contract its dry run picks now, then confirm sends it once', async () => {
    const { client, sent } = await serve(['read', 'trade']);
    const preview = (await callTool(client, 'create_plan', PLAN)).structuredContent!;
    expect(preview.summary).toBe(
      'Watch NIFTY; when it goes above ₹24,500 buy 2 lots (130) of the ATM CE of the nearest expiry, now NIFTY08DEC26C24500 at NIFTY 24,512; exit stop 20 points, target 25%. Product M (NRML).',
    );
    expect(preview.rulesChecked).toContain(
      'the contract it picks now: NIFTY08DEC26C24500 (strike 24500, expiry 2026-12-08, lot 65, 130 in all), at NIFTY 24512; chosen again when the index crosses',
    );
    expect(sent.map((s) => [s.request.operation, s.flags.dryRun === true])).toEqual([['CreatePlan', true]]);
    expect(sent[0]!.request.body).toEqual(PLAN);

    const done = (await callTool(client, 'confirm', { confirmationId: preview.confirmationId })).structuredContent!;
    expect(done).toMatchObject({ confirmed: true, result: { planId: 'pl0123456789abcdef', state: 'watching' } });
    const creates = sent.filter((s) => s.request.operation === 'CreatePlan' && !s.flags.dryRun);
    expect(creates).toHaveLength(1);
    expect(creates[0]!.request.body).toEqual(PLAN);
    expect(creates[0]!.flags.idempotencyKey).toEqual(expect.any(String));
    // A second confirm of the same preview sends nothing more.
    await callTool(client, 'confirm', { confirmationId: preview.confirmationId });
    expect(sent.filter((s) => s.request.operation === 'CreatePlan' && !s.flags.dryRun)).toHaveLength(1);
  });

  it("holds the contract's quantity to the assistant's limits", async () => {
    const { client, sent } = await serve(['read', 'trade'], { maxQtyPerOrder: 100 });
    const answer = (await callTool(client, 'create_plan', PLAN)).structuredContent!;
    expect(answer.reason).toBe(
      "the option plan's entry (NIFTY08DEC26C24500 now): quantity 130 is over this assistant's most per order (100)",
    );
    expect(sent.filter((s) => !s.flags.dryRun)).toEqual([]);
  });

  it('refuses an exit-only assistant before anything is read: an option entry opens a position', async () => {
    const { client, sent } = await serve(['read', 'exit']);
    const answer = await callTool(client, 'create_plan', PLAN);
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent!.reason).toMatch(
      /^EXIT_ONLY: an option-entry plan places an entry that opens a position/,
    );
    expect(sent).toEqual([]);
  });

  it("names a bracket's field on an option plan, and what an option plan takes", async () => {
    const { client, sent } = await serve(['read', 'trade']);
    const answer = await callTool(client, 'create_plan', { ...PLAN, trailBy: 5 });
    expect(answer.isError).toBe(true);
    expect(JSON.stringify(answer.content)).toContain(
      'trailBy is not a field of an option-entry plan; it takes underlying (NIFTY...), when',
    );
    const missing = await callTool(client, 'create_plan', { ...PLAN, lots: undefined });
    expect(JSON.stringify(missing.content)).toContain('an option-entry plan needs lots');
    expect(sent).toEqual([]);
  });
});

it('sends a strike written as a number as the number the API takes', async () => {
  const { client, sent } = await serve(['read', 'trade']);
  await callTool(client, 'create_plan', { ...PLAN, pick: { ...PLAN.pick, strike: '24600' } });
  expect(sent[0]!.request.body!.pick).toEqual({ expiry: 'nearest', strike: 24600, type: 'CE' });
});

describe("an assistant's maxValuePerOrder on an option entry", () => {
  const creates = (sent: { request: GatewayRequest; flags: CallFlags }[]) =>
    sent.filter((s) => s.request.operation === 'CreatePlan');

  it('previews it (the value now within), and the plan carries the limit as its maxValue (the lower one asked)', async () => {
    const { client, sent } = await serve(['read', 'trade'], { maxValuePerOrder: 20000 });
    const preview = (await callTool(client, 'create_plan', PLAN)).structuredContent!;
    expect(preview.confirmationId, JSON.stringify(preview)).toEqual(expect.any(String));
    expect(preview.rulesChecked).toEqual(
      expect.arrayContaining([
        'value at most 20000 per order',
        "the entry's value now: ₹16,126.5; at most ₹20,000 when the index crosses (maxValue: above it nothing is sent)",
      ]),
    );
    expect(preview.summary).toMatch(
      /target 25%\. Product M \(NRML\); the entry at most ₹20,000 in value \(quantity × limit\) when it crosses, else nothing is sent\.$/,
    );
    await callTool(client, 'confirm', { confirmationId: preview.confirmationId });
    // The dry run and the plan created both carry it.
    expect(creates(sent).map((s) => [s.flags.dryRun === true, s.request.body!.maxValue])).toEqual([
      [true, 20000],
      [false, 20000],
    ]);

    const lower = await serve(['read', 'trade'], { maxValuePerOrder: 20000 });
    await callTool(lower.client, 'create_plan', { ...PLAN, maxValue: 17000 });
    const higher = await serve(['read', 'trade'], { maxValuePerOrder: 20000 });
    await callTool(higher.client, 'create_plan', { ...PLAN, maxValue: 90000 });
    expect([lower, higher].map(({ sent: s }) => creates(s)[0]!.request.body!.maxValue)).toEqual([17000, 20000]);
  });

  it('refuses at the preview an entry already worth more now, naming both numbers; nothing created', async () => {
    const { client, sent } = await serve(['read', 'trade'], { maxValuePerOrder: 10000 });
    const answer = (await callTool(client, 'create_plan', PLAN)).structuredContent!;
    expect(answer.reason).toBe(
      "the option plan's entry (NIFTY08DEC26C24500 now): value ₹16,126.5 (quantity 130 × 124.05) is over this assistant's most per order (₹10,000)",
    );
    expect(sent.filter((s) => !s.flags.dryRun)).toEqual([]);
  });

  it('without the limit, a maxValue asked is passed as it is', async () => {
    const { client, sent } = await serve(['read', 'trade']);
    await callTool(client, 'create_plan', { ...PLAN, maxValue: 12000 });
    expect(creates(sent)[0]!.request.body).toEqual({ ...PLAN, maxValue: 12000 });
  });
});

describe("an option plan's product", () => {
  it("is passed through and said in the preview's words; MIS (I) is not one a plan takes", async () => {
    const { client, sent } = await serve(['read', 'trade']);
    const preview = (await callTool(client, 'create_plan', { ...PLAN, prd: 'C' })).structuredContent!;
    expect(sent[0]!.request.body).toEqual({ ...PLAN, prd: 'C' });
    expect(preview.summary).toMatch(/target 25%\. Product C \(CNC\)\.$/);
    const intraday = await callTool(client, 'create_plan', { ...PLAN, prd: 'I' });
    expect(intraday.isError).toBe(true);
    expect(JSON.stringify(intraday.content)).toMatch(/prd/);
    expect(sent).toHaveLength(1);
  });

  it('is refused on a trailing stop, and maxValue on a legs plan, naming what the kind takes', async () => {
    const { client, sent } = await serve(['read', 'trade']);
    const legs = { kind: 'option-legs', legs: [], exit: PLAN.exit, maxValue: 5000 };
    expect(JSON.stringify((await callTool(client, 'create_plan', legs)).content)).toContain(
      'maxValue is not a field of an option-legs plan; it takes legs',
    );
    const trailing = { kind: 'trailing-stop', trailBy: 5, prd: 'M' };
    expect(JSON.stringify((await callTool(client, 'create_plan', trailing)).content)).toContain(
      'prd is not a field of a trailing-stop plan',
    );
    expect(sent).toEqual([]);
  });
});
