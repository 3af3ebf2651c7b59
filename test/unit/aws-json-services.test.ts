/**
 * The gateway's Secrets Manager and EventBridge calls (functions/base/aws/secrets-manager.ts, events.ts) over its AWS
 * client (json-client.ts): against the local Secrets Manager and PutEvents endpoints with every request's SigV4
 * signature recomputed by AWS's own signer (a bad one refused, as AWS refuses it), and against a loopback server
 * scripted to fail (retries, timeouts). Then the secret cache that replaced Powertools' SecretsProvider: max age,
 * forced reads, nothing cached at max age 0 or after a failure.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { withCredentials } from '../../functions/base/aws/endpoint.js';
import { EventBridge } from '../../functions/base/aws/events.js';
import { AwsError } from '../../functions/base/aws/json-client.js';
import { SecretCache, SecretsManager } from '../../functions/base/aws/secrets-manager.js';
import { type LocalEventBridge, startLocalEventBridge } from '../../local/eventbridge.js';
import type { EndpointAuthorizer } from '../../local/permissions/gate.js';
import { authorizationOf, type CapturedRequest, signatureHolds } from '../../local/permissions/sigv4.js';
import { type LocalSecretsManager, startLocalSecretsManager } from '../../local/secrets-manager.js';

const CREDENTIALS = { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' };
const SECRET = '{"accessToken":"t1","uid":"U1","actid":"A1"}';

/** The local endpoints' guard, verifying as AWS does: this key's signature for this service, or a refusal. */
const verifying =
  (service: string, seen: CapturedRequest[]): EndpointAuthorizer =>
  async (request) => {
    seen.push(request);
    if (authorizationOf(request).service === service && (await signatureHolds(request, CREDENTIALS))) return undefined;
    return {
      status: 403,
      type: 'InvalidSignatureException',
      message: 'The request signature we calculated does not match',
    };
  };

let sm: LocalSecretsManager;
let bus: LocalEventBridge;
const smSeen: CapturedRequest[] = [];
const busSeen: CapturedRequest[] = [];

beforeAll(async () => {
  sm = await startLocalSecretsManager({ secrets: { 'app/session': SECRET } });
  sm.guard(verifying('secretsmanager', smSeen));
  bus = await startLocalEventBridge({ busName: 'gtt' });
  bus.guard(verifying('events', busSeen));
});
afterAll(async () => {
  await sm?.close();
  await bus?.close();
});
afterEach(() => vi.useRealTimers());

const entry = (detail: unknown) => ({
  EventBusName: 'gtt',
  Source: 'gtt-gateway',
  DetailType: 'GTT Placed',
  Detail: JSON.stringify(detail),
});

const secrets = () => new SecretsManager(withCredentials(sm.url, CREDENTIALS), { random: () => 0 });

