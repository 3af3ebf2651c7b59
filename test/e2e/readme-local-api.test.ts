/**
 * `npm start` as a user runs it (a child process running `local/start.ts`), then the README's curl block exactly as
 * written, with only the port changed.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readmeBlock, READY_BOUND_MS, type Started, startNpmStart } from '../support/processes.js';

const run = promisify(execFile);
let started: Started;
let baseUrl: string;

beforeAll(async () => {
  started = await startNpmStart();
  baseUrl = started.match[1]!;
});

afterAll(async () => {
  await started?.stop();
});

describe('README: npm start and the curl lines', () => {
  it('prints its routes and serves the OpenAPI document', async () => {
    expect(started.output()).toMatch(/POST\s+\/gtt-orders\s+PlaceGTTOrder/);
    expect(started.output()).toMatch(/POST\s+\/kill-switch\s+KillSwitch/);
    expect(started.output()).toMatch(/GET\s+\/events\s+EventsHistory/);
    expect(started.output()).toMatch(/POST\s+\/signals\/\{id\}\s+SignalWebhook/);
    expect(started.output()).toMatch(/Signals\s+http:\/\/127\.0\.0\.1:\d+\/signals\/<token>/);
    expect(started.output()).toMatch(
      /Trading rules\s+8\/s and 120\/min per account; market orders: convert; algo id: none/,
    );
    const doc = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/assistants',
      '/assistants/{assistantId}',
      '/assistants/{assistantId}/token',
      '/client',
      '/events',
      '/gtt-orders',
      '/gtt-orders/enabled',
      '/gtt-orders/oco',
      '/gtt-orders/oco/{alId}',
      '/gtt-orders/triggered',
      '/gtt-orders/{alId}',
      '/kill-switch',
      '/mcp',
      '/options',
      '/orders',
      '/plans',
      '/plans/{planId}',
      '/positions',
      '/positions/close',
      '/positions/coverage',
      '/quotes',
      '/quotes/series',
      '/risk',
      '/session',
      '/session/logout',
      '/session/oauth/callback',
      '/session/oauth/start',
      '/signals',
      '/signals/{id}',
      '/strategies',
      '/strategies/{strategyId}',
      '/strategies/{strategyId}/token',
    ]);
  });

  it("the README's tour: one place, and the same line again replays it", async () => {
    const script = readmeBlock('tour').replaceAll('http://127.0.0.1:3000', baseUrl);
    const first = JSON.parse(
      (await run('bash', ['-euo', 'pipefail', '-c', script], { timeout: READY_BOUND_MS })).stdout,
    ) as Record<string, unknown>;
    const again = JSON.parse(
      (await run('bash', ['-euo', 'pipefail', '-c', script], { timeout: READY_BOUND_MS })).stdout,
    ) as Record<string, unknown>;
    expect(first).toMatchObject({ stat: 'OI created', idempotency: { key: 'tour-1', replayed: false } });
    expect(again).toMatchObject({ al_id: first.al_id, idempotency: { key: 'tour-1', replayed: true } });
    // Leave the book empty for the round trip below.
    expect((await fetch(`${baseUrl}/gtt-orders/${String(first.al_id)}`, { method: 'DELETE' })).status).toBe(200);
  });

  it('places, lists, modifies, cancels and logs out', async () => {
    const script = readmeBlock('readme').replace('API=http://127.0.0.1:3000', `API=${baseUrl}`);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { timeout: READY_BOUND_MS });
    const replies = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const [dry, placed, listed, modified, cancelled, client, loggedOut] = replies;
    expect(replies).toHaveLength(7);
    expect(dry).toMatchObject({ dryRun: true, request: { jData: { tsym: 'M%26M-EQ' } } });
    expect(placed).toMatchObject({ stat: 'OI created', idempotency: { key: 'readme-order-1', replayed: false } });
    expect(listed).toMatchObject({ orders: [{ al_id: placed!.al_id, tsym: 'M&M-EQ', qty: 1 }] });
    expect(modified).toMatchObject({ stat: 'OI replaced', al_id: placed!.al_id });
    expect(cancelled).toMatchObject({ stat: 'OI deleted', al_id: placed!.al_id });
    expect(client).toMatchObject({ stat: 'Ok', exarr: expect.any(Array) });
    expect(loggedOut).toMatchObject({ stat: 'Ok' });

    const after = await fetch(`${baseUrl}/gtt-orders`);
    expect(after.status).toBe(503);
    expect(await after.json()).toMatchObject({ error: { code: 'SESSION_EXPIRED' } });
  });

  it('answers unknown routes like API Gateway', async () => {
    const res = await fetch(`${baseUrl}/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not Found' });
  });
});
