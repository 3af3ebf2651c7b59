/**
 * How one validated request of a table entry is carried out, once the shared middlewares have read it: a dry run
 * (the exact request, nothing sent), an idempotent call (the record claimed first, a replay answered from it), or a
 * plain call. The call itself: a permit from the order-rate governor for order writes, then the broker (Logout done
 * everywhere), then the entry's second read if it has one. The handler of the shared stack is this, and only this.
 */
import type { Context } from 'aws-lambda';

import { callBroker } from '../broker/call-broker.js';
import type { BrokerAuth } from '../broker/jdata.js';
import { type LogoutDeps, logoutEverywhere } from '../broker/logout.js';
import type { BrokerSession } from '../broker/session.js';
import { ConfigurationError } from '../contract/errors.js';
import type { AnyOperation } from '../contract/operation.js';
import { redactDeep } from '../contract/redact.js';
import { dryRun } from '../safety/dry-run.js';
import type { IdempotentExecutor } from '../safety/idempotency.js';
import type { TradingControls } from '../safety/trading-controls.js';
import type { LifecycleEvent } from '../schemas/events.js';

/** What the executor needs of the deployment's configuration. */
export interface ExecutorConfig {
  brokerBaseUrl: string;
  brokerAuth: BrokerAuth;
  brokerTimeoutMs: number;
  controlTableName?: string | undefined;
  algoId?: string | undefined;
}

export interface ExecutionRequest {
  operation: AnyOperation;
  config: ExecutorConfig;
  input: unknown;
  options: { idempotencyKey?: string | undefined; dryRun?: boolean | undefined };
  session: () => Promise<BrokerSession>;
  refreshSession: () => Promise<BrokerSession>;
  /** Logout's view of the container's session source (the token held, the secret read fresh, the logged-out mark). */
  sessions: LogoutDeps['sessions'];
  idempotency?: IdempotentExecutor | undefined;
  controls?: TradingControls | undefined;
  context: Context;
  /**
   * Called with the broker's result of a call actually sent (not a replay, not a dry run): the lifecycle events to
   * queue, which the idempotency record's completing write carries (the transactional outbox).
   */
  onBrokerResult?: ((result: unknown) => Promise<readonly LifecycleEvent[]>) | undefined;
}

/** What happened, for the access log and the metrics: written as it happens, so a failure still tells it. */
export interface ExecutionFacts {
  replayed?: boolean;
  brokerAttempts?: number;
  brokerMs?: number;
  governorCalls?: number;
  /** The idempotency record's completing write carried the success's events. */
  outboxQueued?: boolean;
}

/** Carries out one request; `facts` (the shared stack's state) learns what happened, success or not. */
export const execute = async (request: ExecutionRequest, facts: ExecutionFacts): Promise<unknown> => {
  const { operation, config, input, options, idempotency, controls, context } = request;
  if (options.dryRun)
    return dryRun(operation, input, await request.session(), config.brokerBaseUrl, config.brokerAuth, config.algoId);
  if (operation.kind === 'order' && config.controlTableName && !controls) {
    // Never send an order write around the governor.
    throw new ConfigurationError(
      `${operation.name} was built without the trading controls (order-rate governor, kill switch); nothing was sent.`,
    );
  }
  if (options.idempotencyKey !== undefined && !idempotency) {
    // Never ignore a key: the caller would believe a retry is safe.
    throw new ConfigurationError(
      `${operation.name} was built without idempotency support, so its key cannot be honoured; nothing was sent.`,
    );
  }

  const send = async (): Promise<{ result: unknown; outbox?: readonly LifecycleEvent[] }> => {
    // Every broker write takes a permit from the account's governor first (after the idempotency record is claimed,
    // so a replay takes none, and a refusal frees the key: nothing was sent).
    if (operation.kind === 'order' && controls) {
      facts.governorCalls = (
        await controls.acquire((await request.session()).uid, operation.refusedWhileHalted === true)
      ).dynamoCalls;
    }
    const started = performance.now();
    try {
      const wire = {
        baseUrl: config.brokerBaseUrl,
        auth: config.brokerAuth,
        // A rotated-token retry must still end before the Lambda does, so our own timeout fires, not Lambda's.
        timeoutMs: () => Math.max(100, Math.min(config.brokerTimeoutMs, context.getRemainingTimeInMillis() - 1_000)),
        ...(config.algoId ? { algoId: config.algoId } : {}),
      };
      const calls = { ...wire, session: request.session, refreshSession: request.refreshSession };
      // Logout ends the token in the secret (read fresh) and the one this container holds, and marks the secret
      // logged out: not just the token this container happened to cache.
      const { result, attempts } =
        operation.broker === 'Logout'
          ? await logoutEverywhere(operation, input, { ...wire, sessions: request.sessions })
          : await callBroker(operation, input, calls);
      facts.brokerAttempts = attempts;
      if (operation.alsoRead && operation.kind === 'read') {
        // A second read folded into the first (e.g. the orders fired GTTs placed); its failure is said, not thrown.
        const other = await callBroker(operation.alsoRead.operation, {}, calls).then(
          (read) => ((facts.brokerAttempts = (facts.brokerAttempts ?? 0) + read.attempts), read.result),
          () => undefined,
        );
        return { result: operation.alsoRead.fold(result, other) };
      }
      return { result, outbox: (await request.onBrokerResult?.(result)) ?? [] };
    } finally {
      facts.brokerMs = Math.round((performance.now() - started) * 10) / 10;
    }
  };

  if (options.idempotencyKey !== undefined && idempotency) {
    const run = await idempotency.run(options.idempotencyKey, input, context, async () => {
      const sent = await send();
      // The record's completing write is about to carry the events: the outbox needs no write of its own.
      if (sent.outbox?.length) facts.outboxQueued = true;
      return sent;
    });
    facts.replayed = run.replayed;
    // A replay is redacted again on its way out: a record stored before a token was known is no exception.
    return {
      ...(redactDeep(run.result) as object),
      idempotency: { key: options.idempotencyKey, replayed: run.replayed },
    };
  }
  return (await send()).result;
};