describe('Secrets Manager by signed JSON 1.1 calls', () => {
  it('reads a secret by name and by ARN, signed for secretsmanager', async () => {
    const reply = await secrets().getSecretValue({ SecretId: 'app/session' });
    expect(reply).toMatchObject({ Name: 'app/session', SecretString: SECRET, VersionStages: ['AWSCURRENT'] });
    expect((await secrets().getSecretValue({ SecretId: reply.ARN! })).SecretString).toBe(SECRET);
    const request = smSeen.at(-1)!;
    expect(request.headers['x-amz-target']).toBe('secretsmanager.GetSecretValue');
    expect(request.headers['content-type']).toBe('application/x-amz-json-1.1');
    expect(JSON.parse(request.body)).toEqual({ SecretId: reply.ARN });
  });

  it('is refused when signed with another key, and names the refusal', async () => {
    const other = new SecretsManager(withCredentials(sm.url, { ...CREDENTIALS, secretAccessKey: 'wrong' }));
    await expect(other.getSecretValue({ SecretId: 'app/session' })).rejects.toMatchObject({
      name: 'InvalidSignatureException',
      $metadata: { httpStatusCode: 403, attempts: 1 },
    });
  });

  it('names a missing secret ResourceNotFoundException, without trying again', async () => {
    const before = sm.getRequestCount('nope');
    const error = await secrets()
      .getSecretValue({ SecretId: 'nope' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AwsError);
    expect(error).toMatchObject({ name: 'ResourceNotFoundException', $fault: 'client' });
    expect(sm.getRequestCount('nope')).toBe(before + 1);
  });

  it('writes a new version whose id is the request token it made, one per call', async () => {
    sm.setSecret('app/write', SECRET);
    const first = await secrets().putSecretValue({ SecretId: 'app/write', SecretString: '{"a":1}' });
    const second = await secrets().putSecretValue({ SecretId: 'app/write', SecretString: '{"a":2}' });
    expect(first.VersionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.VersionId).not.toBe(first.VersionId);
    expect(JSON.parse(smSeen.at(-1)!.body)).toMatchObject({ ClientRequestToken: second.VersionId });
    expect(sm.getSecret('app/write')).toBe('{"a":2}');
    expect(sm.getPutCount('app/write')).toBe(2);
  });
});

describe('the secret cache', () => {
  it('serves a read for max age seconds, then reads again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    sm.setSecret('app/cached', 'v1');
    const cache = new SecretCache(secrets());
    expect(await cache.get('app/cached', { maxAge: 300 })).toBe('v1');
    sm.setSecret('app/cached', 'v2');
    expect(await cache.get('app/cached', { maxAge: 300 })).toBe('v1');
    vi.setSystemTime(Date.now() + 300_000);
    expect(await cache.get('app/cached', { maxAge: 300 })).toBe('v1');
    expect(sm.getCallCount('app/cached')).toBe(1);
    vi.setSystemTime(Date.now() + 1);
    expect(await cache.get('app/cached', { maxAge: 300 })).toBe('v2');
    expect(sm.getCallCount('app/cached')).toBe(2);
  });

  it('reads again when forced, and caches what it read', async () => {
    sm.setSecret('app/forced', 'v1');
    const cache = new SecretCache(secrets());
    await cache.get('app/forced', { maxAge: 300 });
    sm.setSecret('app/forced', 'v2');
    expect(await cache.get('app/forced', { maxAge: 300, forceFetch: true })).toBe('v2');
    expect(await cache.get('app/forced', { maxAge: 300 })).toBe('v2');
    expect(sm.getCallCount('app/forced')).toBe(2);
  });

  it('caches nothing at max age 0, nor a failed read', async () => {
    sm.setSecret('app/uncached', 'v1');
    const cache = new SecretCache(secrets());
    await cache.get('app/uncached', { maxAge: 0 });
    await cache.get('app/uncached', { maxAge: 0 });
    expect(sm.getCallCount('app/uncached')).toBe(2);
    await expect(cache.get('app/absent', { maxAge: 300 })).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    sm.setSecret('app/absent', 'now');
    expect(await cache.get('app/absent', { maxAge: 300 })).toBe('now');
  });
});

describe('EventBridge PutEvents by signed JSON 1.1 calls', () => {
  it('puts events signed for events, and keeps the entries it refused in order', async () => {
    const client = new EventBridge(withCredentials(bus.url, CREDENTIALS));
    const accepted = await client.putEvents({ Entries: [entry({ n: 1 })] });
    expect(accepted.FailedEntryCount).toBe(0);
    expect(accepted.Entries).toEqual([{ EventId: expect.any(String) }]);
    expect(busSeen.at(-1)!.headers['x-amz-target']).toBe('AWSEvents.PutEvents');
    bus.refuseNext(1);
    const partial = await client.putEvents({ Entries: [entry({ n: 2 }), entry({ n: 3 })] });
    expect(partial.FailedEntryCount).toBe(1);
    expect(partial.Entries![0]).toMatchObject({ ErrorCode: 'InternalFailure' });
    expect(partial.Entries![1]).toEqual({ EventId: expect.any(String) });
    expect(bus.events.map((e) => e.detail)).toEqual([{ n: 1 }, { n: 3 }]);
  });
});

describe('against a server that fails', () => {
  let server: Server;
  let url: string;
  let script: ((req: IncomingMessage, res: ServerResponse) => void)[] = [];
  let count = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        count++;
        const answer = script.shift();
        if (answer) answer(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = withCredentials(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, CREDENTIALS);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const fail = (status: number, type: string) => (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-errortype': type });
    res.end(JSON.stringify({ __type: type, message: 'scripted' }));
  };

  it('tries a server error three times (the SDK’s default for these services), then gives up with it', async () => {
    const client = new SecretsManager(url, { random: () => 0 });
    script = [0, 1, 2, 3].map(() => fail(500, 'InternalServiceError'));
    count = 0;
    await expect(client.getSecretValue({ SecretId: 'x' })).rejects.toMatchObject({
      name: 'InternalServiceError',
      $metadata: { httpStatusCode: 500, attempts: 3 },
    });
    expect(count).toBe(3);
  });

  it('gives up an attempt whose reply does not come, as a TimeoutError tried again', async () => {
    // The server never answers: each attempt ends at the client's idle timeout.
    script = [() => undefined, () => undefined];
    count = 0;
    const client = new EventBridge(url, { retry: { maxAttempts: 2 }, requestTimeoutMs: 200, random: () => 0 });
    await expect(client.putEvents({ Entries: [entry({ n: 4 })] })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(count).toBe(2);
  });
});
