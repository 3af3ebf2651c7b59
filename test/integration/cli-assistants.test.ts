/**
 * The assistant commands (client/cli/commands/assistants.ts) through the CLI's own entry against the local API: the
 * token printed once with its warning and never again, the limits as flags, rotate and delete, bad flags refused
 * before anything is sent.
 */
import { beforeAll, beforeEach, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { createAssistantRegistry } from '../../functions/assistants/registry.js';
import { LOCAL_EVENTS_TABLE } from '../../local/dynamodb.js';
import type { LocalStack } from '../../local/run-local.js';
import { useLocalStack } from '../support/local-stack-fixture.js';

let stack: LocalStack;
useLocalStack({}, (s) => {
  stack = s;
});
const out: string[] = [];
const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
const gtt = (...args: string[]) => main([...args, '--url', stack.api.url], {}, io);
const last = () => out.at(-1) ?? '';
let registry: ReturnType<typeof createAssistantRegistry>;
beforeAll(() => {
  registry = createAssistantRegistry({ tableName: LOCAL_EVENTS_TABLE, endpoint: stack.dynamo.url });
});
beforeEach(() => {
  out.length = 0;
});

const TOKEN = /gtta_[A-Za-z0-9_-]{43}/;

it('assistant-create prints the token once with a warning; assistants and assistant never show it', async () => {
  expect(
    await gtt(
      'assistant-create',
      '--name',
      'cli-trader',
      '--scopes',
      'read,trade',
      '--max-qty',
      '10',
      '--max-value',
      '50000',
      '--max-orders-per-day',
      '20',
      '--exchanges',
      'nse,BSE',
    ),
    out.join('\n'),
  ).toBe(0);
  const text = last();
  const assistantId = /as[0-9a-f]{16}/.exec(text)![0];
  const token = TOKEN.exec(text)![0];
  expect(text).toMatch(
    new RegExp(
      `^created ${assistantId} {2}cli-trader {2}read,trade {2}max qty 10 {2}max value ₹50,000 {2}20 orders/day {2}on NSE,BSE`,
    ),
  );
  expect(text).toContain('shown once: store it now');
  expect(await registry.assistantForToken(token)).toMatchObject({
    assistantId,
    scopes: ['read', 'trade'],
    limits: { maxQtyPerOrder: 10, maxValuePerOrder: 50_000, maxOrdersPerDay: 20, exchanges: ['NSE', 'BSE'] },
  });

  expect(await gtt('assistants'), last()).toBe(0);
  expect(last()).toContain(`${assistantId}  cli-trader`);
  expect(await gtt('assistant', assistantId), last()).toBe(0);
  expect(last()).toMatch(new RegExp(`^${assistantId}  cli-trader  read,trade`));
  expect(out.slice(1).join('\n')).not.toMatch(TOKEN);
  expect(await gtt('assistant', assistantId, '--json'), last()).toBe(0);
  expect(last()).not.toContain('token"');
});

it('assistant-rotate prints a new token and the old one stops working; assistant-delete ends the new one', async () => {
  expect(await gtt('assistant-create', '--name', 'cli-rotate', '--scopes', 'read')).toBe(0);
  const assistantId = /as[0-9a-f]{16}/.exec(last())![0];
  const first = TOKEN.exec(last())![0];
  expect(await gtt('assistant-rotate', assistantId), last()).toBe(0);
  expect(last()).toMatch(new RegExp(`^new token for ${assistantId}  cli-rotate  read`));
  const second = TOKEN.exec(last())![0];
  expect(second).not.toBe(first);
  expect(await registry.assistantForToken(first)).toBeUndefined();
  expect((await registry.assistantForToken(second))?.assistantId).toBe(assistantId);

  expect(await gtt('assistant-delete', assistantId), last()).toBe(0);
  expect(last()).toBe(`deleted ${assistantId}`);
  expect(await registry.assistantForToken(second)).toBeUndefined();
  // Not found: the not-found exit code (3), with the gateway's words.
  expect(await gtt('assistant', assistantId)).toBe(3);
  expect(last()).toContain('ASSISTANT_NOT_FOUND');
});

it('bad flags are refused by the CLI or the gateway, naming them; nothing is created', async () => {
  const before = (await gtt('assistants'), last());
  expect(await gtt('assistant-create', '--name', 'x', '--scopes', 'read', '--max-qty', '0')).toBe(2);
  expect(last()).toContain('--max-qty must be a positive whole number');
  expect(await gtt('assistant-create', '--scopes', 'read')).toBe(2);
  expect(last()).toContain('--name');
  expect(await gtt('assistant-create', '--name', 'x', '--scopes', 'trade')).toBe(2);
  expect(last()).toContain('scopes must include read');
  expect(await gtt('assistant-create', '--name', 'x', '--scopes', 'read', '--exchanges', 'NYSE')).toBe(2);
  expect(last()).toContain('limits.exchanges');
  await gtt('assistants');
  expect(last()).toBe(before);
});
