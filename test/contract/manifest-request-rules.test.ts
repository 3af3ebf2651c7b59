/**
 * The request rules (docs/reference/request-rules.md) asserted for every route and every direct entry of the function
 * manifest, so a function added later is covered the day it is added: an unknown query parameter, a look-alike
 * header, a body that is not UTF-8 JSON, a body where none is taken, an Idempotency-Key where none is taken, and
 * `dryRun` where the route offers none are each refused with 400 VALIDATION_FAILED naming what was wrong (a route
 * that reads its own body, the MCP server's, answers JSON-RPC's -32700 and -32600 for it instead), and
 * nothing reaches the broker (the emulator's request log holds no write) and no control changes. Where a route offers
 * a dry run, it is honoured: nothing is sent. Where a key is required, the same key with another body is 422.
 *
 * Handlers run as the local stack deploys them (the real code behind the local API), against the emulator over
 * loopback; each event is what API Gateway (payload v2) or a direct caller sends.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FunctionEntry, Route } from '../../functions/base/definition/types.js';
import { FUNCTIONS, ROUTES } from '../../functions/manifest/index.js';
import { EXAMPLE_STRATEGY } from '../../functions/signals/routes.js';
import { lambdaContext } from '../../local/lambda-context.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

const WRITES = ['PlaceGTTOrder', 'PlaceOCOOrder', 'ModifyGTTOrder', 'ModifyOCOOrder', 'CancelGTTOrder', 'Logout'];

let stack: LocalStack;
/**
 * A route with `auth: 'token'` (the signal webhook) checks its token before it reads the body: its requests here
 * carry a live token, of a strategy made for the purpose (a wrong one is refused first, asserted below).
 */
const liveTokens = new Map<string, string>();
/** A `rawBody` route (the MCP server) reads its body after its bearer token: an assistant's, made for the purpose. */
let assistantToken = '';
beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE });
  for (const { fn, route } of ROUTES.filter(({ route }) => route.auth === 'token')) {
    const strategies = stack.handlers.get('Strategies')!;
    const created = (await strategies(
      {
        action: 'create',
        idempotencyKey: `contract-${fn.name}`,
        strategy: { ...EXAMPLE_STRATEGY, ratePerMinute: 600 },
      },
      lambdaContext('Strategies'),
    )) as { webhookUrl: string };
    liveTokens.set(route.operationId, created.webhookUrl.split('/').pop()!);
  }
  const assistant = (await stack.handlers.get('Assistants')!(
    {
      action: 'create',
      idempotencyKey: 'contract-assistant',
      assistant: { name: 'contract-rules', scopes: ['read'], limits: {} },
    },
    lambdaContext('Assistants'),
  )) as { token: string };
  assistantToken = assistant.token;
  // POST /positions/close's example closes 5 of an INFY-EQ (CNC) long: a long of 50 bought (1489), for each case.
  const api = localApi(() => stack.api.url);
  const bought = await api(
    'POST',
    '/gtt-orders',
    { ...SAMPLE_ORDER, tsym: 'INFY-EQ', prd: 'C', qty: 50 },
    { 'Idempotency-Key': 'contract-close-long' },
  );
  if (bought.status !== 201) throw new Error(`the long to close was not placed: ${JSON.stringify(bought.body)}`);
  await emulatorControl(stack.emulator.url).ltp('NSE', 'INFY-EQ', 1489);
  // GET /options's example reads the day's NIFTY chain: the InstrumentRefresh loads it from the emulator's master.
  await stack.handlers.get('InstrumentRefresh')!({}, lambdaContext('InstrumentRefresh'));
});
afterAll(() => stack.close());

interface Parts {
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as API Gateway sends a body it cannot pass as text. */
  base64?: Buffer;
}

