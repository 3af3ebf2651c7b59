/** The local Secrets Manager endpoint, driven by the real AWS SDK v3 client through its `endpoint` option. */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { localSecretArn, type LocalSecretsManager, startLocalSecretsManager } from '../../local/secrets-manager.js';

let sm: LocalSecretsManager;
let client: SecretsManagerClient;

beforeAll(async () => {
  sm = await startLocalSecretsManager({ secrets: { 'app/session': '{"accessToken":"t1"}' } });
  client = new SecretsManagerClient({
    endpoint: sm.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});
afterAll(async () => {
  client?.destroy();
  await sm?.close();
});

describe('local Secrets Manager endpoint', () => {
  it('answers GetSecretValue by name and by ARN', async () => {
    const byName = await client.send(new GetSecretValueCommand({ SecretId: 'app/session' }));
    expect(byName).toMatchObject({
      Name: 'app/session',
      SecretString: '{"accessToken":"t1"}',
      VersionStages: ['AWSCURRENT'],
    });
    expect(byName.ARN).toBe(localSecretArn('app/session'));
    const byArn = await client.send(new GetSecretValueCommand({ SecretId: byName.ARN }));
    expect(byArn.SecretString).toBe('{"accessToken":"t1"}');
    expect(sm.getCallCount('app/session')).toBe(2);
  });

  it('serves a new value with a new VersionId after setSecret', async () => {
    const before = await client.send(new GetSecretValueCommand({ SecretId: 'app/session' }));
    sm.setSecret('app/session', '{"accessToken":"t2"}');
    const after = await client.send(new GetSecretValueCommand({ SecretId: 'app/session' }));
    expect(after.SecretString).toBe('{"accessToken":"t2"}');
    expect(after.VersionId).not.toBe(before.VersionId);
  });

  it('makes the SDK throw ResourceNotFoundException for an unknown id', async () => {
    await expect(client.send(new GetSecretValueCommand({ SecretId: 'nope' }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
    sm.deleteSecret('app/session');
    await expect(client.send(new GetSecretValueCommand({ SecretId: 'app/session' }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });

  it('refuses unsigned requests and unknown operations', async () => {
    const unsigned = await fetch(sm.url, {
      method: 'POST',
      headers: { 'x-amz-target': 'secretsmanager.GetSecretValue' },
      body: '{}',
    });
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toMatchObject({ __type: 'MissingAuthenticationTokenException' });
    const other = await fetch(sm.url, {
      method: 'POST',
      headers: { authorization: 'x', 'x-amz-target': 'secretsmanager.ListSecrets' },
      body: '{}',
    });
    expect(await other.json()).toMatchObject({ __type: 'UnknownOperationException' });
    const bad = await fetch(sm.url, {
      method: 'POST',
      headers: { authorization: 'x', 'x-amz-target': 'secretsmanager.GetSecretValue' },
      body: '{',
    });
    expect(await bad.json()).toMatchObject({ __type: 'SerializationException' });
  });
});
