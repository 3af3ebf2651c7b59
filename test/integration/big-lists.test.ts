/**
 * Lists longer than any text the transport would hold: 16,500 pending orders at the emulator over loopback (about
 * 8.9 MB of reply, past the 8 MB a reply read as text may be), read record by record. The API answers them in pages
 * Lambda can return; the watcher's whole-list read gets every one. A small loopback server then sends what a broker
 * should not: a list past the record bound, a record too large, a malformed or cut-off array, a bad record deep in it.
 */
import http from 'node:http';

import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import { callBroker } from '../../functions/base/broker/call-broker.js';
import {
  MAX_LIST_RECORDS,
  MAX_RECORD_BYTES,
  MAX_REPLY_BYTES,
  WHOLE_LIST_BYTES,
} from '../../functions/base/broker/transport.js';
import { GatewayError } from '../../functions/base/contract/errors.js';
import { createGatewayHandler } from '../../functions/orders/gateway/gateway-handler.js';
import { getGttOrder, getPendingGttOrders } from '../../functions/orders/operations.js';
import { lambdaContext } from '../../local/lambda-context.js';
import { useLocalAwsEnvironment } from '../../local/run-local.js';
import { type LocalSecretsManager, startLocalSecretsManager } from '../../local/secrets-manager.js';
import { jdata } from '../contract/jdata-client.js';
import { httpApiEvent } from '../support/events.js';
import { wireGtt } from '../support/wire-order.js';

const PENDING = 16_500;
/** Lambda's synchronous response limit. */
const LAMBDA_RESPONSE_BYTES = 6 * 1024 * 1024;
const SECRET = 'big-lists/session';

let emulator: RunningEmulator;
let secrets: LocalSecretsManager;
const ids: string[] = [];

const config = () => ({
  BROKER_BASE_URL: emulator.url,
  BROKER_SECRET_ID: SECRET,
  BROKER_TIMEOUT_MS: 60_000,
  SECRET_MAX_AGE_SECONDS: 300,
  SECRETS_MANAGER_ENDPOINT: secrets.url,
  IDEMPOTENCY_KEY_REQUIRED: false,
});

beforeAll(async () => {
  useLocalAwsEnvironment();
  emulator = await startEmulator({ port: 0 });
  secrets = await startLocalSecretsManager({
    secrets: { [SECRET]: JSON.stringify({ accessToken: emulator.token, uid: emulator.uid, actid: emulator.actid }) },
  });
  // Straight into the emulator's own request handler (the HTTP listener's next step), so the 16,500 places cost
  // no loopback round trips: what is under test is reading the list back, not placing it.
  for (let i = 0; i < PENDING; i++) {
    const fields = wireGtt({ tsym: 'TCS-EQ', qty: String(1 + (i % 90)), prc: '4000', d: '3990' }, emulator);
    const reply = emulator.emulator.handle({
      method: 'POST',
      path: '/ClientAPI/PlaceGTTOrder',
      headers: { authorization: `Bearer ${emulator.token}`, 'content-type': 'text/plain' },
      body: `jData=${JSON.stringify(fields)}`,
    });
    ids.push(String((JSON.parse(reply.body) as { al_id: string }).al_id));
  }
  expect(new Set(ids).size).toBe(PENDING);
});
afterAll(async () => {
  await secrets?.close();
  await emulator?.close();
});

const deps = (baseUrl: () => string) => ({
  baseUrl: baseUrl(),
  timeoutMs: () => 60_000,
  session: async () => ({ accessToken: emulator.token, uid: emulator.uid, actid: emulator.actid }),
  refreshSession: async () => ({ accessToken: emulator.token, uid: emulator.uid, actid: emulator.actid }),
});

