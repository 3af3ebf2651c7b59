/**
 * The broker session (access token + account) comes from one Secrets Manager secret, read through Powertools
 * Parameters' SecretsProvider, which caches per container for `maxAge` seconds without background timers.
 */
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ConfigurationError } from '../contract/errors.js';
import { brokerSecretSchema, type BrokerSession } from '../schemas/session.js';

export type { BrokerSession };

export interface SessionSourceOptions {
  secretId: string;
  maxAgeSeconds: number;
  /** Local endpoint for tests and `npm start`; absent in AWS. */
  endpoint?: string;
}

export class SessionSource {
  private readonly provider: SecretsProvider;
  private prefetched?: Promise<BrokerSession>;

  constructor(private readonly options: SessionSourceOptions) {
    const client = new SecretsManagerClient(options.endpoint ? { endpoint: options.endpoint } : {});
    this.provider = new SecretsProvider({ awsSdkV3Client: client });
  }

  /** The cached session, read from Secrets Manager when older than maxAge. */
  current(): Promise<BrokerSession> {
    // A read started at init (prefetch) serves the first call; should it have failed, the call reads again, so an
    // init-time failure surfaces at the invocation as a clean error, never as an unhandled rejection.
    const prefetched = this.prefetched;
    this.prefetched = undefined;
    return prefetched ? prefetched.catch(() => this.load(false)) : this.load(false);
  }

  /** Start reading the secret now (at init), overlapping it with the rest of the cold start. */
  prefetch(): void {
    const read = this.load(false);
    read.catch(() => undefined);
    this.prefetched = read;
  }

  /** Read the secret again now, e.g. after the broker said the session expired (the token may have been rotated). */
  refresh(): Promise<BrokerSession> {
    return this.load(true);
  }

  private async load(forceFetch: boolean): Promise<BrokerSession> {
    const { secretId, maxAgeSeconds } = this.options;
    let raw: unknown;
    try {
      raw = await this.provider.get(secretId, { maxAge: maxAgeSeconds, forceFetch });
    } catch (error) {
      throw new ConfigurationError(`Could not read the broker session secret "${secretId}": ${describeSdkError(error)}`, {
        cause: error,
      });
    }
    if (typeof raw !== 'string') {
      throw new ConfigurationError(`The broker session secret "${secretId}" must be a JSON string, not binary`);
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      // Never echo the secret's text: it holds the token.
      throw new ConfigurationError(`The broker session secret "${secretId}" is not valid JSON`);
    }
    const parsed = brokerSecretSchema.safeParse(json);
    if (!parsed.success) {
      // details in the one shape of the error contract: {field, message}.
      const problems = parsed.error.issues.map((i) => ({ field: i.path.join('.') || '(root)', message: i.message }));
      throw new ConfigurationError(
        `The broker session secret "${secretId}" must be JSON {accessToken, uid, actid, brkname?}: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`,
        { details: problems },
      );
    }
    return parsed.data;
  }
}

const describeSdkError = (error: unknown): string => {
  // Powertools wraps SDK errors in GetParameterError with the original as `cause`.
  const root = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (root instanceof Error) return root.name === 'Error' ? root.message : `${root.name}: ${root.message}`;
  return String(root);
};
