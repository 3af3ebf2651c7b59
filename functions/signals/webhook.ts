/**
 * The signal webhook, `POST /signals/{id}`, its `{id}` the token (functions/signals/definitions.ts): the only unsigned route besides
 * the OAuth callback. Nothing here is sent to the broker, and the order stack is not imported (a small bundle, a
 * short cold start: the answer comes well within TradingView's 3 seconds). In order:
 *
 * 1. the request rules (no query parameters, no look-alike headers, no Idempotency-Key: duplicates are matched on
 *    the alert itself), a JSON or text/plain body of at most 8 KiB (MAX_BODY_BYTES: 413);
 * 2. the token: hashed, looked up (the container's copy, strategy-cache.ts, else one read), compared in constant
 *    time; unknown (mistyped, rotated, deleted) is 401, the same answer whatever the reason;
 * 3. the strategy's source-address allowlist (`allowIps`, `"tradingview"` its published addresses): 403, confirmed
 *    by a read when the copy said so;
 * 4. the strategy's rate (`ratePerMinute`): 429 with Retry-After (counted in the one write, step 7);
 * 5. the body read by the strategy's source (alerts.ts): a body that cannot be read is 400 naming each field and
 *    the shape expected, and is recorded as a refused signal (Signal Refused);
 * 6. duplicates: the alert's `id` when it has one (one alert in the body), otherwise the SHA-256 of the body, within
 *    10 minutes (store.ts): the same alert again is 200 with the first signal's id and `duplicate: true`;
 * 7. the signal recorded (received, with its pending marker) and its Signal Received event in the outbox, with the
 *    rate and the duplicate claim, in one transaction conditional on the token item still holding the strategy as
 *    read (intake.ts; a copy gone stale is read again and the whole tried again), its message sent to the queue (a
 *    1.5 s wait), then `202 {signalId}`. Once recorded the answer is 202 whatever
 *    SQS does: a SendMessage that fails, times out or answers late is logged (`metric: 'SignalNotQueued'`), the
 *    reply says `queued: false`, and the SignalWorker's sweep acts on the signal within about three minutes
 *    (sweep.ts). The duplicate claim is never freed and the signal never refused for the queue's sake: a message
 *    SQS took after the wait is acted on too, and a repost is the same signal (200, duplicate), so nothing is placed
 *    twice.
 *
 * The token is never logged: log lines name the strategy; the body only as a bounded, redacted preview.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import * as z from 'zod';

import { capText } from '../base/contract/bounded.js';
import {
  type GatewayError,
  PayloadTooLargeError,
  RateLimitedError,
  RequestForbiddenError,
  SignalTokenInvalidError,
  toGatewayError,
  UnsupportedMediaTypeError,
  ValidationFailedError,
} from '../base/contract/errors.js';
import { isHttpApiEvent, readGatewayRequest } from '../base/contract/gateway-request.js';
import { REDACTED, redactText } from '../base/contract/redact.js';
import { functionShell } from '../base/middleware/function-shell.js';
import { routeName } from '../base/middleware/routed-request.js';
import { parseConfig } from '../base/runtime/config.js';
import { envSchema } from '../base/runtime/env.js';
import { logger as defaultLogger, writeLog } from '../base/runtime/logger.js';
import { type SignalRecord, type Strategy, TRADINGVIEW_IPS } from '../base/schemas/signals.js';
import { memo } from '../base/schemas/values.js';
import { readAlerts } from './alerts.js';
import { signalEvent } from './events.js';
import { SignalIntake } from './intake.js';
import { type SignalQueue, sqsQueue } from './queue.js';
import { SIGNAL_WEBHOOK_ROUTES } from './routes.js';
import { StrategyCache } from './strategy-cache.js';
import { StrategyStore } from './strategy-store.js';
import { newSignalId, sha256Hex, TOKEN, tokenHash, withoutToken } from './tokens.js';

/**
 * 8 KiB: TradingView's alert messages and ChartInk's bodies are a few hundred bytes; 8 KiB holds a generic array of
 * 20 alerts with room to spare, and keeps what a leaked URL can make the gateway read and store small.
 */
export const MAX_BODY_BYTES = 8 * 1024;
const PREVIEW_CHARS = 200;
/** The wait for SQS's answer: the whole answer stays well within TradingView's 3 seconds. */
const QUEUE_WAIT_MS = 1_500;
const ROUTE = SIGNAL_WEBHOOK_ROUTES.routes[0]!;

