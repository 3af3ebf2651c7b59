/**
 * SigV4 as API Gateway checks it: the client signs with fixed credentials against a loopback server that captures
 * the request, and @smithy/signature-v4 (the AWS SDK's signer) recomputes the signature over the captured method,
 * path, query, signed headers and body. Also: what the client does with answers outside the error contract.
 */
import http from 'node:http';

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  createGttClient,
  GttGatewayError,
  type GttOrderInput,
  isLoopbackUrl,
  regionFromUrl,
} from '../../client/index.js';
import { signRequest } from '../../client/signing.js';
import { authorizationOf, type CapturedRequest, recomputeSignature } from '../../local/permissions/sigv4.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

type Captured = CapturedRequest;

const credentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  sessionToken: 'session-token-123',
};
const region = 'ap-south-1';
const order: GttOrderInput = SAMPLE_ORDER;

let server: http.Server;
let baseUrl: string;
let captured: Captured[] = [];
/** What the server answers next: status and body. */
let answer: { status: number; body: unknown; headers?: Record<string, string> } = { status: 200, body: {} };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      captured.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
/** The call's GttGatewayError; a success fails the test. */
const failed = (call: Promise<unknown>): Promise<GttGatewayError> =>
  call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(GttGatewayError);
      return error as GttGatewayError;
    },
  );

beforeEach(() => {
  captured = [];
  answer = { status: 201, body: { stat: 'OI created', al_id: '1', request_time: '10:00:00 01-01-2026' } };
});

/** SHA-256 and HMAC-SHA256 from node:crypto in the shape @smithy/signature-v4 expects (what @smithy/hash-node does). */
/** API Gateway's reading of a request's signature, and the one it recomputes (with `body` in place, if given). */
const authorization = authorizationOf;
const recompute = (request: Captured, body = request.body): Promise<string> =>
  recomputeSignature({ ...request, body }, credentials);

