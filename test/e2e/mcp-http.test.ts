/**
 * The remote MCP server as an assistant that cannot sign reaches it: `POST /mcp` on `npm start` (a child process),
 * an SDK Client over streamable HTTP with an assistant's bearer token from `POST /assistants`. It lists the tools with
 * their annotations, reads the pending GTTs, previews a place (nothing reaches the emulator), confirms it (one GTT),
 * confirms again (replayed, still one), and is refused an altered preview and another assistant's id; a `read`
 * token sees no write tools and a write by name is refused; a limit over the assistant's cap and its orders per day
 * are refused with the reason. Without a valid token, or from a rebinding page's Host, nothing runs.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createGttClient, type GttClient } from '../../client/client.js';
import { READ_TOOL_NAMES } from '../../mcp/read-tools.js';
import { WRITE_TOOL_NAMES } from '../../mcp/write-tools.js';
import { callTool as call, emulatorOfBanner, PLACE } from '../support/mcp-tools.js';
import { CONDITION_BOUND_MS, startWithWebhook, type WebhookRun } from '../support/processes.js';

let run: WebhookRun;
let baseUrl: string;
let gtt: GttClient;
const clients: Client[] = [];

const MCP_ACCEPT = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

const assistant = async (name: string, scopes: ('read' | 'trade')[], limits = {}) =>
  gtt.assistants.create({ name, scopes, limits }, { idempotencyKey: `mcp-http-${name}` });

const httpClient = async (token: string): Promise<Client> => {
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
};

/** The Assistant Action events the webhook received so far (their details). */
const actions = () =>
  run.received
    .map((r) => r.body as { 'detail-type'?: string; detail?: Record<string, unknown> })
    .filter((e) => e['detail-type'] === 'Assistant Action')
    .map((e) => e.detail!);

