/**
 * create_plan's legs plan over the MCP server (mcp/plan-fields.ts, mcp/preview.ts), in front of a recording port that
 * answers the dry run as POST /plans does (functions/plans/legs-create.ts' legsDryRun, over made-up rules and prices):
 * the preview says the legs in words with the net premium now, each leg's exch said by its symbol; the assistant's
 * limits hold each leg as an order of its own; the confirm sends the body once; an exit-only assistant is refused
 * before anything is read; a field of another kind is named.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';

import type { AssistantLimits } from '../../functions/base/schemas/assistants.js';
import { optionLegsInput } from '../../functions/base/schemas/option-legs.js';
import { legsDryRun } from '../../functions/plans/legs-create.js';
import { MemoryConfirmationStore } from '../../mcp/confirmations.js';
import type { CallFlags, GatewayPort, GatewayRequest } from '../../mcp/port.js';
import { createMcpServer, type Scope } from '../../mcp/server.js';
import { callTool } from '../support/mcp-tools.js';

const STRADDLE = {
  kind: 'option-legs',
  legs: [
    { tsym: 'NIFTY08DEC26C25000', trantype: 'S', lots: 1 },
    { tsym: 'NIFTY08DEC26P25000', trantype: 'S', lots: 1 },
  ],
  exit: { stop: '40', target: '25%' },
};
const SENT = {
  ...STRADDLE,
  legs: STRADDLE.legs.map((l) => ({ exch: 'NFO', ...l })),
};

/** The gateway's dry run of a legs plan, each leg 65 a lot at ₹79.45 (the protection band 5%, tick 0.05). */
const dryRun = (body: unknown) =>
  legsDryRun(
    optionLegsInput.parse(body),
    {
      instrument: (_exch, tsym) =>
        Promise.resolve({ exch: 'NFO', tsym, token: '45001', lot: 65, tick: '0.05' } as never),
      lastPrice: () => Promise.resolve(79.45),
      band: () => Promise.resolve(undefined),
      freeze: () => Promise.resolve(1800),
      protectionPercent: '5',
    },
    Date.now() + 10_000,
  );

