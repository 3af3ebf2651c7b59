/**
 * The one AWS client of the function set: a service's JSON protocol (`POST /`, `X-Amz-Target: <prefix>.<Op>`,
 * `Content-Type: application/x-amz-json-1.0` or `-1.1`) signed with SigV4 (sigv4.ts) over a keep-alive
 * `node:http(s)` agent held per client. DynamoDB (dynamo.ts), Secrets Manager (secrets-manager.ts) and EventBridge
 * (events.ts) are thin layers over it: their operations' names and shapes. Chosen by measurement for DynamoDB
 * (bench/dynamo-clients.ts, docs/explanation/benchmarks.md): about a third of the SDK v3 client's CPU per warm call and of its
 * cold start, a few KB of bundle against the SDK client's 160-190 KB each.
 *
 * A refusal becomes an `AwsError` named after the exception (the type after `#` of `__type`, or the
 * `x-amzn-ErrorType` header: `ResourceNotFoundException`, `ConditionalCheckFailedException`...) carrying the reply's
 * other fields and `$metadata.httpStatusCode`, as the SDK's errors do. Retries follow the SDK's standard mode
 * (retry.ts) with the service's attempts and base delay.
 *
 * Where and as whom, as the SDK clients did (endpoint.ts): locally the endpoint URL and its user info's credentials;
 * deployed `https://<host prefix>.<AWS_REGION>.amazonaws.com` with the role's credentials from the environment, read
 * per call.
 */
import http from 'node:http';
import https from 'node:https';

import { credentialsOfEnvironment, regionOfEnvironment } from '../runtime/env-credentials.js';
import { clientTarget, LOCAL_SIGNING_REGION } from './endpoint.js';
import { retryDecision, type RetryPolicy, RetryQuota, sleep, STANDARD_RETRY } from './retry.js';
import { type SigningCredentials, signPost } from './sigv4.js';

/** What the SDK's `$metadata` held that anything reads. */
export interface AwsMetadata {
  httpStatusCode?: number | undefined;
  requestId?: string | undefined;
  attempts?: number | undefined;
}

/** A refusal by the service: `name` is the exception's type; the reply's other fields are kept on it. */
export class AwsError extends Error {
  readonly $metadata: AwsMetadata;
  readonly $fault: 'client' | 'server';
  [field: string]: unknown;

  constructor(name: string, message: string, status: number, requestId: string | undefined) {
    super(message);
    this.name = name;
    this.$metadata = { httpStatusCode: status, requestId };
    this.$fault = status >= 500 ? 'server' : 'client';
  }
}

export interface SendOptions {
  abortSignal?: AbortSignal | undefined;
}

/** What names the service on the wire and in the signature. */
export interface AwsJsonService {
  /** The signing name (`dynamodb`, `secretsmanager`, `events`). */
  signingName: string;
  /** The deployed endpoint's host before `.<region>.amazonaws.com`. */
  hostPrefix: string;
  /** `X-Amz-Target`'s part before the operation (`DynamoDB_20120810`, `secretsmanager`, `AWSEvents`). */
  targetPrefix: string;
  /** The protocol's version: `1.0` (DynamoDB) or `1.1`. */
  jsonVersion: '1.0' | '1.1';
  /** The service's name in messages. */
  title: string;
}

export interface AwsJsonClientOptions {
  /** Attempts per call and the transient backoff's base (retry.ts); default the SDK's standard mode. */
  retry?: Partial<RetryPolicy>;
  /** The jitter's source (tests make the backoff short with it). */
  random?: () => number;
  /** Give up an attempt whose connection is not made within this (ms; the SDK's `connectionTimeout`). */
  connectTimeoutMs?: number;
  /** Give up an attempt whose socket stays idle this long (ms; the SDK's `requestTimeout`). */
  requestTimeoutMs?: number;
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** The error of a non-200 reply: the type after `#` of `__type` (or the x-amzn-ErrorType header), the message. */
export const errorOf = (reply: Reply, title = 'AWS'): AwsError => {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = reply.text ? JSON.parse(reply.text) : {};
    if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    body = { message: reply.text.slice(0, 500) };
  }
  const header = reply.headers['x-amzn-errortype'];
  const type = String(body.__type ?? (typeof header === 'string' ? header.split(':')[0] : '') ?? '');
  const name = type.split('#').pop() || (reply.status >= 500 ? 'InternalServerError' : `HttpError${reply.status}`);
  const message = String(body.message ?? body.Message ?? `${title} answered HTTP ${reply.status}`);
  const requestId = reply.headers['x-amzn-requestid'];
  const error = new AwsError(name, message, reply.status, typeof requestId === 'string' ? requestId : undefined);
  for (const [field, value] of Object.entries(body))
    if (field !== '__type' && field !== 'message' && field !== 'Message') error[field] = value;
  return error;
};

