/**
 * The gateway's DynamoDB client (functions/base/aws/dynamo.ts) against a loopback server that answers as DynamoDB
 * would, one scripted reply per request: what it sends (the JSON 1.0 protocol, a SigV4 signature that AWS's own
 * signer agrees with), how a refusal becomes an error, and which failures it tries again.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  DynamoClient,
  DynamoError,
  GetItemCommand,
  isConditionFailure,
  PutItemCommand,
  TransactWriteItemsCommand,
} from '../../functions/base/aws/dynamo.js';
import { withCredentials } from '../../functions/base/aws/endpoint.js';
import {
  DYNAMODB_RETRY,
  retryDecision,
  retryKindOf,
  RetryQuota,
  STANDARD_RETRY,
} from '../../functions/base/aws/retry.js';
import { type CapturedRequest, signatureHolds } from '../../local/permissions/sigv4.js';

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

const json = (status: number, body: unknown): Answer => {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'req-1' });
    res.end(JSON.stringify(body));
  };
};
const dynamoError = (status: number, type: string, fields: Record<string, unknown> = {}): Answer =>
  json(status, { __type: `com.amazonaws.dynamodb.v20120810#${type}`, ...fields });

const CREDENTIALS = { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' };

let server: Server;
let url: string;
let script: Answer[] = [];
const received: CapturedRequest[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const answer = script.shift();
      if (answer) answer(req, res);
      else json(500, { __type: 'NoScript', message: 'no answer scripted' })(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = withCredentials(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, CREDENTIALS);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A client whose backoff is zero (the decision is what is tested, not the wait). */
const client = () => new DynamoClient(url, { random: () => 0 });
const run = (answers: Answer[]) => {
  script = answers;
  received.length = 0;
};

const GET = new GetItemCommand({ TableName: 't', Key: { id: { S: 'a' } } });

