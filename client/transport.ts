/**
 * The client's transport: one call of an operation, as the operation list (client/generated/operations.ts) states
 * it, sent through openapi-fetch with SigV4 signing (signing.ts), an Idempotency-Key that every retry of the call
 * reuses, retries only where they are safe, a timeout per attempt and a deadline per call; every failure becomes a
 * GttGatewayError (failures.ts).
 */
import { randomUUID } from 'node:crypto';

import createClient, { type Client } from 'openapi-fetch';

import { GttGatewayError, type GttGatewayErrorInit } from './errors.js';
import {
  answerError,
  causeCode,
  ClientSetupError,
  configError,
  finalError,
  NOT_SENT,
  type RawResult,
  retryable,
  retryAfterMs,
} from './failures.js';
import type { paths } from './generated/openapi.js';
import { OPERATION_INFO, type OperationInfo } from './generated/operations.js';
import {
  type AwsCredentials,
  type CredentialsProvider,
  defaultCredentials,
  isLoopbackUrl,
  plainHttpRefusal,
  regionFromUrl,
  signRequest,
} from './signing.js';
import type { CallInput, GttClientOptions, OperationId, OrderOptions, RetryEvent } from './types.js';

/** What one attempt is given: its own signal (timeout, deadline, caller), the call's key, whether it is a dry run. */
export interface Attempt {
  signal: AbortSignal;
  key: string | undefined;
  dryRun: boolean;
}

/** openapi-fetch without the per-path typing: the method and path come from the operation list. */
interface UntypedClient {
  request(method: string, url: string, init: Record<string, unknown>): Promise<RawResult>;
}

const DEFAULTS = {
  timeoutMs: 10_000,
  deadlineMs: 30_000,
  maxAttempts: 4,
  retryBaseDelayMs: 250,
  retryMaxDelayMs: 4_000,
};

const positive = (name: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw configError('createGttClient', `${name} must be a positive number, got ${String(value)}`);
  return value;
};

export class Transport {
  readonly baseUrl: string;
  /** Whether requests are SigV4-signed. */
  readonly signing: boolean;
  readonly region: string | undefined;
  /**
   * The underlying openapi-fetch client, typed by the generated `paths`: no retries, no error mapping. Signing
   * applies. For whatever the named methods do not cover.
   */
  readonly raw: Client<paths>;

  private readonly options: Required<
    Pick<GttClientOptions, 'timeoutMs' | 'deadlineMs' | 'maxAttempts' | 'retryBaseDelayMs' | 'retryMaxDelayMs'>
  >;
  private readonly credentials: CredentialsProvider;
  private readonly http: (request: Request) => Promise<Response>;
  private readonly random: () => number;
  private readonly onRetry: ((event: RetryEvent) => void) | undefined;