describe(`${PENDING} pending orders`, () => {
  it('the broker answers more than the 8 MB a reply read as text may be', async () => {
    const reply = await jdata(emulator.url, 'GetPendingGTTOrder', { uid: emulator.uid }, emulator.token);
    expect(Buffer.byteLength(reply.text)).toBeGreaterThan(MAX_REPLY_BYTES);
  });

  it('GET /gtt-orders lists every one once, in pages Lambda can return', async () => {
    const handler = createGatewayHandler(getPendingGttOrders, { config: config() });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const response = (await handler(
        httpApiEvent(getPendingGttOrders, { query: { limit: '1000', ...(cursor ? { cursor } : {}) } }),
        lambdaContext(getPendingGttOrders.name, 60_000),
      )) as APIGatewayProxyStructuredResultV2;
      expect(response.statusCode, String(response.body).slice(0, 300)).toBe(200);
      // What Lambda returns is this object as JSON: the body inside it escaped again.
      expect(Buffer.byteLength(JSON.stringify(response))).toBeLessThan(LAMBDA_RESPONSE_BYTES);
      const page = JSON.parse(String(response.body)) as { orders: { al_id: string }[]; nextCursor?: string };
      seen.push(...page.orders.map((o) => o.al_id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 100);
    expect(pages).toBe(Math.ceil(PENDING / 1000));
    expect(seen.length).toBe(PENDING);
    expect(new Set(seen)).toEqual(new Set(ids));
  }, 240_000);

  it('the whole list, as the watcher reads it, and one order by id from it', async () => {
    const whole = await callBroker(
      getPendingGttOrders,
      {},
      deps(() => emulator.url),
    );
    expect((whole.result as { orders: unknown[] }).orders).toHaveLength(PENDING);
    const last = await callBroker(
      getGttOrder,
      { al_id: ids.at(-1) },
      deps(() => emulator.url),
    );
    expect(last.result).toMatchObject({ al_id: ids.at(-1), tsym: 'TCS-EQ', type: 'single' });
  });
});

describe('a list a broker should not send', () => {
  let server: http.Server;
  let body: (res: http.ServerResponse) => void = (res) => res.end('[]');
  let url = '';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => body(res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const failure = async () => {
    try {
      await callBroker(
        getPendingGttOrders,
        {},
        deps(() => url),
      );
    } catch (error) {
      expect(error).toBeInstanceOf(GatewayError);
      return error as GatewayError;
    }
    throw new Error('the read succeeded');
  };
  const record = (al_id: number, qty: unknown = 1) => ({
    stat: 'Ok',
    al_id: String(al_id),
    ai_t: 'LTP_B_O',
    tsym: 'TCS-EQ',
    exch: 'NSE',
    trantype: 'B',
    prctyp: 'LMT',
    qty,
    prc: '1',
    prd: 'C',
    d: '1',
  });

  it(`more than ${MAX_LIST_RECORDS} records: reply_too_large, said so`, async () => {
    body = (res) => {
      res.write('[');
      const one = JSON.stringify(record(1));
      for (let i = 0; i <= MAX_LIST_RECORDS; i += 1_000)
        res.write(Array.from({ length: 1_000 }, () => one).join(',') + ',');
      res.end(`${one}]`);
    };
    const error = await failure();
    expect(error.code).toBe('BROKER_UNAVAILABLE');
    expect(error.message).toContain(`longer than ${MAX_LIST_RECORDS} records`);
    expect(error.details).toEqual({ transport: 'reply_too_large' });
  });

  it('one record past the bound in a list read as it arrives: reply_too_large', async () => {
    // A list that may be parsed whole (within WHOLE_LIST_BYTES) is bounded as a whole; past it, record by record.
    const before = Array.from({ length: Math.ceil(WHOLE_LIST_BYTES / JSON.stringify(record(100)).length) }, (_, i) =>
      record(100 + i),
    );
    body = (res) =>
      res.end(JSON.stringify([...before, record(1), { ...record(2), remarks: 'x'.repeat(MAX_RECORD_BYTES) }]));
    const error = await failure();
    expect(error.message).toContain(`larger than ${MAX_RECORD_BYTES} bytes`);
  });

  it('a malformed array, and one cut off, are not JSON: BROKER_BAD_REPLY quoting its start', async () => {
    body = (res) => res.end(`[${JSON.stringify(record(1))} ${JSON.stringify(record(2))}]`);
    let error = await failure();
    expect(error.code).toBe('BROKER_BAD_REPLY');
    expect(error.details).toMatchObject({ httpStatus: 200, bodyStart: expect.stringMatching(/^\[\{"stat":"Ok"/) });
    body = (res) => res.end(`[${JSON.stringify(record(1))},`);
    error = await failure();
    expect(error.code).toBe('BROKER_BAD_REPLY');
  });

  it('one bad record among 20,000: BROKER_BAD_REPLY naming it', async () => {
    body = (res) =>
      res.end(
        JSON.stringify(Array.from({ length: 20_000 }, (_, i) => record(26112700000000 + i, i === 12_345 ? 'x' : 1))),
      );
    const error = await failure();
    expect(error.code).toBe('BROKER_BAD_REPLY');
    expect(error.details).toMatchObject({ issues: [expect.objectContaining({ path: '12345.qty' })] });
  });

  it('a Not_Ok object and an HTTP 502 array are read as before', async () => {
    body = (res) => res.end(JSON.stringify({ stat: 'Not_Ok', emsg: 'no data' }));
    expect(
      (
        await callBroker(
          getPendingGttOrders,
          {},
          deps(() => url),
        )
      ).result,
    ).toEqual({ orders: [] });
    body = (res) => {
      res.statusCode = 502;
      res.end(JSON.stringify([record(1)]));
    };
    expect((await failure()).code).toBe('BROKER_UNAVAILABLE');
  });
});
