/**
 * The security review's order-safety and error-contract findings, end to end: HTTP requests to the local API and
 * direct invocations, real handlers, the broker emulator, dynalite for idempotency, and the logs they write.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { AnyOperation } from '../../functions/base/contract/operation.js';
import { createLogger } from '../../functions/base/runtime/logger.js';
import { createGatewayHandler } from '../../functions/orders/gateway/gateway-handler.js';
import { dynamoJournal } from '../../functions/orders/journal-factory.js';
import { placeGttOrder } from '../../functions/orders/operations.js';
import type { LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { invokeHttp } from '../support/events.js';
import { localApiReply } from '../support/local-api.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { redirectLogger } from '../support/logs.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let api: string;
const lines: string[] = [];
let keySeq = 0;
const newKey = () => `hard-${Date.now()}-${++keySeq}`;

const order = { ...SAMPLE_ORDER, qty: 2 };
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions on arbitrary JSON

const call = localApiReply<Json>(() => api);
const invoke = (operation: string, payload: unknown) => call('POST', `/_invoke/${operation}`, payload);
const errorOfInvoke = (reply: { body: Json }) => JSON.parse(reply.body.errorMessage as string).error as Json;

const logged = () => lines.map((line) => JSON.parse(line) as Json);
const accessLines = () =>
  logged().filter((l) => l.message === 'operation succeeded' || l.message === 'operation failed');
const auditLines = () => logged().filter((l) => l.message === 'order action');
const placeOne = async () =>
  (await call('POST', '/gtt-orders', order, { 'Idempotency-Key': newKey() })).body.al_id as string;

useLocalStack(
  () => {
    const logger = createLogger({ serviceName: 'hardening', logLevel: 'INFO' });
    const write = (line: string) => lines.push(line);
    redirectLogger(logger, write);
    return { brokerTimeoutMs: 600, gateway: { logger } };
  },
  (s, c) => {
    stack = s;
    api = s.api.url;
    control = c;
  },
  { clearFaults: true },
);
beforeEach(() => {
  lines.length = 0;
});

describe('1. a misspelt dry run never acts', () => {
  it.each(['dryrun', 'dry_run', 'DryRun', 'dry-run'])(
    'POST /gtt-orders?%s=true with a key: 400 naming it, nothing placed',
    async (name) => {
      const reply = await call('POST', `/gtt-orders?${name}=true`, order, { 'Idempotency-Key': newKey() });
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining(name),
        details: [{ field: name }],
      });
      expect(await control.requests()).toEqual([]);
    },
  );

  it('DELETE /gtt-orders/{alId}?dryrun=true: 400, the order stays pending', async () => {
    const al_id = await placeOne();
    await control.clearRequests();
    const reply = await call('DELETE', `/gtt-orders/${al_id}?dryrun=true`);
    expect(reply.status).toBe(400);
    expect(reply.body.error.details).toEqual([{ field: 'dryrun', message: expect.any(String) }]);
    expect(await control.requests()).toEqual([]);
    expect((await control.orders(stack.emulator.uid)).find((o) => o.al_id === al_id)?.state).toBe('pending');
  });

  it('PUT with an unknown query parameter: 400, nothing modified', async () => {
    const al_id = await placeOne();
    await control.clearRequests();
    const reply = await call('PUT', `/gtt-orders/${al_id}?dry_run=1`, { ...order, qty: 3 });
    expect(reply.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'dry_run' }] });
    expect(await control.requests()).toEqual([]);
  });

  it('direct invocations: a misspelt option field is refused by name', async () => {
    const al_id = await placeOne();
    await control.clearRequests();
    for (const field of ['dry_run', 'dryrun', 'DryRun', 'idempotency_key']) {
      const reply = await invoke('CancelGTTOrder', { al_id, [field]: true });
      expect(reply.body.errorType).toBe('ValidationFailed');
      expect(errorOfInvoke(reply).details).toEqual([{ field, message: expect.stringMatching(/unknown field/) }]);
    }
    expect(await control.requests()).toEqual([]);
  });

  it('the correct spelling still makes a dry run', async () => {
    const reply = await call('POST', '/gtt-orders?dryRun=true', order);
    expect(reply).toMatchObject({ status: 200, body: { dryRun: true } });
    expect(await control.requests()).toEqual([]);
  });
});

describe('2. al_id beyond 2^53 is never rounded', () => {
  it('direct {"al_id": 26112200000000001} is refused; nothing is cancelled', async () => {
    const reply = await invoke('CancelGTTOrder', '{"al_id": 26112200000000001}');
    expect(reply.body.errorType).toBe('ValidationFailed');
    expect(errorOfInvoke(reply).details).toEqual([{ field: 'al_id', message: expect.stringMatching(/digit string/) }]);
    const dry = await invoke('CancelGTTOrder', '{"al_id": 26112200000000001, "dryRun": true}');
    expect(dry.body.errorType).toBe('ValidationFailed');
    expect(await control.requests()).toEqual([]);
  });

  it('the same id as a digit string is sent exactly', async () => {
    const dry = await invoke('CancelGTTOrder', { al_id: '26112200000000001', dryRun: true });
    expect(dry.body.request.jData.al_id).toBe('26112200000000001');
  });
});

describe('3. symbols with characters a symbol cannot hold', () => {
  it.each([
    ['a lone surrogate', '\ud800'],
    ['a zero-width space', 'M&M-EQ\u200b'],
    ['a bidi override', '\u202eQE-M&M'],
  ])('%s: 400 VALIDATION_FAILED naming tsym, with or without a key', async (_label, tsym) => {
    for (const headers of [{}, { 'Idempotency-Key': newKey() }] as Record<string, string>[]) {
      const reply = await call('POST', '/gtt-orders', { ...order, tsym }, headers);
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'tsym' }] });
    }
    expect(await control.requests()).toEqual([]);
  });

  it('an error inside the broker call is not reported as an idempotency store failure', async () => {
    const broken: AnyOperation = {
      ...placeGttOrder,
      toJData: () => {
        throw new URIError('URI malformed');
      },
    };
    const handler = createGatewayHandler(broken, { journal: dynamoJournal, config: stack.config });
    const reply = await invokeHttp(handler, broken, { body: order, headers: { 'idempotency-key': newKey() } });
    expect(reply.status).toBe(500);
    expect(JSON.stringify(reply.body)).not.toMatch(/idempotency store/);
  });
});

describe('4. no input escapes the error contract, the access line or the audit record', () => {
  const deepArray = `${'['.repeat(3000)}${']'.repeat(3000)}`;
  const deepObject = `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`;

  it.each(['exch', 'tsym', 'qty', 'prc', 'd', 'al_id'])(
    '3,000 levels of nesting in %s: 400, one access line, one audit record',
    async (field) => {
      for (const deep of [deepArray, deepObject]) {
        lines.length = 0;
        const text = JSON.stringify({ ...order, [field]: 0 }).replace(`"${field}":0`, `"${field}":${deep}`);
        const reply = await call('POST', '/gtt-orders', text, { 'Idempotency-Key': newKey() });
        expect(reply.status).toBe(400);
        expect(reply.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.any(String) });
        expect(reply.text.length).toBeLessThan(4_000);
        expect(accessLines()).toHaveLength(1);
        expect(auditLines()).toHaveLength(1);
        expect(auditLines()[0]!.audit).toMatchObject({ outcome: 'rejected', code: 'VALIDATION_FAILED' });
      }
      expect(await control.requests()).toEqual([]);
    },
  );

  it('{"al_id":{"toString":1}} on PUT: 400 VALIDATION_FAILED with the access and audit lines', async () => {
    const reply = await call('PUT', '/gtt-orders/1', { ...order, al_id: { toString: 1 } });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'al_id', message: expect.any(String) }],
    });
    expect(accessLines()).toHaveLength(1);
    expect(auditLines()).toHaveLength(1);
  });

  it('a 100 KB tsym is logged capped, never whole', async () => {
    const tsym = 'T'.repeat(100_000);
    const reply = await call('POST', '/gtt-orders', { ...order, tsym }, { 'Idempotency-Key': newKey() });
    expect(reply.status).toBe(400);
    for (const line of lines) expect(line.length).toBeLessThan(4_000);
    expect(auditLines()[0]!.audit.order.tsym).toMatch(/^T{256}…/);
  });

  it('a rejected 500 KB value is not echoed in the reply', async () => {
    const reply = await call(
      'POST',
      '/gtt-orders',
      { ...order, prc: '9'.repeat(500_000) },
      { 'Idempotency-Key': newKey() },
    );
    expect(reply.status).toBe(400);
    expect(reply.body.error.details).toEqual([{ field: 'prc', message: expect.any(String) }]);
    expect(reply.text.length).toBeLessThan(4_000);
  });

  it('direct invocations too: deep nesting is ValidationFailed, with the access line', async () => {
    const reply = await invoke('CancelGTTOrder', `{"al_id":${deepObject}}`);
    expect(reply.body.errorType).toBe('ValidationFailed');
    expect(accessLines()).toHaveLength(1);
    expect(auditLines()).toHaveLength(1);
  });
});

describe('5. details have one shape: {field, message}', () => {
  it('a path/body al_id mismatch', async () => {
    const reply = await call('PUT', '/gtt-orders/123', { ...order, al_id: '456' });
    expect(reply.status).toBe(400);
    expect(reply.body.error.details).toEqual([{ field: 'al_id', message: expect.any(String) }]);
  });
});

describe('6. a session operation that may have acted says so', () => {
  it('logout whose reply is lost: 502 with outcome unknown', async () => {
    await control.fault({ operation: 'Logout', kind: 'drop' });
    const reply = await call('POST', '/session/logout');
    expect(reply.status).toBe(502);
    expect(reply.body.error).toMatchObject({
      code: 'BROKER_UNAVAILABLE',
      outcome: 'unknown',
      message: expect.stringMatching(/may or may not have/),
    });
  });
});