export const webhookEnv = envSchema(
  ['dynamodbEndpoint', 'eventsTableName', 'idempotencyTableName', 'signalQueueUrl', 'sqsEndpoint'],
  {
    overrides: {
      eventsTableName: z.string().min(3, { error: 'must name the events table' }).max(255),
      idempotencyTableName: z.string().min(3, { error: 'must name the idempotency table (the outbox)' }).max(255),
      signalQueueUrl: z.url({ protocol: /^https?$/, error: 'must be the signal queue URL' }),
    },
  },
);

export interface WebhookOptions {
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /** Tests: a queue of their own. */
  queue?: SignalQueue;
}

const json = (statusCode: number, body: unknown): APIGatewayProxyStructuredResultV2 => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const TEXT_TYPES = /^(application\/json|text\/plain)\s*(;|$)/i;

/** The body as text, or the refusal of its type, size or encoding. */
const bodyText = (event: APIGatewayProxyEventV2): string => {
  const type = event.headers?.['content-type'] ?? event.headers?.['Content-Type'];
  if (type !== undefined && !TEXT_TYPES.test(type.trim()))
    throw new UnsupportedMediaTypeError(
      `A signal is sent as application/json or text/plain (got ${JSON.stringify(capText(type, 64))}); nothing was recorded.`,
    );
  const raw = event.body ?? '';
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (bytes.length > MAX_BODY_BYTES)
    throw new PayloadTooLargeError(
      `A signal's body is at most ${MAX_BODY_BYTES} bytes (this one: ${bytes.length}); nothing was recorded.`,
    );
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ValidationFailedError('The request body is not valid UTF-8; nothing was recorded.', {
      details: [{ field: '(body)', message: 'not valid UTF-8' }],
    });
  }
};

const allowed = (strategy: Strategy, ip: string): boolean => {
  if (!strategy.allowIps) return true;
  const list: readonly string[] = strategy.allowIps === 'tradingview' ? TRADINGVIEW_IPS : strategy.allowIps;
  return list.includes(ip);
};

const INVALID_TOKEN =
  'This webhook URL is not valid: its token is mistyped, was rotated, or its strategy was deleted. POST /strategies/{strategyId}/token gives a strategy a new URL; nothing was recorded.';
/** Reads of the strategy in one request, at most: its token item changing under the write each time is a 401. */
const MAX_ROUNDS = 3;