  constructor(options: GttClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch (error) {
      throw configError('createGttClient', `baseUrl is not a URL: ${JSON.stringify(options.baseUrl)}`, error);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw configError('createGttClient', `baseUrl must be http(s), got ${url.protocol}`);
    this.baseUrl = url.href.replace(/\/+$/, '');
    this.signing = options.sign === undefined || options.sign === 'auto' ? !isLoopbackUrl(url) : options.sign;
    const refusal = this.signing ? plainHttpRefusal(url) : undefined;
    if (refusal !== undefined) throw configError('createGttClient', refusal);
    this.region = options.region ?? regionFromUrl(url) ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
    if (this.signing && !this.region) {
      throw configError(
        'createGttClient',
        `SigV4 needs a region: pass \`region\` (${url.hostname} is not an execute-api host) or set AWS_REGION.`,
      );
    }
    this.options = {
      timeoutMs: positive('timeoutMs', options.timeoutMs, DEFAULTS.timeoutMs),
      deadlineMs: positive('deadlineMs', options.deadlineMs, DEFAULTS.deadlineMs),
      maxAttempts: Math.floor(positive('maxAttempts', options.maxAttempts, DEFAULTS.maxAttempts)),
      retryBaseDelayMs: positive('retryBaseDelayMs', options.retryBaseDelayMs, DEFAULTS.retryBaseDelayMs),
      retryMaxDelayMs: positive('retryMaxDelayMs', options.retryMaxDelayMs, DEFAULTS.retryMaxDelayMs),
    };
    const credentials = options.credentials ?? defaultCredentials;
    this.credentials = typeof credentials === 'function' ? credentials : () => Promise.resolve(credentials);
    this.http = options.fetch ?? ((request) => fetch(request));
    this.random = options.random ?? Math.random;
    this.onRetry = options.onRetry;
    this.raw = createClient<paths>({ baseUrl: this.baseUrl, fetch: (request) => this.send(request) });
  }

  /** Signs (when signing) and sends one request. */
  private async send(request: Request): Promise<Response> {
    if (!this.signing) return this.http(request);
    let credentials: AwsCredentials;
    try {
      credentials = await this.credentials();
    } catch (error) {
      throw new ClientSetupError(
        `No AWS credentials for SigV4 (${error instanceof Error ? error.message : String(error)}); nothing was sent.`,
        { cause: error },
      );
    }
    return this.http(await signRequest(request, { region: this.region!, credentials }));
  }

  /**
   * One attempt of `operation` as the operation list states it (its method and path), with the caller's input.
   * `declaredOnly`: the Idempotency-Key and `?dryRun=true` only where the operation takes them (the named methods);
   * otherwise whenever the call has them (`call`, which sends what it is given and lets the gateway judge).
   */
  request<Id extends OperationId>(
    operation: Id,
    input: CallInput<Id>,
    declaredOnly: boolean,
  ): (attempt: Attempt) => Promise<RawResult> {
    const info: OperationInfo = OPERATION_INFO[operation];
    const untyped = this.raw as unknown as UntypedClient;
    const sendKey = !declaredOnly || info.idempotencyKey !== undefined;
    const sendDryRun = !declaredOnly || info.dryRun;
    return ({ signal, key, dryRun }) =>
      untyped.request(info.method.toLowerCase(), info.path, {
        params: {
          path: input.path,
          query: { ...input.query, ...(sendDryRun ? dryRunQuery(dryRun) : {}) },
          header: {
            ...(sendKey ? keyHeader(key) : {}),
            ...(input.ifMatch === undefined ? {} : { 'If-Match': input.ifMatch }),
          },
        },
        ...(input.body === undefined ? {} : { body: input.body }),
        signal,
      });
  }

  // ---- attempts, retries, errors ----

  /** Runs one call: its attempts, with the key, retries, timeouts and errors of the rules above. */
  async run<T>(operation: OperationId, options: OrderOptions, attempt: (a: Attempt) => Promise<RawResult>): Promise<T> {
    const info: OperationInfo = OPERATION_INFO[operation];
    const dryRun = options.dryRun === true;
    const key =
      options.idempotencyKey === false
        ? undefined
        : (options.idempotencyKey ?? (info.idempotencyKey !== undefined && !dryRun ? randomUUID() : undefined));
    // Changes something at the broker, so failures carry an outcome. A dry run sends nothing.
    const changes = info.kind !== 'read' && !dryRun;
    const keyed = key !== undefined && info.idempotencyKey !== undefined;
    // The operation table's word, carried by the OpenAPI document: not guessed from the HTTP method.
    const retrySafe = info.retrySafe || dryRun || keyed;
    const maxAttempts = retrySafe ? Math.max(1, Math.floor(options.maxAttempts ?? this.options.maxAttempts)) : 1;
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const deadline = Date.now() + (options.deadlineMs ?? this.options.deadlineMs);

    let uncertain = false;
    for (let n = 1; ; n++) {
      const result = await this.attemptOnce(attempt, {
        operation,
        key,
        changes,
        dryRun,
        timeoutMs,
        deadline,
        signal: options.signal,
      });
      if (result.ok) return result.data as T;
      const { error } = result;
      error.attempts = n;
      const delay = this.backoff(n, error.code === 'IDEMPOTENCY_IN_PROGRESS' ? undefined : result.retryAfterMs);
      const again =
        retrySafe &&
        n < maxAttempts &&
        retryable(error, keyed) &&
        Date.now() + delay < deadline &&
        !options.signal?.aborted;
      if (!again) throw finalError(error, { changes, uncertain, key });
      if (error.outcome === 'unknown') uncertain = true;
      this.onRetry?.({ operation, attempt: n, error, delayMs: delay, idempotencyKey: key });
      await sleep(delay, options.signal);
    }
  }

  /** One HTTP attempt, bounded by the attempt timeout and the call's deadline; every failure becomes a GttGatewayError. */
  private async attemptOnce(
    attempt: (a: Attempt) => Promise<RawResult>,
    c: {
      operation: OperationId;
      key: string | undefined;
      changes: boolean;
      dryRun: boolean;
      timeoutMs: number;
      deadline: number;
      signal: AbortSignal | undefined;
    },
  ): Promise<{ ok: true; data: unknown } | { ok: false; error: GttGatewayError; retryAfterMs?: number }> {
    const base = { operation: c.operation, ...(c.key === undefined ? {} : { idempotencyKey: c.key }) };
    /** For calls that change something: unknown, unless nothing can have been sent. */
    const outcome = (notSent: boolean) =>
      c.changes ? { outcome: notSent ? ('not_executed' as const) : ('unknown' as const) } : {};
    const fail = (init: Omit<GttGatewayErrorInit, 'operation'>) => ({
      ok: false as const,
      error: new GttGatewayError({ ...base, ...init }),
    });
    if (c.signal?.aborted)
      return fail({ code: 'CLIENT_ABORTED', message: `${c.operation}: aborted before it was sent.`, ...outcome(true) });

    const remaining = c.deadline - Date.now();
    const byDeadline = remaining < c.timeoutMs;
    const controller = new AbortController();
    let why: 'timeout' | 'caller' | undefined;
    const timer = setTimeout(
      () => {
        why = 'timeout';
        controller.abort();
      },
      Math.max(0, Math.min(c.timeoutMs, remaining)),
    );
    const onCallerAbort = () => {
      why = 'caller';
      controller.abort();
    };
    c.signal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      const result = await attempt({ signal: controller.signal, key: c.key, dryRun: c.dryRun });
      if (result.response.ok && result.error === undefined) return { ok: true, data: result.data };
      const retryAfter = retryAfterMs(result.response);
      return {
        ok: false,
        error: answerError(result, c.changes, base),
        ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
      };
    } catch (thrown) {
      if (thrown instanceof ClientSetupError)
        return fail({ code: 'CLIENT_CONFIG_ERROR', message: thrown.message, cause: thrown.cause, ...outcome(true) });
      if (why === 'timeout') {
        const limit = byDeadline ? "the call's deadline ran out" : `no answer within ${c.timeoutMs} ms`;
        return fail({ code: 'CLIENT_TIMEOUT', message: `${c.operation}: ${limit}.`, cause: thrown, ...outcome(false) });
      }
      if (why === 'caller')
        return fail({
          code: 'CLIENT_ABORTED',
          message: `${c.operation}: aborted by the caller.`,
          cause: thrown,
          ...outcome(false),
        });
      if (thrown instanceof SyntaxError) {
        return fail({
          code: 'BAD_RESPONSE',
          message: `${c.operation}: the success answer is not JSON (${thrown.message}).`,
          cause: thrown,
          ...outcome(false),
        });
      }
      const code = causeCode(thrown);
      const text = thrown instanceof Error ? thrown.message : String(thrown);
      return fail({
        code: 'NETWORK_ERROR',
        message: `${c.operation}: ${text}${code ? ` (${code})` : ''} at ${this.baseUrl}.`,
        cause: thrown,
        ...outcome(code !== undefined && NOT_SENT.has(code)),
      });
    } finally {
      clearTimeout(timer);
      c.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  private backoff(attempt: number, retryAfter: number | undefined): number {
    const ceiling = Math.min(this.options.retryMaxDelayMs, this.options.retryBaseDelayMs * 2 ** (attempt - 1));
    const jittered = ceiling / 2 + (this.random() * ceiling) / 2;
    return Math.round(
      retryAfter === undefined ? jittered : Math.min(this.options.retryMaxDelayMs, Math.max(jittered, retryAfter)),
    );
  }
}

/** The Idempotency-Key header, or none (openapi-fetch leaves out undefined headers). */
const keyHeader = (key: string | undefined) => ({ 'Idempotency-Key': key }) as { 'Idempotency-Key': string };
const dryRunQuery = (dryRun: boolean) => (dryRun ? { dryRun: true } : {});

const sleep = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