describe('the DynamoDB client', () => {
  it('sends the JSON 1.0 protocol, signed so AWS would accept it', async () => {
    run([json(200, { Item: { id: { S: 'a' }, n: { N: '1' } } })]);
    const reply = await client().send(GET);
    expect(reply.Item).toEqual({ id: { S: 'a' }, n: { N: '1' } });
    expect(reply.$metadata).toEqual({ httpStatusCode: 200, requestId: 'req-1', attempts: 1 });
    const [request] = received;
    expect(request!.headers['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
    expect(request!.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(JSON.parse(request!.body)).toEqual(GET.input);
    expect(await signatureHolds(request!, CREDENTIALS)).toBe(true);
    expect(await signatureHolds(request!, { ...CREDENTIALS, secretAccessKey: 'other' })).toBe(false);
  });

  it('signs with the environment’s credentials and session token when the endpoint names none', async () => {
    const plain = url.replace(/\/\/[^@]*@/, '//');
    const names = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'] as const;
    const saved = names.map((name) => process.env[name]);
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'AKIDENV',
      AWS_SECRET_ACCESS_KEY: 'env-secret',
      AWS_SESSION_TOKEN: 'session-token',
    });
    try {
      run([json(200, {})]);
      await new DynamoClient(plain).send(GET);
    } finally {
      names.forEach((name, i) => {
        if (saved[i] === undefined) delete process.env[name];
        else process.env[name] = saved[i];
      });
    }
    const [request] = received;
    expect(request!.headers['x-amz-security-token']).toBe('session-token');
    expect(String(request!.headers.authorization)).toContain('x-amz-security-token');
    expect(await signatureHolds(request!, { accessKeyId: 'AKIDENV', secretAccessKey: 'env-secret' })).toBe(true);
  });

  it('tries a throttled call again and answers with the success', async () => {
    run([
      dynamoError(400, 'ThrottlingException', { message: 'Rate of requests exceeds the allowed throughput.' }),
      json(200, {}),
    ]);
    const reply = await client().send(GET);
    expect(reply.$metadata.attempts).toBe(2);
    expect(received).toHaveLength(2);
  });

  it('gives up after four attempts of a server error, with the last error', async () => {
    run([0, 1, 2, 3, 4].map(() => dynamoError(500, 'InternalServerError', { message: 'Internal server error' })));
    const error = await client()
      .send(GET)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DynamoError);
    expect((error as DynamoError).name).toBe('InternalServerError');
    expect((error as DynamoError).$metadata).toMatchObject({ httpStatusCode: 500, attempts: 4 });
    expect(received).toHaveLength(4);
  });

  it('answers a failed condition at once, with the item it found', async () => {
    const item = { id: { S: 'a' }, status: { S: 'COMPLETED' } };
    run([
      dynamoError(400, 'ConditionalCheckFailedException', { message: 'The conditional request failed', Item: item }),
    ]);
    const error = await client()
      .send(
        new PutItemCommand({
          TableName: 't',
          Item: item,
          ConditionExpression: 'attribute_not_exists(id)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      )
      .catch((e: unknown) => e);
    expect(isConditionFailure(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'ConditionalCheckFailedException',
      message: 'The conditional request failed',
      Item: item,
      $metadata: { httpStatusCode: 400 },
    });
    expect(received).toHaveLength(1);
  });

  it('keeps a cancelled transaction’s reasons', async () => {
    const reasons = [{ Code: 'None' }, { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' }];
    run([
      dynamoError(400, 'TransactionCanceledException', {
        Message: 'Transaction cancelled',
        CancellationReasons: reasons,
      }),
    ]);
    const error = await client()
      .send(new TransactWriteItemsCommand({ TransactItems: [] }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'TransactionCanceledException',
      message: 'Transaction cancelled',
      CancellationReasons: reasons,
    });
    expect(received).toHaveLength(1);
  });

  it('tries again over a connection the server reset', async () => {
    run([(req) => req.socket.destroy(), json(200, { Item: { id: { S: 'b' } } })]);
    const reply = await client().send(GET);
    expect(reply.Item).toEqual({ id: { S: 'b' } });
    expect(reply.$metadata.attempts).toBe(2);
  });

  it('stops when the caller aborts, without another attempt', async () => {
    const controller = new AbortController();
    // The server holds the request until the caller has given up.
    run([(_req, res) => controller.signal.addEventListener('abort', () => setImmediate(() => res.destroy()))]);
    const pending = client()
      .send(GET, { abortSignal: controller.signal })
      .catch((e: unknown) => e);
    await expect.poll(() => received.length).toBe(1);
    controller.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    expect(received).toHaveLength(1);
  });
});

describe('the retry decisions', () => {
  const status = (code: number, name = 'X') =>
    Object.assign(new Error('m'), { name, $metadata: { httpStatusCode: code } });
  const network = (code: string) => Object.assign(new Error('m'), { code });

  it('sorts errors as the SDK’s standard mode does', () => {
    expect(retryKindOf(status(400, 'ProvisionedThroughputExceededException'))).toBe('throttling');
    expect(retryKindOf(status(400, 'RequestLimitExceeded'))).toBe('throttling');
    expect(retryKindOf(status(429))).toBe('throttling');
    expect(retryKindOf(status(503, 'ServiceUnavailable'))).toBe('transient');
    expect(retryKindOf(network('EPIPE'))).toBe('transient');
    expect(retryKindOf(network('ETIMEDOUT'))).toBe('transient');
    expect(retryKindOf(status(400, 'ConditionalCheckFailedException'))).toBeUndefined();
    expect(retryKindOf(status(400, 'TransactionCanceledException'))).toBeUndefined();
    expect(retryKindOf(status(400, 'ValidationException'))).toBeUndefined();
    expect(
      retryKindOf(Object.assign(new Error('aborted'), { name: 'AbortError', code: 'ECONNRESET' })),
    ).toBeUndefined();
  });

  it('backs off DynamoDB with full jitter from 25 ms (1 s when throttled), and stops at the quota', () => {
    const quota = new RetryQuota();
    expect(retryDecision(status(500), 1, DYNAMODB_RETRY, quota, () => 0.999)).toEqual({
      kind: 'transient',
      delayMs: 24,
    });
    expect(retryDecision(status(500), 3, DYNAMODB_RETRY, quota, () => 0.5)).toEqual({ kind: 'transient', delayMs: 50 });
    expect(retryDecision(status(429), 2, DYNAMODB_RETRY, quota, () => 0.5)).toEqual({
      kind: 'throttling',
      delayMs: 1000,
    });
    expect(retryDecision(status(500), 4, DYNAMODB_RETRY, quota)).toBeUndefined();
    while (quota.available >= 14) retryDecision(status(500), 1, DYNAMODB_RETRY, quota);
    expect(retryDecision(status(500), 1, DYNAMODB_RETRY, quota)).toBeUndefined();
  });

  it('gives other services three attempts and a 50 ms transient base, as their SDK clients', () => {
    const quota = new RetryQuota();
    expect(retryDecision(status(500), 1, STANDARD_RETRY, quota, () => 0.999)).toEqual({
      kind: 'transient',
      delayMs: 49,
    });
    expect(retryDecision(status(500), 2, STANDARD_RETRY, quota, () => 0.5)).toEqual({ kind: 'transient', delayMs: 50 });
    expect(retryDecision(status(500), 3, STANDARD_RETRY, quota)).toBeUndefined();
  });
});