/** The payload v2 event of a request to `route`, from its manifest example plus `parts`. */
const routeEvent = (route: Route, parts: Parts = {}): APIGatewayProxyEventV2 => {
  const live = liveTokens.get(route.operationId);
  const pathParameters = { ...route.example.path, ...(live ? { id: live } : {}) };
  let path = route.path;
  for (const [name, value] of Object.entries(pathParameters)) path = path.replace(`{${name}}`, value);
  const query = { ...route.example.query, ...parts.query };
  const body = 'body' in parts ? parts.body : route.example.body;
  const key = `${route.method} ${route.path}`;
  return {
    version: '2.0',
    routeKey: key,
    rawPath: path,
    rawQueryString: new URLSearchParams(query).toString(),
    headers: { 'content-type': 'application/json', ...parts.headers },
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'contract',
      domainName: 'contract.local',
      domainPrefix: 'contract',
      http: { method: route.method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: 'contract',
      routeKey: key,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
    ...(parts.base64
      ? { body: parts.base64.toString('base64'), isBase64Encoded: true }
      : { ...(body === undefined ? {} : { body: JSON.stringify(body) }), isBase64Encoded: false }),
  };
};

const handlerOf = (fn: FunctionEntry) => {
  const handler = stack.handlers.get(fn.name);
  if (!handler) throw new Error(`the local stack runs no ${fn.name}`);
  return handler;
};

const http = async (fn: FunctionEntry, route: Route, parts?: Parts) => {
  const reply = (await handlerOf(fn)(
    routeEvent(route, parts),
    lambdaContext(fn.name),
  )) as APIGatewayProxyStructuredResultV2;
  const body = reply.body
    ? (JSON.parse(reply.body) as { error?: { code: string; message: string; details?: unknown } })
    : {};
  return { status: reply.statusCode ?? 0, body };
};

const direct = async (fn: FunctionEntry, payload: unknown) => {
  try {
    return { ok: true as const, result: await handlerOf(fn)(payload, lambdaContext(fn.name)) };
  } catch (error) {
    const e = error as Error;
    return {
      ok: false as const,
      name: e.name,
      error: (JSON.parse(e.message) as { error: { code: string; details?: unknown } }).error,
    };
  }
};

/** Runs `act`, then asserts that the broker got no write meanwhile and the kill switch is still off. */
const nothingDone = async <T>(act: () => Promise<T>): Promise<T> => {
  const control = emulatorControl(stack.emulator.url);
  await control.clearRequests();
  const result = await act();
  const writes = (await control.requests()).filter((r) => r.operation && WRITES.includes(r.operation));
  expect(writes.map((r) => r.operation)).toEqual([]);
  return result;
};

const expectRefused = (
  reply: { status: number; body: { error?: { code: string; details?: unknown } } },
  field: string,
) => {
  expect(reply.status).toBe(400);
  expect(reply.body.error?.code).toBe('VALIDATION_FAILED');
  expect(JSON.stringify(reply.body.error?.details ?? [])).toContain(JSON.stringify(field));
};

const served = ROUTES.filter(({ fn }) => fn.deployedWhen !== 'totpRenewal');
const cases = served.map(({ fn, route }) => [`${route.method} ${route.path} (${fn.name})`, fn, route] as const);

describe.each(cases)('%s', (_name, fn, route) => {
  it.skipIf(route.lenientQuery)('an unknown query parameter is refused by name; nothing is done', async () => {
    expectRefused(await nothingDone(() => http(fn, route, { query: { zzUnknown: '1' } })), 'zzUnknown');
  });

  it('dryRun is honoured where offered, refused by name everywhere else; nothing is done either way', async () => {
    const reply = await nothingDone(() =>
      http(fn, route, {
        query: { dryRun: 'true' },
        headers: route.idempotencyKey ? { 'idempotency-key': `contract-dry-${route.operationId}` } : {},
      }),
    );
    if (route.dryRun) expect(reply.body.error?.code).not.toBe('VALIDATION_FAILED');
    else expectRefused(reply, 'dryRun');
  });

  it('a look-alike of Idempotency-Key is refused, never ignored', async () => {
    expectRefused(
      await nothingDone(() => http(fn, route, { headers: { 'x-idempotency-key': 'k1' } })),
      'x-idempotency-key',
    );
  });

  it.runIf(route.body && !route.rawBody)(
    'a body that is not UTF-8, or not JSON, is refused; nothing is sent',
    async () => {
      const headers: Record<string, string> = route.idempotencyKey
        ? { 'idempotency-key': `contract-utf8-${route.operationId}` }
        : {};
      const notUtf8 = Buffer.concat([Buffer.from('{"tsym":"M'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
      expectRefused(await nothingDone(() => http(fn, route, { headers, base64: notUtf8 })), '(body)');
      const notJson = await nothingDone(() =>
        http(fn, route, { headers, body: undefined, base64: Buffer.from('{"a":') }),
      );
      expect(notJson.status).toBe(400);
      expect(notJson.body.error?.code).toBe('VALIDATION_FAILED');
    },
  );

  it.runIf(route.body && !route.rawBody)(
    'a body nested thousands of levels deep is refused by name (400, never 500)',
    async () => {
      for (const depth of [1_000, 3_000, 20_000]) {
        const deep = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
        const headers: Record<string, string> = route.idempotencyKey
          ? { 'idempotency-key': `contract-deep-${depth}-${route.operationId}` }
          : {};
        const reply = await nothingDone(() =>
          http(fn, route, { headers, body: undefined, base64: Buffer.from(`{"zz":${deep}}`) }),
        );
        // The signal webhook takes bodies of 8 KiB at most: deeper nesting is over its size limit before it is read.
        if (depth > 1_000 && reply.status === 413) expect(reply.body.error?.code).toBe('PAYLOAD_TOO_LARGE');
        else expectRefused(reply, '(body)');
      }
    },
  );

  it.runIf(route.rawBody)(
    "a raw body (the MCP server's) not UTF-8 or not JSON is -32700, nested thousands deep -32600; 400, nothing sent",
    async () => {
      // Over loopback, as npm start's API passes it (its Host checked against DNS rebinding).
      const headers = { authorization: `Bearer ${assistantToken}`, host: '127.0.0.1' };
      const notUtf8 = Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","method":"'),
        Buffer.from([0xff]),
        Buffer.from('"}'),
      ]);
      const deep = `{"jsonrpc":"2.0","id":1,"method":"ping","params":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`;
      for (const [bytes, code] of [
        [notUtf8, -32_700],
        [Buffer.from('{"a":'), -32_700],
        [Buffer.from(deep), -32_600],
      ] as const) {
        const reply = await nothingDone(() => http(fn, route, { headers, body: undefined, base64: bytes }));
        expect(reply.status).toBe(400);
        expect(reply.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code } });
      }
    },
  );

  it.runIf(!route.body && route.method !== 'GET')(
    'a body where none is taken is refused; nothing is done',
    async () => {
      const reply = await nothingDone(() => http(fn, route, { body: { zzField: 1 } }));
      expect(reply.status).toBe(400);
      expect(reply.body.error?.code).toBe('VALIDATION_FAILED');
    },
  );

  it.runIf(route.auth === 'token')('a wrong token is 401 SIGNAL_TOKEN_INVALID, the token not echoed', async () => {
    const event = routeEvent(route, { query: { zzUnknown: '1' } });
    const wrong = {
      ...event,
      pathParameters: { id: 'x'.repeat(43) },
      queryStringParameters: {},
      rawQueryString: '',
    };
    const reply = (await handlerOf(fn)(wrong, lambdaContext(fn.name))) as APIGatewayProxyStructuredResultV2;
    expect(reply.statusCode).toBe(401);
    expect(JSON.parse(reply.body!)).toMatchObject({ error: { code: 'SIGNAL_TOKEN_INVALID' } });
    expect(reply.body).not.toContain('x'.repeat(43));
  });

  it.runIf(!route.idempotencyKey && route.auth !== 'none' && route.kind !== 'read')(
    'an Idempotency-Key where none is taken is refused',
    async () => {
      const reply = await nothingDone(() => http(fn, route, { headers: { 'idempotency-key': 'contract-none' } }));
      expect(reply.status).toBe(400);
      expect(reply.body.error?.code).toBe('VALIDATION_FAILED');
    },
  );

  it.runIf(route.idempotencyKey === 'required')('the same key with another body is 422', async () => {
    const key = `contract-key-${route.operationId}-${Date.now()}`;
    const first = await http(fn, route, { headers: { 'idempotency-key': key } });
    expect(first.status, JSON.stringify(first.body)).toBe(route.successStatus);
    const other = JSON.parse(JSON.stringify(route.example.body)) as Record<string, unknown>;
    // Another body that is still valid: a close takes no tag (its body is strict), so another quantity.
    if (route.operationId === 'ClosePosition') other.qty = 4;
    else other.tag = 'another-body';
    const second = await nothingDone(() => http(fn, route, { headers: { 'idempotency-key': key }, body: other }));
    expect(second.status).toBe(422);
    // Without a key it is refused by name, before anything is sent.
    expectRefused(await nothingDone(() => http(fn, route, {})), 'Idempotency-Key');
  });
});

