/**
 * The local HTTP API (`npm start`): every answer of its own is inside the error contract, and a web page in a
 * browser cannot drive the sandbox (cross-site simple requests, foreign origins, DNS rebinding).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { ERROR_CATALOG } from '../../functions/base/contract/errors.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let port: number;

const order = { ...SAMPLE_ORDER, qty: 2 };

interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** A raw HTTP/1.1 request with full control over the path and the headers (fetch normalises both). */
const raw = (
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<RawReply> =>
  new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { host: `127.0.0.1:${port}`, ...headers },
        setHost: false,
        timeout: 60_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });

const expectContract = (reply: RawReply, status: number, code: string) => {
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(reply.text) as { error: { code: string; message: string } };
  expect(body.error).toMatchObject({ code, message: expect.any(String) });
  expect(ERROR_CATALOG[code as keyof typeof ERROR_CATALOG].status).toBe(status);
  return body.error;
};

beforeAll(async () => {
  stack = await startLocalStack({ settings: { IDEMPOTENCY_KEY_REQUIRED: false } });
  port = stack.api.port;
  control = emulatorControl(stack.emulator.url);
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(async () => {
  await control.reset();
});

describe('8. the local API answers inside the error contract', () => {
  it('a body over 1 MB: 413 PAYLOAD_TOO_LARGE, not a reset connection', async () => {
    const big = JSON.stringify({ ...order, tsym: 'x'.repeat(2 * 1024 * 1024) });
    const reply = await fetch(`${stack.api.url}/gtt-orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(reply.status).toBe(413);
    expect(await reply.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) } });
    expect(await control.requests()).toEqual([]);
  });

  it('a body over 1 MB sent in chunks without a length: 413 too', async () => {
    const reply = await raw(
      'POST',
      '/gtt-orders',
      { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      Buffer.alloc(3 * 1024 * 1024, 0x20),
    );
    expectContract(reply, 413, 'PAYLOAD_TOO_LARGE');
  });

  it.each(['/gtt-orders/%', '/gtt-orders/%zz', '/gtt-orders/%E0%A4%A'])(
    'DELETE %s: 400 VALIDATION_FAILED',
    async (path) => {
      const error = expectContract(await raw('DELETE', path), 400, 'VALIDATION_FAILED');
      expect(error).toMatchObject({ details: [{ field: 'alId', message: expect.any(String) }] });
      expect(await control.requests()).toEqual([]);
    },
  );
});

describe('11. a web page cannot drive the sandbox', () => {
  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx'])(
    'a body sent as %s: 415 UNSUPPORTED_MEDIA_TYPE, nothing placed',
    async (contentType) => {
      const reply = await raw('POST', '/gtt-orders', { 'content-type': contentType }, JSON.stringify(order));
      expectContract(reply, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(await control.requests()).toEqual([]);
    },
  );

  it('a body without a Content-Type: 415', async () => {
    expectContract(await raw('POST', '/gtt-orders', {}, JSON.stringify(order)), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectContract(
      await raw('POST', '/_invoke/PlaceGTTOrder', { 'content-type': 'text/plain' }, JSON.stringify(order)),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('a form POST to logout: refused, the session survives', async () => {
    expectContract(
      await raw('POST', '/session/logout', { 'content-type': 'application/x-www-form-urlencoded' }, ''),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expect((await fetch(`${stack.api.url}/client`)).status).toBe(200);
  });

  it.each(['https://evil.example', 'null', `http://127.0.0.1:${1}`, 'http://localhost.evil.example'])(
    'Origin %s: 403 REQUEST_FORBIDDEN',
    async (origin) => {
      const reply = await raw('POST', '/session/logout', { origin });
      expectContract(reply, 403, 'REQUEST_FORBIDDEN');
      expectContract(await raw('GET', '/gtt-orders', { origin }), 403, 'REQUEST_FORBIDDEN');
      expect(await control.requests()).toEqual([]);
    },
  );

  it('the local API itself as Origin is allowed', async () => {
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      const reply = await raw(
        'POST',
        '/gtt-orders?dryRun=true',
        { origin, 'content-type': 'application/json' },
        JSON.stringify(order),
      );
      expect(reply.status).toBe(200);
    }
  });

  it.each(['evil.example', `evil.example:${1}`, 'attacker.test:80', '127.0.0.1:1', ''])(
    'Host %j (DNS rebinding): 403',
    async (host) => {
      expectContract(await raw('GET', '/gtt-orders', { host }), 403, 'REQUEST_FORBIDDEN');
    },
  );

  it('Host 127.0.0.1:<port> and localhost:<port> are served', async () => {
    expect((await raw('GET', '/gtt-orders', { host: `127.0.0.1:${port}` })).status).toBe(200);
    expect((await raw('GET', '/gtt-orders', { host: `localhost:${port}` })).status).toBe(200);
  });

  it('curl-style requests keep working: DELETE and logout without a body need no Content-Type', async () => {
    expect((await raw('DELETE', '/gtt-orders/999')).status).toBe(404);
    expect((await raw('GET', '/openapi.json')).status).toBe(200);
  });
});

describe('7. npm start logs at WARN from the first line', () => {
  it('serves requests without writing INFO access lines', async () => {
    const env = { ...process.env };
    delete env.POWERTOOLS_LOG_LEVEL;
    delete env.LOG_LEVEL;
    delete env.AWS_LAMBDA_LOG_LEVEL;
    const child = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      // Its ready line, waited for within one generous bound (npm start took 32 s on two cores under load).
      const deadline = Date.now() + 120_000;
      let match: RegExpExecArray | null = null;
      while (
        !(match = /gtt-gateway local API\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Try:/.exec(out)) &&
        Date.now() < deadline
      ) {
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(match, out).not.toBeNull();
      const base = match![1]!;
      for (let i = 0; i < 20; i++) expect((await fetch(`${base}/gtt-orders`)).status).toBe(200);
      expect((await fetch(`${base}/gtt-orders?dryRun=true`)).status).toBe(400);
      // A failure still is logged (WARN): waited for, so the lines of the requests above are all written by then.
      const logged = Date.now() + 60_000;
      while (!/"level":"WARN"/.test(out) && Date.now() < logged) await new Promise((r) => setTimeout(r, 100));
      expect(out).toMatch(/"level":"WARN"/);
      expect(out).not.toMatch(/"level":"INFO"/);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
