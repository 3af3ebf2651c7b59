/**
 * The emulator's control surface (`/_emulator/...`) against a browser: a DNS-rebound `Host`, a foreign `Origin`, and
 * the simple requests (form, text/plain) another site can send without a preflight are refused and change nothing.
 * Raw HTTP over 127.0.0.1, so the headers are exactly the ones given.
 */
import http from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import { emulatorControl } from '../support/emulator-control.js';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu?.close();
});

const raw = (
  method: string,
  path: string,
  headers: Record<string, string>,
  body = '',
): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: emu.port,
        method,
        path,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });

const own = () => `127.0.0.1:${emu.port}`;
const json = { 'content-type': 'application/json' };

describe('the control surface refuses what a web page could send', () => {
  it.each([
    ['a DNS-rebound Host', { host: `evil.example:${0}`, ...json }, 403],
    ['a Host on another port', { host: '127.0.0.1:1', ...json }, 403],
    ['a foreign Origin', { host: 'OWN', origin: 'http://evil.example', ...json }, 403],
    ['an opaque Origin (null)', { host: 'OWN', origin: 'null', ...json }, 403],
    ['a form body', { host: 'OWN', 'content-type': 'application/x-www-form-urlencoded' }, 415],
    ['a text/plain body', { host: 'OWN', 'content-type': 'text/plain' }, 415],
  ])('%s: refused, no token minted, no price moved, no fault set', async (_name, headers, status) => {
    const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === 'OWN' ? own() : v]));
    const before = (await emulatorControl(emu.url).requests()).length;
    const minted = await raw('POST', '/_emulator/sessions', h, JSON.stringify({ uid: emu.uid }));
    expect(minted.status).toBe(status);
    expect(minted.body).not.toMatch(/token/);
    expect((await raw('POST', '/_emulator/faults', h, JSON.stringify({ operation: '*', kind: 'drop' }))).status).toBe(
      status,
    );
    expect(
      (await raw('POST', '/_emulator/ltp', h, JSON.stringify({ exch: 'NSE', tsym: 'M&M-EQ', ltp: 1 }))).status,
    ).toBe(status);
    expect((await raw('GET', '/_emulator/requests', { ...h })).status).toBe(status === 415 ? 415 : 403);
    expect(await (await fetch(`${emu.url}/_emulator/faults`)).json()).toMatchObject({ faults: [] });
    expect((await emulatorControl(emu.url).requests()).length).toBe(before);
  });

  it('its own host (127.0.0.1 or localhost), with or without its own Origin, and a JSON body: allowed', async () => {
    for (const host of [own(), `localhost:${emu.port}`]) {
      for (const extra of [{}, { origin: `http://${host}` }] as Record<string, string>[]) {
        const minted = await raw(
          'POST',
          '/_emulator/sessions',
          { host, ...json, ...extra },
          JSON.stringify({ uid: emu.uid }),
        );
        expect(minted.status).toBe(201);
      }
    }
    expect((await raw('POST', '/_emulator/reset', { host: own() })).status).toBe(200);
  });

  it('the broker API itself is not the control surface: it keeps its own rules', async () => {
    const reply = await raw(
      'POST',
      '/NorenWClientTP/ClientDetails',
      { host: 'evil.example', 'content-type': 'text/plain', authorization: `Bearer ${emu.token}` },
      `jData=${JSON.stringify({ uid: emu.uid, actid: emu.actid })}`,
    );
    expect(reply.status).toBe(200);
  });
});
