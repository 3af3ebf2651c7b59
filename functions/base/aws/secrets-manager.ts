/**
 * Secrets Manager's GetSecretValue and PutSecretValue through the gateway's AWS client (json-client.ts: the JSON 1.1
 * protocol, `X-Amz-Target: secretsmanager.<Op>`, SigV4 for `secretsmanager`, the SDK's standard retries), in place
 * of `@aws-sdk/client-secrets-manager` (about 160 KB of every bundle with its credential chain). The replies keep
 * the SDK's field names; a refusal is an error named after the exception (`ResourceNotFoundException`,
 * `AccessDeniedException`, `DecryptionFailure`...). A secret encrypted with a customer's KMS key reads the same: the
 * service decrypts it when the role may use the key.
 *
 * `SecretCache` is the per-container cache the session functions read the broker secret through (the behaviour of
 * Powertools Parameters' SecretsProvider, which it replaces): a value is served for `maxAge` seconds, `forceFetch`
 * reads again, a `maxAge` of 0 caches nothing, a failed read caches nothing.
 */
import { randomUUID } from 'node:crypto';

import { AwsJsonClient, type AwsJsonService, type AwsMetadata, type SendOptions } from './json-client.js';

export interface GetSecretValueOutput {
  ARN?: string;
  Name?: string;
  VersionId?: string;
  SecretString?: string;
  /** Decoded from the reply's base64. */
  SecretBinary?: Uint8Array;
  VersionStages?: string[];
  $metadata: AwsMetadata;
}

export interface PutSecretValueOutput {
  ARN?: string;
  Name?: string;
  VersionId?: string;
  VersionStages?: string[];
  $metadata: AwsMetadata;
}

const SECRETS_MANAGER: AwsJsonService = {
  signingName: 'secretsmanager',
  hostPrefix: 'secretsmanager',
  targetPrefix: 'secretsmanager',
  jsonVersion: '1.1',
  title: 'Secrets Manager',
};

export class SecretsManager {
  private readonly client: AwsJsonClient;

  constructor(endpoint?: string, options: { random?: () => number } = {}) {
    this.client = new AwsJsonClient(SECRETS_MANAGER, endpoint, options);
  }

  /** The secret's current version (`AWSCURRENT`). */
  async getSecretValue(input: { SecretId: string }, options?: SendOptions): Promise<GetSecretValueOutput> {
    const reply = await this.client.call<Omit<GetSecretValueOutput, 'SecretBinary'> & { SecretBinary?: string }>(
      'GetSecretValue',
      input,
      options,
    );
    const { SecretBinary, ...rest } = reply;
    return SecretBinary === undefined ? rest : { ...rest, SecretBinary: Buffer.from(SecretBinary, 'base64') };
  }

  /**
   * A new current version holding `SecretString`. Its ClientRequestToken (the new version's id) is made here when not
   * given, as the SDK makes it, so a retried call makes one version, not two.
   */
  putSecretValue(
    input: { SecretId: string; SecretString: string; ClientRequestToken?: string },
    options?: SendOptions,
  ): Promise<PutSecretValueOutput> {
    return this.client.call<PutSecretValueOutput>(
      'PutSecretValue',
      { ...input, ClientRequestToken: input.ClientRequestToken ?? randomUUID() },
      options,
    );
  }
}

const clients = new Map<string, SecretsManager>();

/** One client per container and endpoint: its keep-alive connection is warm for the next read. */
export const secretsManagerClient = (endpoint?: string): SecretsManager => {
  const key = endpoint ?? '';
  let client = clients.get(key);
  if (!client) {
    client = new SecretsManager(endpoint);
    clients.set(key, client);
  }
  return client;
};

/** A secret's value as read: its text, or its bytes when the secret is binary. */
export type SecretValue = string | Uint8Array;

/** The secrets one reader has read, each until its max age has passed (module comment). */
export class SecretCache {
  private readonly store = new Map<string, { value: SecretValue; expiresAt: number }>();

  constructor(private readonly client: SecretsManager) {}

  /**
   * The secret's value: from the cache while younger than `maxAge` seconds and `forceFetch` is not set, else read
   * (and cached when `maxAge` > 0). `undefined` when the secret holds neither a (non-empty) string nor bytes.
   */
  async get(secretId: string, options: { maxAge: number; forceFetch?: boolean }): Promise<SecretValue | undefined> {
    const cached = this.store.get(secretId);
    if (!options.forceFetch && cached && cached.expiresAt >= Date.now()) return cached.value;
    const reply = await this.client.getSecretValue({ SecretId: secretId });
    // As the SDK's provider did: an empty string counts as no string.
    const value = reply.SecretString ? reply.SecretString : reply.SecretBinary;
    if (value === undefined) return undefined;
    // Whole seconds, as the provider's expiry (Date#setSeconds) counted them.
    if (options.maxAge > 0)
      this.store.set(secretId, { value, expiresAt: Date.now() + Math.trunc(options.maxAge) * 1000 });
    return value;
  }
}