const serve = async (scopes: Scope[], limits?: AssistantLimits) => {
  const sent: { request: GatewayRequest; flags: CallFlags }[] = [];
  const port: GatewayPort = {
    call: (request, flags = {}) => {
      sent.push({ request, flags });
      if (request.operation !== 'CreatePlan') return Promise.resolve({ positions: [], orders: [], plans: [] });
      return flags.dryRun
        ? dryRun(request.body)
        : Promise.resolve({ planId: 'pl0123456789abcdef', kind: 'option-legs', state: 'entry-placed' });
    },
  };
  const server = createMcpServer(port, {
    scopes,
    confirmations: new MemoryConfirmationStore(),
    ...(limits ? { limits } : {}),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'option-legs-test', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, sent };
};

describe('create_plan, kind option-legs', () => {
  it('previews the legs in words with the net premium now, then confirm sends it once', async () => {
    const { client, sent } = await serve(['read', 'trade']);
    const preview = (await callTool(client, 'create_plan', STRADDLE)).structuredContent!;
    expect(preview.summary).toBe(
      'Sell 1 lot (65) NIFTY08DEC26C25000 at a protected limit about ₹79.45 and sell 1 lot (65) NIFTY08DEC26P25000 at a protected limit about ₹79.45 together; net premium received ₹158.90 a unit; close every leg when the move is 40 points against or 25% for. Product M (NRML).',
    );
    expect(preview.rulesChecked).toContain(
      'the entry of NFO:NIFTY08DEC26C25000 now: sell 65 limit 75.50 (LMT, product M), placed together',
    );
    expect(sent.map((s) => [s.request.operation, s.flags.dryRun === true])).toEqual([['CreatePlan', true]]);
    expect(sent[0]!.request.body).toEqual(SENT);

    const done = (await callTool(client, 'confirm', { confirmationId: preview.confirmationId })).structuredContent!;
    expect(done).toMatchObject({ confirmed: true, result: { planId: 'pl0123456789abcdef', state: 'entry-placed' } });
    await callTool(client, 'confirm', { confirmationId: preview.confirmationId });
    const creates = sent.filter((s) => s.request.operation === 'CreatePlan' && !s.flags.dryRun);
    expect(creates).toHaveLength(1);
    expect(creates[0]!.request.body).toEqual(SENT);
    expect(creates[0]!.flags.idempotencyKey).toEqual(expect.any(String));
  });

  it('says a SENSEX leg on BFO and a debit as premium paid', async () => {
    const { client, sent } = await serve(['read', 'trade']);
    const spread = {
      ...STRADDLE,
      legs: [
        { tsym: 'SENSEX10DEC26C82000', trantype: 'B', lots: 2 },
        { tsym: 'SENSEX10DEC26C82500', trantype: 'S', lots: 1 },
      ],
    };
    const preview = (await callTool(client, 'create_plan', spread)).structuredContent!;
    expect((sent[0]!.request.body!.legs as { exch: string }[]).map((l) => l.exch)).toEqual(['BFO', 'BFO']);
    expect(preview.summary).toContain('Buy 2 lots (130) SENSEX10DEC26C82000');
    expect(preview.summary).toContain('net premium paid ₹79.45 a unit');
  });

  it("holds each leg to the assistant's limits as an order of its own", async () => {
    const { client, sent } = await serve(['read', 'trade'], { maxQtyPerOrder: 100 });
    const ok = (await callTool(client, 'create_plan', STRADDLE)).structuredContent!;
    expect(ok.confirmationId).toEqual(expect.any(String));
    expect(ok.rulesChecked).toContain('quantity at most 100 per order');
    const big = { ...STRADDLE, legs: [STRADDLE.legs[0], { ...STRADDLE.legs[1], lots: 2 }] };
    const answer = (await callTool(client, 'create_plan', big)).structuredContent!;
    expect(answer.reason).toBe(
      "the legs plan's entry of NIFTY08DEC26P25000: quantity 130 is over this assistant's most per order (100)",
    );
    expect(sent.filter((s) => !s.flags.dryRun)).toEqual([]);
  });

  it("holds each leg's value (its limit now × quantity) to maxValuePerOrder, naming both; its product said", async () => {
    const { client, sent } = await serve(['read', 'trade'], { maxValuePerOrder: 4000 });
    const answer = (await callTool(client, 'create_plan', { ...STRADDLE, prd: 'H' })).structuredContent!;
    expect(answer.reason).toBe(
      "the legs plan's entry of NIFTY08DEC26C25000: value ₹4,907.5 (quantity 65 × 75.5) is over this assistant's most per order (₹4,000)",
    );
    expect(sent.map((s) => [s.flags.dryRun === true, s.request.body!.prd])).toEqual([[true, 'H']]);
    const within = await serve(['read', 'trade'], { maxValuePerOrder: 5000 });
    const preview = (await callTool(within.client, 'create_plan', { ...STRADDLE, prd: 'H' })).structuredContent!;
    expect(preview.summary).toMatch(/25% for\. Product H \(cover\)\.$/);
    // Each leg is an order placed at creation: its value is known now, and the body carries no maxValue.
    expect(within.sent[0]!.request.body).not.toHaveProperty('maxValue');
  });

  it('refuses an exit-only assistant before anything is read: the legs open a position', async () => {
    const { client, sent } = await serve(['read', 'exit']);
    const answer = await callTool(client, 'create_plan', STRADDLE);
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent!.reason).toMatch(
      /^EXIT_ONLY: an option-legs plan places an entry that opens a position/,
    );
    expect(sent).toEqual([]);
  });

  it("names an option entry's field on a legs plan, and what a legs plan takes", async () => {
    const { client, sent } = await serve(['read', 'trade']);
    const answer = await callTool(client, 'create_plan', { ...STRADDLE, lots: 2 });
    expect(answer.isError).toBe(true);
    expect(JSON.stringify(answer.content)).toContain(
      'lots is not a field of an option-legs plan; it takes legs (2 to 4 of {tsym, trantype, lots})',
    );
    const missing = await callTool(client, 'create_plan', { ...STRADDLE, legs: undefined });
    expect(JSON.stringify(missing.content)).toContain('an option-legs plan needs legs');
    expect(sent).toEqual([]);
  });
});
