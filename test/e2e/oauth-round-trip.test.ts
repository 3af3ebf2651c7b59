/**
 * The OAuth round trip exactly as a trader runs it against `npm start`: start -> the broker's authorize page (the
 * emulator's) -> its redirect to the local callback -> a new token in the local session secret -> an order with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScript, type Started } from '../support/processes.js';

let started: Started;
let api: string;
let emulator: string;

beforeAll(async () => {
  started = await startScript(
    'local/start.ts',
    ['--port', '0'],
    /gtt-gateway local API\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*broker emulator\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*OAuth login/,
  );
  api = started.match[1]!;
  emulator = started.match[2]!;
}, 30_000);

afterAll(async () => {
  await started?.stop();
});

describe('npm start: OAuth on loopback', () => {
  it('start -> authorize -> callback stores a new token (once per link), and orders go through', async () => {
    expect(started.output()).toContain('/session/oauth/callback');
    const start = (await (await fetch(`${api}/session/oauth/start`)).json()) as { authorizeUrl: string; state: string };
    expect(start.authorizeUrl.startsWith(`${emulator}/OAuthlogin/authorize/oauth?`)).toBe(true);

    // The broker's page, signed in (the emulator's form posts back with auto=1), redirects to our callback.
    const login = await fetch(`${start.authorizeUrl}&uid=DEMO01&auto=1`, { redirect: 'manual' });
    expect(login.status).toBe(302);
    const callback = new URL(login.headers.get('location')!);
    expect(`${callback.origin}${callback.pathname}`).toBe(`${api}/session/oauth/callback`);
    expect(callback.searchParams.get('state')).toBe(start.state);

    const page = await fetch(callback, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Broker session renewed');
    // The same link again is refused.
    expect((await fetch(callback)).status).toBe(400);
    // The new session is announced on the lifecycle bus (npm start prints each event), without the token.
    for (let i = 0; i < 50 && !/event +Session Renewed +oauth/.test(started.output()); i++) await new Promise((r) => setTimeout(r, 50));
    expect(started.output()).toMatch(/event +Session Renewed +oauth +\(gateway, [0-9a-f]{12}\)/);

    const log = (await (await fetch(`${emulator}/_emulator/requests`)).json()) as { requests: { operation: string | null; reply: unknown }[] };
    expect(log.requests.filter((r) => r.operation === 'GenAcsTok')).toHaveLength(1);

    const placed = await fetch(`${api}/gtt-orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'oauth-e2e-1' },
      body: JSON.stringify({ exch: 'NSE', tsym: 'M&M-EQ', qty: 1, prc: '1500', prd: 'C', trantype: 'B', prctyp: 'LMT', ret: 'DAY', ai_t: 'LTP_B_O', d: '1490' }),
    });
    expect(placed.status).toBe(201);
  });
});