const timeoutError = (message: string): Error => Object.assign(new Error(message), { name: 'TimeoutError' });

export class AwsJsonClient {
  private readonly url: URL;
  private readonly local: boolean;
  private readonly credentials: SigningCredentials | undefined;
  private readonly agent: http.Agent;
  private readonly quota = new RetryQuota();
  private readonly policy: RetryPolicy;
  private readonly random: () => number;
  private readonly contentType: string;

  constructor(
    private readonly service: AwsJsonService,
    endpoint: string | undefined,
    private readonly options: AwsJsonClientOptions = {},
  ) {
    const target = clientTarget(endpoint);
    this.local = target.endpoint !== undefined;
    this.url = new URL(
      target.endpoint ?? `https://${service.hostPrefix}.${regionOfEnvironment() ?? 'us-east-1'}.amazonaws.com`,
    );
    this.credentials = target.credentials;
    // The SDK's node-http-handler keeps up to 50 sockets per host alive; so does this.
    this.agent = new (this.url.protocol === 'https:' ? https : http).Agent({ keepAlive: true, maxSockets: 50 });
    this.policy = { ...STANDARD_RETRY, ...options.retry };
    this.random = options.random ?? Math.random;
    this.contentType = `application/x-amz-json-${service.jsonVersion}`;
  }

  private region(): string {
    const region = regionOfEnvironment();
    if (region) return region;
    if (this.local) return LOCAL_SIGNING_REGION;
    throw new Error(
      `No AWS_REGION in the environment: Lambda sets it; set it to call ${this.service.title} from elsewhere.`,
    );
  }

  private signingCredentials(): SigningCredentials {
    if (this.credentials) return this.credentials;
    const credentials = credentialsOfEnvironment();
    if (!credentials) {
      const error = new Error(
        'No AWS credentials: the endpoint URL carries none and the environment has no AWS_ACCESS_KEY_ID and ' +
          'AWS_SECRET_ACCESS_KEY (Lambda sets them from the role).',
      );
      error.name = 'CredentialsProviderError';
      throw error;
    }
    return credentials;
  }

  /** Calls the operation, retrying what the SDK's standard mode retries; the reply, or the error of the last try. */
  async call<O>(operation: string, input: unknown, options: SendOptions = {}): Promise<O & { $metadata: AwsMetadata }> {
    const body = JSON.stringify(input);
    const signal = options.abortSignal;
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      try {
        const reply = await this.post(operation, body, signal);
        if (reply.status !== 200) throw errorOf(reply, this.service.title);
        this.quota.succeeded(attempt > 1);
        const output = (reply.text ? JSON.parse(reply.text) : {}) as O & { $metadata: AwsMetadata };
        const requestId = reply.headers['x-amzn-requestid'];
        output.$metadata = {
          httpStatusCode: 200,
          requestId: typeof requestId === 'string' ? requestId : undefined,
          attempts: attempt,
        };
        return output;
      } catch (error) {
        const decision = retryDecision(error, attempt, this.policy, this.quota, this.random);
        if (error instanceof AwsError) error.$metadata.attempts = attempt;
        if (decision === undefined) throw error;
        await sleep(decision.delayMs, signal);
      }
    }
  }

  private post(operation: string, body: string, signal: AbortSignal | undefined): Promise<Reply> {
    const { headers } = signPost({
      host: this.url.host,
      headers: { 'content-type': this.contentType, 'x-amz-target': `${this.service.targetPrefix}.${operation}` },
      body,
      region: this.region(),
      service: this.service.signingName,
      credentials: this.signingCredentials(),
    });
    headers['content-length'] = String(Buffer.byteLength(body));
    const transport = this.url.protocol === 'https:' ? https : http;
    const { connectTimeoutMs, requestTimeoutMs } = this.options;
    return new Promise<Reply>((resolve, reject) => {
      const request = transport.request(
        {
          protocol: this.url.protocol,
          hostname: this.url.hostname,
          port: this.url.port,
          path: '/',
          method: 'POST',
          headers,
          agent: this.agent,
          ...(signal ? { signal } : {}),
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      );
      request.on('error', reject);
      // As the SDK's node-http-handler: a connection not made in time, a socket idle too long (TimeoutError, retried).
      if (connectTimeoutMs !== undefined)
        request.on('socket', (socket) => {
          if (!socket.connecting) return;
          const timer = setTimeout(() => {
            request.destroy();
            reject(timeoutError(`Socket timed out without establishing a connection within ${connectTimeoutMs} ms`));
          }, connectTimeoutMs);
          socket.once('connect', () => clearTimeout(timer));
          request.once('close', () => clearTimeout(timer));
        });
      if (requestTimeoutMs !== undefined)
        request.setTimeout(requestTimeoutMs, () => {
          request.destroy();
          reject(timeoutError(`Connection timed out after ${requestTimeoutMs} ms`));
        });
      request.end(body);
    });
  }
}