/** Waits (at most CONDITION_BOUND_MS) until `count` Assistant Action events matching `shape` arrived. */
const actionsLike = async (shape: Record<string, unknown>, count = 1) => {
  const deadline = Date.now() + CONDITION_BOUND_MS;
  const matching = () => actions().filter((d) => Object.entries(shape).every(([k, v]) => d[k] === v));
  while (matching().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return matching();
};

let pending: () => Promise<{ al_id: string }[]>;

beforeAll(async () => {
  // Its Assistant Action events posted to a loopback webhook, as a deployment's bus would route them.
  run = await startWithWebhook({ NOTIFY_ON: 'Assistant Action' });
  baseUrl = run.started.match[1]!;
  ({ pending } = emulatorOfBanner(run.started.output()));
  gtt = createGttClient({ baseUrl });
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await run?.stop();
});

describe('POST /mcp on npm start, with an assistant token', () => {
  let trader: Client;
  let traderToken: string;

  it('refuses a request without a token, with a wrong one, and from a rebinding Host, before any tool runs', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const none = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers: MCP_ACCEPT, body: ping });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(((await none.json()) as { error: { message: string } }).error.message).toContain('assistant-create');
    const wrong = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: { ...MCP_ACCEPT, authorization: `Bearer gtta_${'A'.repeat(43)}` },
      body: ping,
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain('A'.repeat(43));

    const created = await assistant('rebind-check', ['read']);
    // node's fetch will not send a Host of its own: the request is made raw.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${baseUrl}/mcp`,
        {
          method: 'POST',
          headers: { ...MCP_ACCEPT, host: 'evil.example:80', authorization: `Bearer ${created.token}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(ping);
    });
    expect(status).toBe(403);
  });

  it('lists every tool with its annotations for a trade token: reads read-only, writes not', async () => {
    const created = await assistant('claude-trade', ['read', 'trade'], { maxQtyPerOrder: 5, maxOrdersPerDay: 2 });
    traderToken = created.token;
    trader = await httpClient(traderToken);
    const { tools } = await trader.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOL_NAMES, ...WRITE_TOOL_NAMES].sort());
    for (const tool of tools)
      expect(tool.annotations).toMatchObject({ readOnlyHint: READ_TOOL_NAMES.includes(tool.name) });
    expect(tools.find((t) => t.name === 'cancel_gtt')?.annotations).toMatchObject({ destructiveHint: true });
  });

  it('reads the pending GTTs, previews a place without sending it, confirms it once, and replays a second confirm', async () => {
    const before = await pending();
    const list = await call(trader, 'pending_gtts');
    expect(list.isError).toBeFalsy();
    expect(Array.isArray(list.structuredContent?.orders)).toBe(true);

    const preview = (await call(trader, 'place_gtt', PLACE)).structuredContent!;
    // The order, then the market beside it (the last price, the trigger's distance, the tag).
    expect(preview.summary).toMatch(
      /^Place a GTT on NSE:INFY-EQ: when the price falls below 1490, buy 1 limit 1500 \(LMT, product C\)\. Last price of NSE:INFY-EQ.*; no tag\.$/,
    );
    expect(preview.rulesChecked).toEqual(
      expect.arrayContaining(['quantity at most 5 per order', 'orders today: 0 of at most 2']),
    );
    expect(await pending()).toHaveLength(before.length);

    const first = await call(trader, 'confirm', { confirmationId: preview.confirmationId });
    expect(first.structuredContent).toMatchObject({ confirmed: true, operation: 'PlaceGTTOrder', replayed: false });
    const alId = (first.structuredContent!.result as { al_id: string }).al_id;
    expect((await pending()).filter((o) => o.al_id === alId)).toHaveLength(1);

    // A new connection (another request, another container deployed): the preview is in the table, not in memory.
    const again = await call(await httpClient(traderToken), 'confirm', { confirmationId: preview.confirmationId });
    expect(again.structuredContent).toMatchObject({ confirmed: true, replayed: true, result: { al_id: alId } });
    expect(await pending()).toHaveLength(before.length + 1);

    // Each act is an event naming the assistant, its preview and the order it placed.
    const named = { assistantName: 'claude-trade', confirmationId: preview.confirmationId, alId };
    expect(await actionsLike({ ...named, outcome: 'done' })).toEqual([
      expect.objectContaining({ tool: 'confirm', operation: 'PlaceGTTOrder', summary: preview.summary }),
    ]);
    expect(await actionsLike({ ...named, outcome: 'replayed' })).toHaveLength(1);
  });

  it("refuses an altered preview, another assistant's preview, a limit over its cap, and its orders past the day's", async () => {
    const before = await pending();
    const first = (await call(trader, 'place_gtt', PLACE)).structuredContent!;
    const changed = (await call(trader, 'place_gtt', { ...PLACE, qty: 2 })).structuredContent!;
    const altered = await call(trader, 'confirm', {
      confirmationId: first.confirmationId,
      requestHash: changed.requestHash,
    });
    expect(altered.structuredContent).toMatchObject({ refused: true, reason: expect.stringContaining('changed') });

    const other = await httpClient((await assistant('other-trader', ['read', 'trade'])).token);
    const stolen = await call(other, 'confirm', { confirmationId: changed.confirmationId });
    expect(stolen.structuredContent).toMatchObject({ refused: true, reason: expect.stringContaining('No preview') });

    const over = await call(trader, 'place_gtt', { ...PLACE, qty: 6 });
    expect(over.structuredContent).toMatchObject({
      refused: true,
      reason: "the order: quantity 6 is over this assistant's most per order (5)",
    });
    expect(await pending()).toHaveLength(before.length);

    // The second order of the day (of 2) is placed; a preview already made for a third is refused at its confirm.
    const third = (await call(trader, 'place_gtt', { ...PLACE, qty: 3 })).structuredContent!;
    const second = await call(trader, 'confirm', { confirmationId: changed.confirmationId });
    expect(second.structuredContent).toMatchObject({ confirmed: true, replayed: false });
    const refusedAtConfirm = await call(trader, 'confirm', { confirmationId: third.confirmationId });
    expect(refusedAtConfirm.structuredContent).toMatchObject({
      refused: true,
      reason: expect.stringContaining('most orders for today (2)'),
    });
    // Confirmed again: its first answer replayed, nothing sent (never an order placed uncounted).
    const retried = await call(trader, 'confirm', { confirmationId: third.confirmationId });
    expect(retried.structuredContent).toMatchObject({
      refused: true,
      replayed: true,
      reason: expect.stringContaining('most orders for today (2)'),
    });
    expect(
      await actionsLike({ confirmationId: third.confirmationId, outcome: 'refused', operation: 'PlaceGTTOrder' }),
    ).toEqual([expect.objectContaining({ reason: expect.stringContaining('most orders for today') })]);
    expect(await actionsLike({ confirmationId: third.confirmationId, outcome: 'replayed' })).toHaveLength(1);
    const fourth = await call(trader, 'place_gtt', PLACE);
    expect(fourth.structuredContent).toMatchObject({
      refused: true,
      reason: expect.stringContaining('placed 2 orders today, its most per day (2)'),
    });
    expect(await pending()).toHaveLength(before.length + 1);
  });

  it('a read token lists no write tool and a write called by name is refused', async () => {
    const reader = await httpClient((await assistant('claude-read', ['read'])).token);
    const names = (await reader.listTools()).tools.map((t) => t.name);
    expect(names.sort()).toEqual([...READ_TOOL_NAMES].sort());
    const before = await pending();
    const write = await call(reader, 'place_gtt', PLACE);
    expect(write.isError).toBe(true);
    expect(JSON.stringify(write.content)).toContain('place_gtt not found');
    expect(await pending()).toHaveLength(before.length);
  });
});
