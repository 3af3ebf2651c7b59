/**
 * The assistants registry (functions/assistants/, docs/reference/assistants.md "Assistant tokens") over real HTTP on the local
 * API: the token shown once and never again, the table holding only its hash, the token finding its assistant
 * (registry.ts, as the remote MCP function will use it) until it is rotated or the assistant deleted, the same
 * Idempotency-Key answering the same assistant, and bad input refused with nothing written.
 */
import { type AttributeValue, DynamoDBClient, GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';

import { createAssistantRegistry } from '../../functions/assistants/registry.js';
import { assistantItemKey, tokenItemKey } from '../../functions/assistants/store.js';
import { tokenHash } from '../../functions/assistants/tokens.js';
import { LOCAL_EVENTS_TABLE } from '../../local/dynamodb.js';
import type { LocalStack } from '../../local/run-local.js';
import { localApi } from '../support/local-api.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { captureLogger } from '../support/logs.js';

let stack: LocalStack;
const logs = captureLogger();
useLocalStack({ gateway: { logger: logs.logger } }, (s) => {
  stack = s;
});
/** Every token a reply showed: none may be in a log line. */
const shown: string[] = [];
let registry: ReturnType<typeof createAssistantRegistry>;
beforeAll(() => {
  registry = createAssistantRegistry({ tableName: LOCAL_EVENTS_TABLE, endpoint: stack.dynamo.url });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies read field by field
type Json = Record<string, any>;
const call = localApi<Json>(() => stack.api.url);
const api = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
  const reply = await call(method, path, body, headers);
  if (typeof reply.body.token === 'string') shown.push(reply.body.token);
  return reply;
};
let keys = 0;
const newKey = () => `assistants-test-${++keys}-${Date.now()}`;
const TRADER = {
  name: 'claude-desktop',
  scopes: ['read', 'trade'],
  limits: { maxQtyPerOrder: 10, maxValuePerOrder: 50_000, maxOrdersPerDay: 2, exchanges: ['NSE'] },
};
const create = async (body: Json = TRADER, key = newKey()) => {
  const res = await api('POST', '/assistants', body, { 'Idempotency-Key': key });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { assistantId: string; token: string } & Json;
};

/** Every item of the events table under the assistants' partitions, as stored. */
const storedItems = async (): Promise<Record<string, AttributeValue>[]> => {
  const client = new DynamoDBClient({ endpoint: stack.dynamo.url });
  const items = await Promise.all(
    ['assistant', 'assistant-token', 'assistant-day'].map((pk) =>
      client.send(
        new QueryCommand({
          TableName: LOCAL_EVENTS_TABLE,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: pk } },
        }),
      ),
    ),
  );
  return items.flatMap((reply) => reply.Items ?? []);
};
const getItem = async (key: Record<string, AttributeValue>) =>
  (
    await new DynamoDBClient({ endpoint: stack.dynamo.url }).send(
      new GetItemCommand({ TableName: LOCAL_EVENTS_TABLE, Key: key }),
    )
  ).Item;

describe('POST /assistants', () => {
  it('answers the token once; GET never shows it nor its hash; the table holds only the hash', async () => {
    const created = await create();
    expect(created).toMatchObject({
      assistantId: expect.stringMatching(/^as[0-9a-f]{16}$/),
      name: 'claude-desktop',
      scopes: ['read', 'trade'],
      limits: TRADER.limits,
      token: expect.stringMatching(/^gtta_[A-Za-z0-9_-]{43}$/),
      idempotency: { replayed: false },
    });
    const hash = tokenHash(created.token);
    const one = await api('GET', `/assistants/${created.assistantId}`);
    expect(one.status).toBe(200);
    const list = await api('GET', '/assistants');
    expect(list.body.assistants.map((a: Json) => a.assistantId)).toContain(created.assistantId);
    for (const shown of [JSON.stringify(one.body), JSON.stringify(list.body)]) {
      expect(shown).not.toContain(created.token);
      expect(shown).not.toContain(created.token.slice(5, 20));
      expect(shown).not.toContain(hash);
      expect(shown).not.toMatch(/"token"/);
    }
    // Stored: the hash, never the token (nor any long piece of it).
    const items = await storedItems();
    const text = JSON.stringify(items);
    expect(text).not.toContain(created.token.slice(5, 20));
    const record = await getItem(assistantItemKey(created.assistantId));
    expect(record?.tokenHash?.S).toBe(hash);
    expect((await getItem(tokenItemKey(hash)))?.assistantId?.S).toBe(created.assistantId);
  });

  it('the same Idempotency-Key: the same assistant (200) with a new token, the first one dead; another body: 422', async () => {
    const key = newKey();
    const first = await create(TRADER, key);
    const again = await api('POST', '/assistants', TRADER, { 'Idempotency-Key': key });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ assistantId: first.assistantId, idempotency: { key, replayed: true } });
    expect(again.body.token).not.toBe(first.token);
    expect(await registry.assistantForToken(first.token)).toBeUndefined();
    expect((await registry.assistantForToken(again.body.token))?.assistantId).toBe(first.assistantId);
    const other = await api('POST', '/assistants', { ...TRADER, name: 'other' }, { 'Idempotency-Key': key });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const missing = await api('POST', '/assistants', TRADER);
    expect(missing.status).toBe(400);
  });

  it('bad input is refused naming the field, and nothing is written', async () => {
    const before = await storedItems();
    const bad: [Json, string][] = [
      [{ ...TRADER, extra: 1 }, 'extra'],
      [{ ...TRADER, scopes: ['trade'] }, 'scopes'],
      [{ ...TRADER, scopes: ['read', 'admin'] }, 'scopes.1'],
      [{ ...TRADER, scopes: [] }, 'scopes'],
      [{ ...TRADER, limits: { maxQtyPerOrder: 0 } }, 'limits.maxQtyPerOrder'],
      [{ ...TRADER, limits: { maxValuePerOrder: 10.5 } }, 'limits.maxValuePerOrder'],
      [{ ...TRADER, limits: { maxOrdersPerDay: -1 } }, 'limits.maxOrdersPerDay'],
      [{ ...TRADER, limits: { exchanges: ['NYSE'] } }, 'limits.exchanges.0'],
      [{ ...TRADER, limits: { maxQty: 5 } }, 'limits.maxQty'],
      [{ ...TRADER, name: '' }, 'name'],
      [{ scopes: ['read'] }, 'name'],
    ];
    for (const [body, field] of bad) {
      const res = await api('POST', '/assistants', body, { 'Idempotency-Key': newKey() });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details.map((d: Json) => d.field).join(' '), JSON.stringify(body)).toContain(field);
    }
    expect(await storedItems()).toEqual(before);
  });
});

