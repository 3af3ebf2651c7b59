/**
 * `confirm` (mcp/confirm-tool.ts) in one process: the server of mcp/ with its in-memory store, over the SDK's
 * in-memory transport, in front of a recording gateway port (what reached the gateway, and when). A refused confirm
 * spends nothing; only the first confirm of an id sends, a placing one counted against the day before it is sent;
 * every later confirm sends nothing: it replays the first's answer (an order, a gateway error, the day's limit), or
 * says the first has not answered yet.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';

import { GttGatewayError } from '../../client/errors.js';
import { MemoryConfirmationStore } from '../../mcp/confirmations.js';
import type { GatewayPort, GatewayRequest } from '../../mcp/port.js';
import { createMcpServer, type OrderQuota } from '../../mcp/server.js';
import { callTool, PLACE } from '../support/mcp-tools.js';

/**
 * A gateway port that records what was sent (dry runs and the preview's reads of the kill switch, off, and the
 * quote apart) and
 * answers each place with a new al_id.
 */
const recordingPort = (answer?: (n: number) => Promise<unknown>) => {
  const sent: GatewayRequest[] = [];
  const port: GatewayPort = {
    call: async (request, flags = {}) => {
      if (flags.dryRun) return { dryRun: true };
      if (request.operation === 'GetKillSwitch') return { halted: false };
      if (request.operation === 'GetQuote') return { lp: '1500', precision: 2 };
      sent.push(request);
      return answer ? answer(sent.length) : { al_id: String(sent.length), idempotency: { replayed: false } };
    },
  };
  return { port, sent };
};

/** The day's counter as the registry keeps it: taken only while under `max`. */
const dayQuota = (max: number, fail = false) => {
  let count = 0;
  const quota: OrderQuota = {
    ordersToday: () => Promise.resolve(count),
    take: () =>
      fail ? Promise.reject(new Error('table unreachable')) : Promise.resolve(count < max ? ++count : undefined),
  };
  return { quota, count: () => count };
};

const connect = async (port: GatewayPort, quota?: OrderQuota) => {
  const server = createMcpServer(port, {
    scopes: ['read', 'trade'],
    confirmations: new MemoryConfirmationStore(),
    limits: { maxOrdersPerDay: 1 },
    ...(quota ? { quota } : {}),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'confirm-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
};
const preview = async (client: Client, qty = 1) =>
  (await callTool(client, 'place_gtt', { ...PLACE, qty })).structuredContent!;
const confirm = async (client: Client, confirmationId: unknown, requestHash?: string) =>
  (await callTool(client, 'confirm', { confirmationId, ...(requestHash ? { requestHash } : {}) })).structuredContent!;

describe('confirm', () => {
  it('limit 1: four previews each refused for a wrong hash, then confirmed plainly: one order sent', async () => {
    const { port, sent } = recordingPort();
    const day = dayQuota(1);
    const client = await connect(port, day.quota);
    const previews = [
      await preview(client, 1),
      await preview(client, 2),
      await preview(client, 3),
      await preview(client, 4),
    ];
    for (const p of previews)
      expect(await confirm(client, p.confirmationId, 'f'.repeat(64))).toMatchObject({ refused: true });
    expect(sent).toEqual([]);
    const answers = [];
    for (const p of previews) answers.push(await confirm(client, p.confirmationId));
    expect(answers[0]).toMatchObject({ confirmed: true, replayed: false, result: { al_id: '1' } });
    for (const a of answers.slice(1))
      expect(a).toMatchObject({ refused: true, reason: expect.stringContaining('most orders') });
    // Again, each: its first answer replayed, nothing sent.
    for (const [i, p] of previews.entries())
      expect(await confirm(client, p.confirmationId)).toEqual({ ...answers[i], replayed: true });
    expect(sent).toHaveLength(1);
    expect(day.count()).toBe(1);
  });

  it('a confirm while the first is in flight sends nothing; once it answered, its answer is replayed', async () => {
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { port, sent } = recordingPort(async (n) => {
      started();
      await gate;
      return { al_id: String(n), idempotency: { replayed: false } };
    });
    const client = await connect(port, dayQuota(5).quota);
    const p = await preview(client);
    const first = confirm(client, p.confirmationId);
    await inFlight;
    expect(await confirm(client, p.confirmationId)).toMatchObject({
      refused: true,
      reason: expect.stringContaining('has not answered yet'),
    });
    release();
    expect(await first).toMatchObject({ confirmed: true, replayed: false, result: { al_id: '1' } });
    expect(await confirm(client, p.confirmationId)).toMatchObject({
      confirmed: true,
      replayed: true,
      result: { al_id: '1' },
    });
    expect(sent).toHaveLength(1);
  });

  it("replays the first confirm's gateway error (outcome unknown) and never sends it again", async () => {
    const { port, sent } = recordingPort(() =>
      Promise.reject(
        new GttGatewayError({
          code: 'BROKER_UNAVAILABLE',
          message: 'lost',
          status: 502,
          outcome: 'unknown',
          operation: 'PlaceGTTOrder',
        }),
      ),
    );
    const client = await connect(port);
    const p = await preview(client);
    const first = await confirm(client, p.confirmationId);
    expect(first).toMatchObject({ error: { code: 'BROKER_UNAVAILABLE', outcome: 'unknown' } });
    expect(await confirm(client, p.confirmationId)).toEqual({ ...first, replayed: true });
    expect(sent).toHaveLength(1);
  });

  it('a day that cannot be counted sends nothing, and a later confirm replays that refusal', async () => {
    const { port, sent } = recordingPort();
    const client = await connect(port, dayQuota(5, true).quota);
    const p = await preview(client);
    expect(await confirm(client, p.confirmationId)).toMatchObject({
      refused: true,
      reason: expect.stringContaining('could not be counted: nothing was sent'),
    });
    expect(await confirm(client, p.confirmationId)).toMatchObject({ refused: true, replayed: true });
    expect(sent).toEqual([]);
  });
});
