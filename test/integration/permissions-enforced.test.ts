/**
 * The deployed permissions, enforced on the local stack (docs/explanation/permissions.md): the two calls the stack did not grant
 * before issue 53 (the OAuth callback's UpdateItem on its state table; the signal webhook's ConditionCheckItem
 * through the VPC's DynamoDB endpoint) fail here exactly as deployed when their grant is taken away, and work with
 * the stack as synthesized. A forged signature, a function the stacks do not have and a key outside a function's
 * partitions are refused in AWS's own words; the machine's own calls are not a function's and pass.
 */
import { DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LOCAL_EVENTS_TABLE } from '../../local/dynamodb.js';
import { localCredentials } from '../../local/permissions/gate.js';
import { withoutAction } from '../../local/permissions/grant-use.js';
import { type LocalStack, type LocalStackOptions, startLocalStack } from '../../local/run-local.js';
import { GTT_STRATEGY_INPUT } from '../support/signals.js';

const strategy = async (stack: LocalStack, key: string): Promise<string> => {
  const res = await fetch(`${stack.api.url}/strategies`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify({ name: key, ...GTT_STRATEGY_INPUT }),
  });
  const created = (await res.json()) as { webhookUrl: string };
  expect(res.status, JSON.stringify(created)).toBe(201);
  return created.webhookUrl;
};
const alert = (url: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"action":"buy","ticker":"INFY","exchange":"NSE","price":1500}',
  });

const stacks: LocalStack[] = [];
const start = async (options: LocalStackOptions = {}) => {
  const stack = await startLocalStack({ brokerTimeoutMs: 2_000, ...options });
  stacks.push(stack);
  return stack;
};
afterAll(async () => {
  await Promise.all(stacks.map((s) => s.close()));
});

describe('the stack as synthesized', () => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await start();
  });

  it('the daily login (code only, as the live brokers redirect) and an alert go through, nothing refused', async () => {
    expect(await stack.renew()).toMatchObject({ stat: 'Ok', method: 'oauth' });
    const res = await alert(await strategy(stack, 'enforced-ok'));
    expect(res.status).toBe(202);
    await stack.signalQueue.drained();
    expect(stack.permissions?.refused).toEqual([]);
  });

  it("a function's key with the wrong secret is refused as AWS refuses a bad signature; nothing is written", async () => {
    const forged = new DynamoDBClient({
      endpoint: stack.dynamo.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'LOCAL.Assistants', secretAccessKey: 'not-its-secret' },
      maxAttempts: 1,
    });
    const item = { pk: { S: 'assistant' }, sk: { S: 'forged' } };
    await expect(forged.send(new PutItemCommand({ TableName: LOCAL_EVENTS_TABLE, Item: item }))).rejects.toMatchObject({
      name: 'InvalidSignatureException',
    });
    const owner = new DynamoDBClient({ endpoint: stack.dynamo.url });
    expect((await owner.send(new GetItemCommand({ TableName: LOCAL_EVENTS_TABLE, Key: item }))).Item).toBeUndefined();
  });

  it("a key outside a function's partitions, or a function the stacks do not have, is AccessDenied in AWS's words", async () => {
    // The remote MCP function may not write an assistant's record (its scopes, its limits), only its day counter.
    const mcp = new DynamoDBClient({
      endpoint: stack.dynamo.url,
      credentials: localCredentials('McpServer'),
      maxAttempts: 1,
    });
    const assistant = { pk: { S: 'assistant' }, sk: { S: 'someone' }, scopes: { S: 'everything' } };
    const refused = await mcp
      .send(new PutItemCommand({ TableName: LOCAL_EVENTS_TABLE, Item: assistant }))
      .catch((error: unknown) => error as Error);
    expect(refused).toMatchObject({ name: 'AccessDeniedException' });
    expect((refused as Error).message).toMatch(
      /^User: arn:aws:sts::000000000000:assumed-role\/McpServerRole\w+\/McpServer is not authorized to perform: dynamodb:PutItem on resource: arn:aws:dynamodb:us-east-1:000000000000:table\/gtt-gateway-events because no identity-based policy allows the dynamodb:PutItem action$/,
    );
    const nobody = new DynamoDBClient({
      endpoint: stack.dynamo.url,
      credentials: localCredentials('Nobody'),
      maxAttempts: 1,
    });
    await expect(
      nobody.send(new GetItemCommand({ TableName: LOCAL_EVENTS_TABLE, Key: { pk: { S: 'plan' }, sk: { S: 'x' } } })),
    ).rejects.toThrow(/Nobody is not a function of the synthesized stacks/);
  });
});

describe('a grant taken away fails the call as it would deployed', () => {
  it("without the OAuth callback's UpdateItem on its state table, the daily login is a 500 and no session", async () => {
    const stack = await start({ adjustPermissions: (p) => withoutAction(p, 'OAuthCallback', 'dynamodb:UpdateItem') });
    const before = stack.secrets.getPutCount('gtt-gateway/broker-session');
    await expect(stack.renew()).rejects.toThrow(/HTTP 500/);
    expect(stack.secrets.getPutCount('gtt-gateway/broker-session')).toBe(before);
    expect(stack.permissions?.refused).toMatchObject([
      {
        function: 'OAuthCallback',
        action: 'dynamodb:UpdateItem',
        resource: 'arn:aws:dynamodb:us-east-1:000000000000:table/gtt-gateway-oauth-state',
      },
    ]);
  });

  it("without ConditionCheckItem in the VPC's DynamoDB endpoint policy, every alert is refused (500), nothing queued", async () => {
    const stack = await start({
      adjustPermissions: (p) => withoutAction(p, 'DynamoDbEndpoint', 'dynamodb:ConditionCheckItem'),
    });
    const url = await strategy(stack, 'enforced-endpoint');
    const res = await alert(url);
    expect(res.status).toBe(500);
    expect(stack.signalQueue.sent).toHaveLength(0);
    const [refusal] = stack.permissions?.refused ?? [];
    expect(refusal).toMatchObject({ function: 'SignalWebhook', action: 'dynamodb:ConditionCheckItem' });
    expect(await stack.permissions?.decide('SignalWebhook', refusal!)).toMatch(
      /because no VPC endpoint policy allows the dynamodb:ConditionCheckItem action$/,
    );
  });
});