describe('the token: assistantForToken', () => {
  it('finds the assistant (no token, no hash); refuses a wrong token and junk without throwing', async () => {
    const created = await create({ name: 'reader', scopes: ['read'] });
    expect(await registry.assistantForToken(created.token)).toEqual({
      assistantId: created.assistantId,
      name: 'reader',
      scopes: ['read'],
      limits: {},
    });
    const wrong = `${created.token.slice(0, -1)}${created.token.endsWith('A') ? 'B' : 'A'}`;
    for (const junk of [
      wrong,
      created.token.slice(5),
      `${created.token} `,
      `Bearer ${created.token}`,
      'gtta_',
      '',
      'x'.repeat(1_000_000),
      undefined,
      null,
      42,
      { token: created.token },
    ])
      expect(await registry.assistantForToken(junk)).toBeUndefined();
  });

  it('rotate: a new token at once, the old one refused at once; delete: the token refused, 404 after', async () => {
    const created = await create({ name: 'rotating', scopes: ['read', 'trade'] });
    const rotated = await api('POST', `/assistants/${created.assistantId}/token`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.token).toMatch(/^gtta_[A-Za-z0-9_-]{43}$/);
    expect(rotated.body.token).not.toBe(created.token);
    expect(await registry.assistantForToken(created.token)).toBeUndefined();
    expect(await getItem(tokenItemKey(tokenHash(created.token)))).toBeUndefined();
    expect((await registry.assistantForToken(rotated.body.token))?.assistantId).toBe(created.assistantId);
    expect((await api('GET', `/assistants/${created.assistantId}`)).body.tokenSetAt).toBe(rotated.body.tokenSetAt);

    const deleted = await api('DELETE', `/assistants/${created.assistantId}`);
    expect(deleted).toEqual({ status: 200, body: { assistantId: created.assistantId, deleted: true } });
    expect(await registry.assistantForToken(rotated.body.token)).toBeUndefined();
    for (const [method, path] of [
      ['GET', `/assistants/${created.assistantId}`],
      ['DELETE', `/assistants/${created.assistantId}`],
      ['POST', `/assistants/${created.assistantId}/token`],
    ] as const) {
      const res = await api(method, path);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('ASSISTANT_NOT_FOUND');
    }
    expect((await api('GET', '/assistants/not-an-id')).status).toBe(400);
  });
});

describe("the day's order counter", () => {
  it('counts up to maxOrdersPerDay, then refuses; each assistant its own; no limit: always counted', async () => {
    const capped = await create();
    const who = (await registry.assistantForToken(capped.token))!;
    const now = Date.now();
    expect(await registry.ordersToday(who.assistantId, now)).toBe(0);
    expect(await registry.countOrder(who, now)).toBe(1);
    expect(await registry.countOrder(who, now)).toBe(2);
    expect(await registry.countOrder(who, now)).toBeUndefined();
    expect(await registry.ordersToday(who.assistantId, now)).toBe(2);
    // Tomorrow (India day) starts again.
    expect(await registry.countOrder(who, now + 86_400_000)).toBe(1);
    const free = (await registry.assistantForToken((await create({ name: 'free', scopes: ['read', 'trade'] })).token))!;
    for (let n = 1; n <= 3; n++) expect(await registry.countOrder(free, now)).toBe(n);
    const day = (await storedItems()).find((item) => item.sk?.S?.startsWith(`${who.assistantId}#`));
    expect(Number(day?.expiresAt?.N)).toBeGreaterThan(now / 1000 + 86_400);
  });
});

it('no log line carries a token the replies showed, nor a long piece of one', () => {
  expect(shown.length).toBeGreaterThan(5);
  expect(logs.lines.join('\n')).toContain('assistant created');
  for (const token of shown) expect(logs.lines.filter((line) => line.includes(token.slice(5, 20)))).toEqual([]);
});
