/**
 * Publishes lifecycle events on the deployment's EventBridge bus with the gateway's PutEvents client (events.ts;
 * locally: the PutEvents endpoint of `npm start`, through `endpoint`). PutEvents takes 10 entries per call
 * and may accept some and refuse others: the result says which were published, so a caller records only those.
 */
import { redactDeep } from '../contract/redact.js';
import { EVENT_SOURCE } from '../schemas/event-types.js';
import type { LifecycleEvent } from '../schemas/events.js';
import { EventBridge } from './events.js';

export interface PublishResult {
  /** The eventIds EventBridge accepted. */
  published: string[];
  /** The ones it refused (or that were never sent because the call failed), with why. */
  failed: { eventId: string; reason: string }[];
}

export interface EventPublisher {
  /** Publishes within `timeoutMs` (default 10 s); what did not make it is in `failed`. */
  publish(events: readonly LifecycleEvent[], timeoutMs?: number): Promise<PublishResult>;
}

const BATCH = 10;

export interface PublisherOptions {
  busName: string;
  /** Local runs and tests only. */
  endpoint?: string | undefined;
}

/**
 * The client gives up quickly: an order's reply waits for its event, so a slow or unreachable EventBridge must cost
 * seconds at most (the watcher publishes what was not). One retry, 1 s to connect, 2 s per attempt, and the caller's
 * deadline (`timeoutMs`) over all of it.
 */
export const createEventPublisher = (options: PublisherOptions): EventPublisher => {
  const client = new EventBridge(options.endpoint, {
    retry: { maxAttempts: 2 },
    connectTimeoutMs: 1_000,
    requestTimeoutMs: 2_000,
  });
  return {
    async publish(events, timeoutMs = 10_000) {
      const deadline = AbortSignal.timeout(Math.max(100, timeoutMs));
      const result: PublishResult = { published: [], failed: [] };
      for (let i = 0; i < events.length; i += BATCH) {
        const batch = events.slice(i, i + BATCH);
        try {
          const reply = await client.putEvents(
            {
              Entries: batch.map((event) => ({
                EventBusName: options.busName,
                Source: EVENT_SOURCE,
                DetailType: event.detailType,
                // No known secret and nothing token-shaped leaves in an event, whatever the broker echoed.
                Detail: JSON.stringify(redactDeep(event.detail)),
              })),
            },
            { abortSignal: deadline },
          );
          batch.forEach((event, index) => {
            const entry = reply.Entries?.[index];
            if (entry?.EventId && !entry.ErrorCode) result.published.push(event.detail.eventId);
            else
              result.failed.push({
                eventId: event.detail.eventId,
                reason: `${entry?.ErrorCode ?? 'NoEntry'}: ${entry?.ErrorMessage ?? 'not accepted'}`,
              });
          });
        } catch (error) {
          const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
          for (const event of batch) result.failed.push({ eventId: event.detail.eventId, reason });
        }
      }
      return result;
    },
  };
};
