/**
 * The broker session (access token + account) comes from one Secrets Manager secret, read through a SecretCache
 * (base/aws/secrets-manager.ts), which caches per container for `maxAge` seconds without background timers.
 *
 * A secret marked logged out (`loggedOutAt`, written by Logout) is never trusted from the cache: it is read again
 * at once (a login since then is picked up without waiting for maxAge), and while it stays logged out every call
 * answers SESSION_EXPIRED without calling the broker. The warm path with a live session costs no extra read: a
 * container still holding a token that Logout ended meets the broker's `Session Expired`, re-reads (the rotated-token
 * retry) and stops there.
 */
import { SecretCache, type SecretsManager, secretsManagerClient } from '../aws/secrets-manager.js';
import { ConfigurationError, SessionExpiredError } from '../contract/errors.js';
import { rememberSecret } from '../contract/redact.js';
import { brokerSecretSchema, type BrokerSession } from '../schemas/session.js';

export type { BrokerSession };

export interface SessionSourceOptions {
  secretId: string;
  maxAgeSeconds: number;
  /** Local endpoint for tests and `npm start`; absent in AWS. */
  endpoint?: string;
}

export class SessionSource {
  private readonly provider: SecretCache;
  private readonly client: SecretsManager;
  private prefetched?: Promise<BrokerSession>;
  private latest?: BrokerSession;
  /** The secret text `latest` was parsed from. */
  private latestRaw?: string;
  /** When the secret was last read from Secrets Manager for sure (ms): a first read, or a forced one. */
  private fetchedAt = 0;

  constructor(private readonly options: SessionSourceOptions) {
    this.client = secretsManagerClient(options.endpoint);
    this.provider = new SecretCache(this.client);
  }

  /** The cached session, read from Secrets Manager when older than maxAge; SESSION_EXPIRED once logged out. */
  async current(): Promise<BrokerSession> {
    return live(this.options.secretId, await this.cached());
  }

  /**
   * The session as the secret holds it, logged out or not (Logout needs the account of a logged-out secret). A
   * cached logged-out mark is read again, never trusted.
   */
  async cached(): Promise<BrokerSession> {
    // A read started at init (prefetch) serves the first call; should it have failed, the call reads again, so an
    // init-time failure surfaces at the invocation as a clean error, never as an unhandled rejection.
    const prefetched = this.prefetched;
    this.prefetched = undefined;
    const session = await (prefetched ? prefetched.catch(() => this.load(false)) : this.load(false));
    return session.loggedOutAt === undefined ? session : this.load(true);
  }

  /**
   * When this container last read the secret from Secrets Manager (ms; a cached answer is older than this at most
   * by maxAge): the order-rate governor re-reads it when a logout came after (orders/safety/trading-controls.ts).
   */
  readAt(): number {
    return this.fetchedAt;
  }

  /** The session read last (by any of the calls here), without reading again: e.g. for its account. */
  last(): BrokerSession | undefined {
    return this.latest;
  }

  /** Read the secret now, bypassing the cache, logged out or not. */
  fresh(): Promise<BrokerSession> {
    return this.load(true);
  }

  /** Start reading the secret now (at init), overlapping it with the rest of the cold start. */
  prefetch(): void {
    const read = this.load(false);
    read.catch(() => undefined);
    this.prefetched = read;
  }

  /** Read the secret again now, e.g. after the broker said the session expired (the token may have been rotated). */
  async refresh(): Promise<BrokerSession> {
    return live(this.options.secretId, await this.load(true));
  }

  /**
   * Write a new version of the secret marked logged out: the account stays, the token is blanked. Every function
   * that reads it from then on answers SESSION_EXPIRED without calling the broker; a login clears it.
   */
  async markLoggedOut(session: BrokerSession, at: Date): Promise<void> {
    const { secretId } = this.options;
    const marked: BrokerSession = {
      accessToken: '',
      uid: session.uid,
      actid: session.actid,
      ...(session.brkname === undefined ? {} : { brkname: session.brkname }),
      loggedOutAt: at.toISOString(),
    };
    try {
      await this.client.putSecretValue({ SecretId: secretId, SecretString: JSON.stringify(marked) });
    } catch (error) {
      throw new ConfigurationError(
        `Could not mark the broker session secret "${secretId}" logged out: ${describeSdkError(error)}`,
        {
          cause: error,
        },
      );
    }
  }

  private async load(forceFetch: boolean): Promise<BrokerSession> {
    const { secretId, maxAgeSeconds } = this.options;
    // A forced read, or the first one (nothing cached yet), certainly reaches Secrets Manager.
    const fetching = forceFetch || this.fetchedAt === 0 ? Date.now() : undefined;
    let raw: unknown;
    try {
      raw = await this.provider.get(secretId, { maxAge: maxAgeSeconds, forceFetch });
    } catch (error) {
      throw new ConfigurationError(
        `Could not read the broker session secret "${secretId}": ${describeSdkError(error)}`,
        {
          cause: error,
        },
      );
    }
    if (typeof raw !== 'string') {
      throw new ConfigurationError(`The broker session secret "${secretId}" must be a JSON string, not binary`);
    }
    // The cached secret's text, already parsed and checked: an order's several session reads parse it once.
    if (raw === this.latestRaw && this.latest) {
      if (fetching !== undefined) this.fetchedAt = Math.max(this.fetchedAt, fetching);
      return this.latest;
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
    // Known from now on: no reply, log line or event of this container may carry it.
    rememberSecret(parsed.data.accessToken);
    this.latest = parsed.data;
    this.latestRaw = raw;
    if (fetching !== undefined) this.fetchedAt = Math.max(this.fetchedAt, fetching);
    return parsed.data;
  }
}

/** A logged-out secret is SESSION_EXPIRED before any broker call. */
const live = (secretId: string, session: BrokerSession): BrokerSession => {
  if (session.loggedOutAt === undefined) return session;
  throw new SessionExpiredError(
    `The broker session was logged out at ${session.loggedOutAt} (secret "${secretId}"); nothing was sent to the broker. Log in again to store a new token.`,
  );
};

const describeSdkError = (error: unknown): string => {
  // An error that wraps the service's refusal (as Powertools' GetParameterError did) is described by its cause.
  const root = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (root instanceof Error) return root.name === 'Error' ? root.message : `${root.name}: ${root.message}`;
  return String(root);
};
