/**
 * The MCP server as an assistant reaches it: `npm start` as a child process, and an SDK Client spawning
 * `node --import tsx mcp/stdio.ts --url <npm start>` over stdio. It lists the tools with their annotations, reads the
 * pending GTTs, previews a place (nothing reaches the emulator), confirms it (one GTT), confirms again (replayed,
 * still one), and is refused an unknown id; cancels through a preview; turns the kill switch on at once and off only
 * once confirmed; a read-only server lists no write tool and refuses one called by name. `--scope exit` (or
 * GTT_MCP_SCOPE=exit) holds every write to the exit-only rule, as an assistant token's scopes do remotely: a place
 * that opens a position and the day's limits are refused with the reason, nothing sent; the kill switch goes on.
 * Expiry and an altered request are shown on the same server built in this process with a clock of the test's own.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createGttClient } from '../../client/client.js';
import { MemoryConfirmationStore } from '../../mcp/confirmations.js';
import { clientPort } from '../../mcp/port.js';
import { READ_TOOL_NAMES } from '../../mcp/read-tools.js';
import { createMcpServer } from '../../mcp/server.js';
import { WRITE_TOOL_NAMES } from '../../mcp/write-tools.js';
import { callTool as call, emulatorOfBanner, PLACE } from '../support/mcp-tools.js';
import { type Started, startNpmStart } from '../support/processes.js';

let started: Started;
let baseUrl: string;
const clients: Client[] = [];

const stdioClient = async (extra: string[] = [], env: Record<string, string> = {}): Promise<Client> => {
  const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'mcp/stdio.ts', '--url', baseUrl, ...extra],
      env: { ...(process.env as Record<string, string>), POWERTOOLS_LOG_LEVEL: 'SILENT', ...env },
      stderr: 'pipe',
    }),
  );
  clients.push(client);
  return client;
};

let pending: () => Promise<{ al_id: string }[]>;

beforeAll(async () => {
  started = await startNpmStart();
  baseUrl = started.match[1]!;
  ({ pending } = emulatorOfBanner(started.output()));
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await started?.stop();
});

describe('the MCP server over stdio against npm start', () => {
  let trader: Client;
  let placed: string;

  it('lists every tool with its annotations: reads read-only, writes not', async () => {
    trader = await stdioClient();
    const { tools } = await trader.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOL_NAMES, ...WRITE_TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toMatchObject({ readOnlyHint: READ_TOOL_NAMES.includes(tool.name) });
    }
    expect(tools.find((t) => t.name === 'cancel_gtt')?.annotations).toMatchObject({ destructiveHint: true });
    expect(tools.find((t) => t.name === 'place_gtt')?.description).toContain('Nothing is sent on this call');
  });

  it('reads the pending GTTs, previews a place without sending it, confirms it once, and replays a second confirm', async () => {
    const before = await pending();
    const list = await call(trader, 'pending_gtts');
    expect(list.isError).toBeFalsy();
    expect(Array.isArray(list.structuredContent?.orders)).toBe(true);

    const preview = await call(trader, 'place_gtt', PLACE);
    expect(preview.isError).toBeFalsy();
    const p = preview.structuredContent!;
    // The order, then the market beside it (the last price, the trigger's distance, the tag).
    expect(p.summary).toMatch(
      /^Place a GTT on NSE:INFY-EQ: when the price falls below 1490, buy 1 limit 1500 \(LMT, product C\)\. Last price of NSE:INFY-EQ.*; no tag\.$/,
    );
    expect(p.request).toEqual({ operation: 'PlaceGTTOrder', body: PLACE });
    expect(p.dryRun).toMatchObject({ dryRun: true, request: { jData: { tsym: 'INFY-EQ' } } });
    expect(p.rulesChecked).toEqual(expect.arrayContaining([expect.stringContaining('exchange rules of NSE:INFY-EQ')]));
    expect(p.requestHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await pending()).toHaveLength(before.length);

    const first = await call(trader, 'confirm', { confirmationId: p.confirmationId, requestHash: p.requestHash });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ confirmed: true, operation: 'PlaceGTTOrder', replayed: false });
    const alId = (first.structuredContent!.result as { al_id: string }).al_id;
    expect((await pending()).filter((o) => o.al_id === alId)).toHaveLength(1);
    expect(await pending()).toHaveLength(before.length + 1);

    const again = await call(trader, 'confirm', { confirmationId: p.confirmationId });
    expect(again.structuredContent).toMatchObject({ confirmed: true, replayed: true, result: { al_id: alId } });
    expect(await pending()).toHaveLength(before.length + 1);
    placed = alId;
  });

  it('cancels through a preview; the kill switch goes on at once and off only once confirmed', async () => {
    const cancel = (await call(trader, 'cancel_gtt', { alId: placed })).structuredContent!;
    expect(cancel.summary).toMatch(new RegExp(`^Cancel GTT/OCO ${placed}\\. Last price of NSE:INFY-EQ`));
    expect((await pending()).map((o) => o.al_id)).toContain(placed);
    const cancelled = await call(trader, 'confirm', { confirmationId: cancel.confirmationId });
    expect(cancelled.structuredContent).toMatchObject({ confirmed: true, operation: 'CancelGTTOrder' });
    expect((await pending()).map((o) => o.al_id)).not.toContain(placed);

    expect((await call(trader, 'kill_switch_on')).structuredContent).toMatchObject({ halted: true });
    const off = (await call(trader, 'kill_switch_off')).structuredContent!;
    expect(off.summary).toContain('kill switch OFF');
    expect((await call(trader, 'kill_switch_status')).structuredContent).toMatchObject({ halted: true });
    await call(trader, 'confirm', { confirmationId: off.confirmationId });
    expect((await call(trader, 'kill_switch_status')).structuredContent).toMatchObject({ halted: false });
  });

  it('refuses a confirm of an id it never issued, and nothing is sent', async () => {
    const before = await pending();
    const unknown = await call(trader, 'confirm', { confirmationId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toMatchObject({ refused: true, reason: expect.stringContaining('preview') });
    expect(await pending()).toHaveLength(before.length);
  });

  it('a read-only server lists no write tool and refuses one called by name', async () => {
    const reader = await stdioClient(['--read-only']);
    const names = (await reader.listTools()).tools.map((t) => t.name);
    expect(names.sort()).toEqual([...READ_TOOL_NAMES].sort());
    const before = await pending();
    const write = await call(reader, 'place_gtt', PLACE);
    expect(write.isError).toBe(true);
    expect(JSON.stringify(write.content)).toContain('place_gtt not found');
    expect(await pending()).toHaveLength(before.length);
  });
});

describe('the stdio server started exit-only', () => {
  it('--scope exit refuses a place that opens a position and the settings, and turns the kill switch on', async () => {
    const exit = await stdioClient(['--scope', 'exit']);
    const names = (await exit.listTools()).tools.map((t) => t.name);
    expect(names.sort()).toEqual([...READ_TOOL_NAMES, ...WRITE_TOOL_NAMES].sort());
    const before = await pending();
    const opening = (await call(exit, 'place_gtt', PLACE)).structuredContent!;
    expect(opening.refused).toBe(true);
    expect(opening.reason).toMatch(/^EXIT_ONLY: a buy of 1 NSE:INFY-EQ \(product C\) would open a position/);
    expect(opening.confirmationId).toBeUndefined();
    const limits = (await call(exit, 'set_risk_limits', { dayLossLimit: 1000 })).structuredContent!;
    expect(limits.reason).toMatch(/^EXIT_ONLY: SetRiskLimits is not an exit-only write/);
    expect(await pending()).toHaveLength(before.length);
    expect((await call(exit, 'kill_switch_on')).structuredContent).toMatchObject({ halted: true });
    const off = (await call(exit, 'kill_switch_off')).structuredContent!;
    expect(off.reason).toMatch(/^EXIT_ONLY: ReleaseKillSwitch is not an exit-only write/);
    await createGttClient({ baseUrl }).call('ReleaseKillSwitch', {});
  });

  it('GTT_MCP_SCOPE=read lists the reads only; a scope it does not know stops the server', async () => {
    const reader = await stdioClient([], { GTT_MCP_SCOPE: 'read' });
    expect((await reader.listTools()).tools.map((t) => t.name).sort()).toEqual([...READ_TOOL_NAMES].sort());
    await expect(stdioClient(['--scope', 'admin'])).rejects.toThrow();
  });
});

describe('the same server in this process, with a clock of its own', () => {
  it('refuses an expired preview and a changed request; a limit over the cap is refused at the preview', async () => {
    let clock = 1_000_000;
    const server = createMcpServer(clientPort(createGttClient({ baseUrl })), {
      scopes: ['read', 'trade'],
      confirmations: new MemoryConfirmationStore(),
      limits: { maxQtyPerOrder: 5 },
      now: () => clock,
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'in-process', version: '1.0.0' });
    await Promise.all([server.connect(b), client.connect(a)]);
    clients.push(client);
    const before = await pending();

    const expiring = (await call(client, 'place_gtt', PLACE)).structuredContent!;
    clock += 120_001;
    const expired = await call(client, 'confirm', { confirmationId: expiring.confirmationId });
    expect(expired.structuredContent).toMatchObject({ refused: true, reason: expect.stringContaining('expired') });

    const first = (await call(client, 'place_gtt', PLACE)).structuredContent!;
    const changed = (await call(client, 'place_gtt', { ...PLACE, qty: 2 })).structuredContent!;
    expect(changed.requestHash).not.toBe(first.requestHash);
    const altered = await call(client, 'confirm', {
      confirmationId: first.confirmationId,
      requestHash: changed.requestHash,
    });
    expect(altered.structuredContent).toMatchObject({ refused: true, reason: expect.stringContaining('changed') });

    const market = (await call(client, 'place_gtt', { ...PLACE, prctyp: 'MKT', prc: '0' })).structuredContent!;
    expect(market.conversion).toMatch(/^the order: MKT sent as LMT at [\d.]+ \([\d.]+% from 1490, tick 0\.05\)$/);
    expect(market.dryRun).toMatchObject({
      request: { jData: { prctyp: 'LMT' } },
      converted: { from: 'MKT', to: 'LMT' },
    });

    const over = await call(client, 'place_gtt', { ...PLACE, qty: 6 });
    expect(over.structuredContent).toMatchObject({
      refused: true,
      reason: "the order: quantity 6 is over this assistant's most per order (5)",
    });
    expect(await pending()).toHaveLength(before.length);
  });
});