export const createSignalWebhook = (options: WebhookOptions = {}) => {
  const logger = options.logger ?? defaultLogger;
  const parts = memo(() => {
    const config = parseConfig(webhookEnv, options.env, 'signal webhook');
    const table = { tableName: config.eventsTableName, endpoint: config.dynamodbEndpoint };
    return {
      strategies: new StrategyCache(new StrategyStore(table)),
      intake: new SignalIntake({ ...table, outboxTableName: config.idempotencyTableName }),
      queue: options.queue ?? sqsQueue({ queueUrl: config.signalQueueUrl, endpoint: config.sqsEndpoint }),
    };
  });

  const accept = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    // The request rules on everything but the body (read below by its own rules): the path's token is no field.
    const request = readGatewayRequest(
      { name: routeName(ROUTE), query: [], pathParams: {}, kind: ROUTE.kind, dryRun: false },
      { ...event, body: undefined, isBase64Encoded: false, pathParameters: undefined },
    );
    if (request.options.idempotencyKey !== undefined)
      throw new ValidationFailedError(
        `${routeName(ROUTE)} takes no Idempotency-Key: the same alert twice is matched on its id or body; nothing was recorded.`,
        { details: [{ field: 'Idempotency-Key', message: 'not taken here' }] },
      );
    const token = event.pathParameters?.id ?? /^\/signals\/([^/]+)$/.exec(event.rawPath ?? '')?.[1] ?? '';
    // No part of the token is stored, parsed or logged, whatever field of the alert carries it.
    const text = withoutToken(bodyText(event), token, REDACTED);
    const { strategies, intake } = parts();
    // A token of the wrong shape is hashed and looked up like any other: its answer takes the same path and time.
    const hash = tokenHash(TOKEN.test(token) ? token : `!${token}`);
    const ip = event.requestContext.http.sourceIp;
    const preview = capText(redactText(text.replace(/\s+/g, ' ')), PREVIEW_CHARS);
    // The container's copy of the strategy, confirmed by the write itself (intake.ts); read again when it is stale.
    let found = await strategies.get(hash);
    for (let round = 1; found && round <= MAX_ROUNDS; round++) {
      const held = found.value;
      const strategy = held.strategy;
      if (!allowed(strategy, ip)) {
        // A refusal resting on the copy alone is confirmed by a read first.
        if (found.cached) {
          const value = await strategies.read(hash);
          found = value ? { value, cached: false } : undefined;
          continue;
        }
        throw new RequestForbiddenError(
          `Signals for this strategy are accepted only from its allowIps; ${capText(ip, 45)} is not one of them. Nothing was recorded.`,
        );
      }
      const base = {
        signalId: newSignalId(),
        strategyId: strategy.strategyId,
        receivedAt: new Date().toISOString(),
        preview,
      };
      const read = readAlerts(strategy, text);
      let signal: SignalRecord;
      let refusal: ValidationFailedError | undefined;
      let dedupeKey: string | undefined;
      if ('problems' in read) {
        refusal = new ValidationFailedError(
          `This ${strategy.source} signal cannot be read: ${read.problems.map((p) => `${p.field} ${p.message}`).join('; ')}. Expected ${read.expected}. Nothing was acted on.`,
          { details: read.problems },
        );
        signal = { ...base, state: 'refused', alerts: [], reason: refusal.message };
      } else {
        const [only] = read.alerts;
        dedupeKey = read.alerts.length === 1 && only?.id ? `id:${only.id}` : `body:${sha256Hex(text)}`;
        signal = { ...base, state: 'received', alerts: read.alerts };
      }
      const outcome = await intake.record({
        strategy: held,
        signal,
        ...(dedupeKey !== undefined ? { dedupeKey } : {}),
        event: refusal
          ? signalEvent('Signal Refused', signal, strategy, { code: refusal.code })
          : signalEvent('Signal Received', signal, strategy),
      });
      if (outcome.kind === 'stale' || (outcome.kind === 'duplicate' && outcome.signalId === undefined)) {
        // Rotated, deleted or changed since the copy was read (or a claim gone meanwhile): read it again.
        const value = await strategies.read(hash);
        found = value ? { value, cached: false } : undefined;
        continue;
      }
      if (outcome.kind === 'rate-limited')
        throw new RateLimitedError(
          `This strategy takes ${strategy.ratePerMinute} signals a minute (ratePerMinute); nothing was recorded. Retry after ${outcome.retryAfter} s.`,
          {
            outcome: 'not_executed',
            details: { limit: strategy.ratePerMinute, retryAfterSeconds: outcome.retryAfter },
          },
        );
      if (outcome.kind === 'duplicate') {
        logger.info('signal duplicate', { strategyId: strategy.strategyId, signalId: outcome.signalId });
        return json(200, {
          signalId: outcome.signalId,
          state: 'received',
          alerts: signal.alerts.length,
          duplicate: true,
        });
      }
      if (refusal) throw refusal;
      return enqueue(strategy, signal);
    }
    strategies.forget(hash);
    throw new SignalTokenInvalidError(INVALID_TOKEN);
  };

  const enqueue = async (strategy: Strategy, signal: SignalRecord) => {
    const { queue } = parts();
    const { signalId } = signal;
    const read = { alerts: signal.alerts };
    // Recorded: from here the answer is 202 whatever SQS does. A message that never reached the queue (refused,
    // timed out, or taken after the wait) leaves the signal pending, and the worker's sweep acts on it (sweep.ts);
    // one that did is acted on once either way. The claim is kept: a repost is a duplicate, never a second signal.
    let queued = true;
    try {
      await queue.send({ signalId, strategyId: strategy.strategyId }, AbortSignal.timeout(QUEUE_WAIT_MS));
    } catch (error) {
      queued = false;
      writeLog(logger, 'error', 'signal recorded but not queued; the sweep acts on it', {
        strategyId: strategy.strategyId,
        signalId,
        error,
        metric: 'SignalNotQueued',
      });
    }
    logger.info('signal received', {
      strategyId: strategy.strategyId,
      signalId,
      alerts: read.alerts.length,
      queued,
      preview: signal.preview,
    });
    return json(202, { signalId, state: 'received', alerts: read.alerts.length, ...(queued ? {} : { queued: false }) });
  };

  return functionShell<unknown, unknown>({ logger, trigger: 'api' }).handler(async (event: unknown) => {
    try {
      if (!isHttpApiEvent(event))
        throw new ValidationFailedError(
          `${routeName(ROUTE)} is an HTTP route only: a direct invocation has no alert to read; nothing was done.`,
          { details: [{ field: '(event)', message: 'not an HTTP API event' }] },
        );
      return await accept(event);
    } catch (error) {
      const failure: GatewayError = toGatewayError(error);
      writeLog(logger, failure.status >= 500 ? 'error' : 'warn', 'signal refused', {
        code: failure.code,
        status: failure.status,
      });
      // The shell's error contract answers it: the HTTP body, or a named error for a direct invocation.
      throw error;
    }
  });
};