/** Direct entries whose payload the function reads (a scheduled or stream function gets its trigger's own shape). */
const directCases = FUNCTIONS.filter(
  (fn) => fn.direct && (fn.operation || fn.direct.fields || fn.routes.length > 1),
).map((fn) => [fn.name, fn] as const);

describe.each(directCases)('direct %s', (_name, fn) => {
  const example = fn.direct!.example;
  const dryRunOffered = fn.operation ? fn.operation.kind === 'order' : false;

  it('a field it does not read is refused by name; nothing is done', async () => {
    const reply = await nothingDone(() => direct(fn, { ...example, zzUnknown: 1 }));
    expect(reply.ok).toBe(false);
    if (!reply.ok) {
      expect(reply.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(reply.error.details)).toContain('zzUnknown');
    }
  });

  it('dryRun: true is honoured where offered, refused by name everywhere else', async () => {
    const reply = await nothingDone(() => direct(fn, { ...example, dryRun: true }));
    if (dryRunOffered) {
      if (!reply.ok) expect(reply.error.code).not.toBe('VALIDATION_FAILED');
    } else {
      expect(reply.ok).toBe(false);
      if (!reply.ok) {
        expect(reply.error.code).toBe('VALIDATION_FAILED');
        expect(JSON.stringify(reply.error.details)).toContain('dryRun');
      }
    }
  });
});

it('after every refusal the kill switch is still off', async () => {
  const killSwitch = FUNCTIONS.find((f) => f.name === 'KillSwitch')!;
  const state = await direct(killSwitch, { action: 'status' });
  expect(state).toMatchObject({ ok: true, result: { halted: false } });
});
