/**
 * A small local endpoint for the AWS Secrets Manager API: the awsJson1_1 `GetSecretValue` and `PutSecretValue`
 * calls, as the real `@aws-sdk/client-secrets-manager` client sends them (`POST /`, `X-Amz-Target:
 * secretsmanager.GetSecretValue`).
 * No npm package serves this API locally, so the project carries one. Signatures are not verified (loopback
 * only, nothing to protect), but a request without an Authorization header is refused like AWS does.
 */
import { createHash, randomUUID } from 'node:crypto';

import { type AwsJsonGuard, awsJsonServer, failAwsJson, replyAwsJson } from './aws-json.js';
import { listenOnLoopback } from './loopback.js';
import type { EndpointAuthorizer } from './permissions/gate.js';

export interface LocalSecretsManager {
  url: string;
  /** From now on a function's request is first held to its deployed permissions (local/permissions/). */
  guard(authorize: EndpointAuthorizer): void;
  port: number;
  setSecret(id: string, value: string): void;
  deleteSecret(id: string): void;
  /** GetSecretValue calls answered for this id (name or ARN), or for all ids. */
  getCallCount(id?: string): number;
  /** GetSecretValue requests for this id as the caller named it, answered or refused (a missing secret too). */
  getRequestCount(id: string): number;
  /** The current value (tests check what a session function wrote, or that it wrote nothing). */
  getSecret(id: string): string | undefined;
  /** PutSecretValue calls that made a new version of this secret. */
  getPutCount(id: string): number;
  close(): Promise<void>;
}

interface StoredSecret {
  name: string;
  arn: string;
  value: string;
  versionId: string;
  created: number;
}

const REGION = 'us-east-1';
const ACCOUNT = '000000000000';
const MAX_BODY = 64 * 1024;

/** Deterministic ARN with AWS's six-character suffix. */
export const localSecretArn = (name: string): string =>
  `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${name}-${createHash('sha256').update(name).digest('base64url').slice(0, 6)}`;

export const startLocalSecretsManager = async (
  options: { port?: number; secrets?: Record<string, string> } = {},
): Promise<LocalSecretsManager> => {
  const secrets = new Map<string, StoredSecret>();
  const calls = new Map<string, number>();
  const requests = new Map<string, number>();
  const puts = new Map<string, number>();
  const find = (id: string) => secrets.get(id) ?? [...secrets.values()].find((s) => s.arn === id);

  const setSecret = (name: string, value: string) => {
    secrets.set(name, {
      name,
      arn: localSecretArn(name),
      value,
      versionId: randomUUID(),
      created: Math.floor(Date.now() / 1000),
    });
  };
  for (const [name, value] of Object.entries(options.secrets ?? {})) setSecret(name, value);

  const guard: AwsJsonGuard = {};
  const server = awsJsonServer({
    guard,
    targets: ['secretsmanager.GetSecretValue', 'secretsmanager.PutSecretValue'],
    maxBody: MAX_BODY,
    tooLarge: ['SerializationException', 'Request body too large'],
    handle: (target, input, res) => {
      const fields = (typeof input === 'object' && input !== null ? input : {}) as {
        SecretId?: unknown;
        SecretString?: unknown;
        ClientRequestToken?: unknown;
      };
      const secretId = fields.SecretId;
      if (typeof secretId !== 'string' || secretId === '') {
        return failAwsJson(res, 400, 'ValidationException', 'SecretId is required');
      }
      if (target === 'secretsmanager.GetSecretValue') requests.set(secretId, (requests.get(secretId) ?? 0) + 1);
      const secret = find(secretId);
      if (!secret) {
        return failAwsJson(res, 400, 'ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
      }
      if (target === 'secretsmanager.PutSecretValue') {
        // A new AWSCURRENT version, as the real service makes one (the SDK sends a ClientRequestToken).
        if (typeof fields.SecretString !== 'string' || fields.SecretString === '') {
          return failAwsJson(res, 400, 'InvalidParameterException', 'SecretString is required');
        }
        const versionId =
          typeof fields.ClientRequestToken === 'string' && fields.ClientRequestToken
            ? fields.ClientRequestToken
            : randomUUID();
        secrets.set(secret.name, {
          ...secret,
          value: fields.SecretString,
          versionId,
          created: Math.floor(Date.now() / 1000),
        });
        puts.set(secret.name, (puts.get(secret.name) ?? 0) + 1);
        return replyAwsJson(res, 200, {
          ARN: secret.arn,
          Name: secret.name,
          VersionId: versionId,
          VersionStages: ['AWSCURRENT'],
        });
      }
      calls.set(secret.name, (calls.get(secret.name) ?? 0) + 1);
      replyAwsJson(res, 200, {
        ARN: secret.arn,
        Name: secret.name,
        VersionId: secret.versionId,
        SecretString: secret.value,
        VersionStages: ['AWSCURRENT'],
        CreatedDate: secret.created,
      });
    },
  });
  const listening = await listenOnLoopback(server, options.port);
  return {
    guard: (authorize) => (guard.current = authorize),
    url: listening.url,
    port: listening.port,
    setSecret,
    deleteSecret: (id) => {
      const secret = find(id);
      if (secret) secrets.delete(secret.name);
    },
    getSecret: (id) => find(id)?.value,
    getPutCount: (id) => puts.get(find(id)?.name ?? id) ?? 0,
    getRequestCount: (id) => requests.get(id) ?? 0,
    getCallCount: (id) => {
      if (id === undefined) return [...calls.values()].reduce((a, b) => a + b, 0);
      const secret = find(id);
      return calls.get(secret?.name ?? id) ?? 0;
    },
    close: listening.close,
  };
};