describe('SigV4 signing (API Gateway IAM auth)', () => {
  it('a signed place: @smithy/signature-v4 recomputes the same signature over method, path, headers and body', async () => {
    const client = createGttClient({ baseUrl, sign: true, region, credentials });
    await client.placeOrder(order, { idempotencyKey: 'sig-1' });
    const [request] = captured;
    const auth = authorization(request!);
    expect(auth).toMatchObject({ accessKeyId: credentials.accessKeyId, region, service: 'execute-api' });
    expect(auth.signedHeaders).toEqual(
      expect.arrayContaining(['host', 'x-amz-date', 'x-amz-security-token', 'idempotency-key']),
    );
    expect(request!.headers['x-amz-security-token']).toBe(credentials.sessionToken);
    expect(JSON.parse(request!.body)).toMatchObject({ tsym: 'M&M-EQ', qty: 1 });
    expect(await recompute(request!)).toBe(auth.signature);
  });

  it('a tampered body (or a changed signature) fails that check', async () => {
    const client = createGttClient({ baseUrl, sign: true, region, credentials });
    await client.placeOrder(order, { idempotencyKey: 'sig-2' });
    const [request] = captured;
    const { signature } = authorization(request!);
    expect(await recompute(request!, request!.body.replace('"qty":1', '"qty":100'))).not.toBe(signature);
    expect(await recompute({ ...request!, url: request!.url.replace('/gtt-orders', '/gtt-orders/oco') })).not.toBe(
      signature,
    );
  });

  it('a signed read with a query (tsym with & and -), and a path parameter: both verify', async () => {
    answer = { status: 200, body: { orders: [] } };
    const client = createGttClient({ baseUrl, sign: true, region, credentials });
    await client.listOrders({ tsym: 'M&M-EQ', exch: 'NSE' });
    answer = { status: 200, body: { stat: 'OI deleted', al_id: '123', request_time: 'x' } };
    await client.cancelOrder('123');
    expect(captured[0]!.url).toBe('/gtt-orders?tsym=M%26M-EQ&exch=NSE');
    expect(captured[1]!.method).toBe('DELETE');
    for (const request of captured) expect(await recompute(request)).toBe(authorization(request).signature);
  });

  it('every retry is signed afresh and carries the same Idempotency-Key', async () => {
    answer = { status: 503, body: { message: 'Service Unavailable' } };
    const client = createGttClient({ baseUrl, sign: true, region, credentials, maxAttempts: 3, retryBaseDelayMs: 10 });
    const error = await failed(client.placeOrder(order));
    expect(error).toMatchObject({ code: 'HTTP_ERROR', status: 503, outcome: 'unknown', attempts: 3 });
    expect(new Set(captured.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    for (const request of captured) expect(await recompute(request)).toBe(authorization(request).signature);
  });

  it('credentials from the default chain (here: the environment), loaded only when signing', async () => {
    const client = createGttClient({ baseUrl, sign: true, region });
    await client.placeOrder(order);
    expect(authorization(captured[0]!).accessKeyId).toBe(process.env.AWS_ACCESS_KEY_ID);
  });

  it('an injected credentials provider is asked per request; its failure is CLIENT_CONFIG_ERROR, nothing sent', async () => {
    let asked = 0;
    const ok = createGttClient({
      baseUrl,
      sign: true,
      region,
      credentials: () => Promise.resolve({ ...credentials, accessKeyId: `AKID${++asked}` }),
    });
    await ok.clientDetails().catch(() => undefined);
    await ok.clientDetails().catch(() => undefined);
    expect(captured.map((r) => authorization(r).accessKeyId)).toEqual(['AKID1', 'AKID2']);
    const broken = createGttClient({
      baseUrl,
      sign: true,
      region,
      credentials: () => Promise.reject(new Error('no profile')),
    });
    const error = await failed(broken.placeOrder(order));
    expect(error).toMatchObject({ code: 'CLIENT_CONFIG_ERROR', outcome: 'not_executed', attempts: 1 });
    expect(captured).toHaveLength(2);
  });

  it("'auto': unsigned on loopback (npm start), signed elsewhere with the region of the execute-api host", async () => {
    const local = createGttClient({ baseUrl, credentials });
    expect(local.signing).toBe(false);
    await local.placeOrder(order);
    expect(captured[0]!.headers.authorization).toBeUndefined();

    const seen: Request[] = [];
    const remote = createGttClient({
      baseUrl: 'https://a1b2c3d4e5.execute-api.eu-west-2.amazonaws.com',
      credentials,
      fetch: (request) => {
        seen.push(request);
        return Promise.resolve(Response.json({ stat: 'Ok', request_time: 'x', ai_ts: [] }));
      },
    });
    expect(remote).toMatchObject({ signing: true, region: 'eu-west-2' });
    await remote.enabled();
    expect(seen[0]!.headers.get('authorization')).toMatch(
      /Credential=AKIDEXAMPLE\/\d{8}\/eu-west-2\/execute-api\/aws4_request/,
    );

    expect(regionFromUrl('https://abc.execute-api.ap-south-1.amazonaws.com/prod')).toBe('ap-south-1');
    expect(regionFromUrl('https://gtt.example.com')).toBeUndefined();
    expect(['http://127.0.0.1:3000', 'http://localhost:1', 'http://[::1]:3000'].every(isLoopbackUrl)).toBe(true);
    expect(isLoopbackUrl('https://abc.execute-api.ap-south-1.amazonaws.com')).toBe(false);
  });

  it('never signs for plain http:// to a host other than loopback: refused when the client is made, nothing sent', async () => {
    const seen: Request[] = [];
    const fetchSpy = (request: Request) => (seen.push(request), Promise.resolve(Response.json({})));
    for (const url of [
      'http://gtt.example.com',
      'http://10.0.0.5:3000',
      'http://a1b2c3.execute-api.ap-south-1.amazonaws.com',
    ]) {
      for (const sign of ['auto', true] as const) {
        let error: unknown;
        try {
          createGttClient({ baseUrl: url, sign, region: 'ap-south-1', credentials, fetch: fetchSpy });
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(GttGatewayError);
        expect(error).toMatchObject({ code: 'CLIENT_CONFIG_ERROR' });
        expect((error as Error).message).toMatch(/refusing to SigV4-sign for http:\/\/.*in clear.*Use https:\/\//);
        expect((error as Error).message).not.toContain(credentials.secretAccessKey);
      }
      // Unsigned (a server that checks no signature) it may be: no credentials travel.
      expect(createGttClient({ baseUrl: url, sign: false, fetch: fetchSpy }).signing).toBe(false);
    }
    // The signer itself refuses too, whoever calls it.
    await expect(
      signRequest(new Request('http://gtt.example.com/gtt-orders'), { region: 'ap-south-1', credentials }),
    ).rejects.toThrow(/refusing to SigV4-sign/);
    // Loopback over http and https anywhere are signed as before.
    expect(createGttClient({ baseUrl, sign: true, region: 'ap-south-1', credentials }).signing).toBe(true);
    expect(createGttClient({ baseUrl: 'https://gtt.example.com', region: 'ap-south-1', credentials }).signing).toBe(
      true,
    );
    expect(seen).toEqual([]);
  });

  it('signing without a region to be found is refused when the client is made', () => {
    vi.stubEnv('AWS_REGION', undefined);
    vi.stubEnv('AWS_DEFAULT_REGION', undefined);
    try {
      expect(() => createGttClient({ baseUrl: 'https://gtt.example.com', credentials })).toThrow(/region/);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('answers outside the error contract', () => {
  it("API Gateway's 403 (a bad signature, a missing IAM permission): HTTP_ERROR, not retried, nothing executed", async () => {
    answer = { status: 403, body: { message: 'Forbidden' } };
    const client = createGttClient({ baseUrl, maxAttempts: 4 });
    const error = await failed(client.placeOrder(order));
    expect(error).toMatchObject({
      code: 'HTTP_ERROR',
      status: 403,
      outcome: 'not_executed',
      attempts: 1,
      isContractError: false,
    });
    expect(error.message).toMatch(/Forbidden/);
    expect(captured).toHaveLength(1);
  });

  it('a 429 without the contract (API Gateway throttling) is retried on a read, honouring Retry-After', async () => {
    answer = { status: 429, body: { message: 'Too Many Requests' }, headers: { 'retry-after': '0' } };
    const client = createGttClient({ baseUrl, maxAttempts: 2, retryBaseDelayMs: 10 });
    const error = await failed(client.triggered());
    expect(error).toMatchObject({ code: 'HTTP_ERROR', status: 429, attempts: 2, outcome: undefined });
  });

  it('a success that is not JSON: BAD_RESPONSE, outcome unknown for an order', async () => {
    answer = { status: 201, body: '<html>proxy</html>' };
    const client = createGttClient({ baseUrl });
    const error = await failed(client.placeOrder(order));
    expect(error).toMatchObject({ code: 'BAD_RESPONSE', status: undefined, outcome: 'unknown', attempts: 1 });
  });

  it('a bad base URL is refused when the client is made', () => {
    expect(() => createGttClient({ baseUrl: 'not a url' })).toThrow(GttGatewayError);
    expect(() => createGttClient({ baseUrl: 'ftp://127.0.0.1' })).toThrow(/http/);
  });
});
