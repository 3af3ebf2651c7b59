/**
 * A small local endpoint for the EventBridge API: the awsJson1_1 `PutEvents` call as the real
 * `@aws-sdk/client-eventbridge` client sends it (`POST /`, `X-Amz-Target: AWSEvents.PutEvents`). No npm package
 * serves it, so the project carries one, like the Secrets Manager endpoint.
 *
 * Accepted events are kept (tests read them), handed to `onEvent` (npm start prints one line each), and, with a
 * webhook URL, POSTed the way the stack's API destination delivers them: the EventBridge envelope (`version`, `id`,
 * `detail-type`, `source`, `account`, `time`, `region`, `resources`, `detail`) as the JSON body, retried with
 * backoff on a network error, 429 or 5xx, in order, one at a time.
 *
 * With `notify` (npm start's webhook format and its NOTIFY_ON) only the listed detail-types are forwarded, as the stack's
 * rule pattern forwards them, and the body is the one the stack POSTs for the format (functions/events/notification.ts):
 * `raw` the envelope, `slack` `{text}`, `telegram` `{chat_id, text}`.
 *
 * An event the webhook never took (every attempt failed, or a 4xx that is not retried) is not dropped: like the
 * deployed API destination's dead-letter queue, it is kept in `deadLetters`, appended as one JSON line to
 * `deadLetterFile` when one is given, and reported through `onDeadLetter` (npm start prints where it went).
 *
 * Tests can make it refuse the next entries (`refuseNext`), as PutEvents refuses entries with an `ErrorCode`.
 */
import { randomUUID } from 'node:crypto';
import { appendFile } from 'node:fs/promises';

import { notificationBody, type NotifyFormat } from '../functions/events/notification.js';
import { type AwsJsonGuard, awsJsonServer, failAwsJson, replyAwsJson } from './aws-json.js';
import { listenOnLoopback } from './loopback.js';
import type { EndpointAuthorizer } from './permissions/gate.js';

export interface DeliveredEvent {
  version: '0';
  id: string;
  'detail-type': string;
  source: string;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: Record<string, unknown>;
}

/** An event the webhook did not take, and why. */
export interface DeadLetter {
  event: DeliveredEvent;
  reason: string;
  attempts: number;
  at: string;
}

export interface LocalEventBridge {
  url: string;
  /** From now on a function's request is first held to its deployed permissions (local/permissions/). */
  guard(authorize: EndpointAuthorizer): void;
  busName: string;
  /** Every accepted event, oldest first. */
  events: DeliveredEvent[];
  /** Events the webhook never took, oldest first (the local dead-letter queue). */
  deadLetters: DeadLetter[];
  /** Refuse the next `count` entries with ErrorCode InternalFailure (they are not kept or forwarded). */
  refuseNext(count: number): void;
  /** Resolves once every accepted event was delivered to the webhook (or given up on). */
  drained(): Promise<void>;
  close(): Promise<void>;
}

export interface LocalEventBridgeOptions {
  port?: number;
  busName: string;
  webhookUrl?: string | undefined;
  onEvent?: (event: DeliveredEvent) => void;
  /** Delivery attempts per event (the API destination's retries); default 5. */
  deliveryAttempts?: number;
  /** Log of delivery problems (npm start prints them). */
  onDeliveryProblem?: (message: string) => void;
  /** What reaches the webhook, and in what shape; default: every event, as the envelope. */
  notify?: { format: NotifyFormat; telegramChatId?: string | undefined; on?: readonly string[] | undefined };
  /** Append every dead letter to this file as one JSON line. */
  deadLetterFile?: string | undefined;
  /** Called once per dead letter, after it was kept (and written to the file, if any). */
  onDeadLetter?: (letter: DeadLetter, file?: string) => void;
}

const ACCOUNT = '000000000000';
const REGION = 'us-east-1';
const MAX_BODY = 256 * 1024;
const MAX_ENTRIES = 10;

interface Entry {
  Source?: unknown;
  DetailType?: unknown;
  Detail?: unknown;
  EventBusName?: unknown;
  Resources?: unknown;
}

export const startLocalEventBridge = async (options: LocalEventBridgeOptions): Promise<LocalEventBridge> => {
  const events: DeliveredEvent[] = [];
  let refuse = 0;
  let queue: Promise<void> = Promise.resolve();
  let closed = false;
  const attempts = options.deliveryAttempts ?? 5;
  const deadLetters: DeadLetter[] = [];

  const deadLetter = async (event: DeliveredEvent, reason: string, tried: number) => {
    const letter: DeadLetter = { event, reason, attempts: tried, at: new Date().toISOString() };
    deadLetters.push(letter);
    let file = options.deadLetterFile;
    if (file) {
      try {
        await appendFile(file, `${JSON.stringify(letter)}\n`);
      } catch (error) {
        options.onDeliveryProblem?.(
          `could not write the dead letter of ${event.id} to ${file}: ${(error as Error).message}`,
        );
        file = undefined;
      }
    }
    options.onDeadLetter?.(letter, file);
  };

  const deliver = async (event: DeliveredEvent) => {
    let reason = 'not attempted';
    let attempt = 0;
    while (attempt < attempts && !closed) {
      attempt++;
      try {
        const res = await fetch(options.webhookUrl!, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'Amazon/EventBridge/ApiDestinations' },
          body: JSON.stringify(
            notificationBody(options.notify?.format ?? 'raw', event, options.notify?.telegramChatId),
          ),
          signal: AbortSignal.timeout(5_000),
        });
        await res.arrayBuffer();
        if (res.status < 300) return;
        if (res.status !== 429 && res.status < 500) {
          options.onDeliveryProblem?.(
            `webhook refused ${event['detail-type']} ${event.id}: HTTP ${res.status} (not retried)`,
          );
          await deadLetter(event, `HTTP ${res.status} (not retried)`, attempt);
          return;
        }
        reason = `HTTP ${res.status}`;
        options.onDeliveryProblem?.(
          `webhook answered HTTP ${res.status} for ${event.id} (attempt ${attempt} of ${attempts})`,
        );
      } catch (error) {
        reason = (error as Error).message;
        options.onDeliveryProblem?.(
          `webhook unreachable for ${event.id} (attempt ${attempt} of ${attempts}): ${(error as Error).message}`,
        );
      }
      if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 100 * 2 ** attempt)));
    }
    // Out of attempts (or closing): kept, never silently dropped.
    await deadLetter(
      event,
      closed && attempt < attempts ? `not delivered before shutdown (last: ${reason})` : reason,
      attempt,
    );
  };

  const guard: AwsJsonGuard = {};
  const server = awsJsonServer({
    guard,
    targets: ['AWSEvents.PutEvents'],
    maxBody: MAX_BODY,
    tooLarge: ['ValidationException', 'Total size of the entries in the request is over the limit'],
    handle: (_target, body, res) => {
      const input = (typeof body === 'object' && body !== null ? body : {}) as { Entries?: unknown };
      const entries = input.Entries;
      if (!Array.isArray(entries) || entries.length < 1 || entries.length > MAX_ENTRIES) {
        return failAwsJson(res, 400, 'ValidationException', `Entries must hold 1 to ${MAX_ENTRIES} entries`);
      }
      let failed = 0;
      const results = (entries as Entry[]).map((entry) => {
        const refused = (code: string, message: string) => {
          failed++;
          return { ErrorCode: code, ErrorMessage: message };
        };
        if (typeof entry.Source !== 'string' || !entry.Source)
          return refused('InvalidArgument', 'Parameter Source is not valid.');
        if (typeof entry.DetailType !== 'string' || !entry.DetailType)
          return refused('InvalidArgument', 'Parameter DetailType is not valid.');
        if ((entry.EventBusName ?? 'default') !== options.busName) {
          return refused('InvalidArgument', `Event bus ${String(entry.EventBusName)} does not exist.`);
        }
        let detail: unknown;
        try {
          detail = JSON.parse(String(entry.Detail ?? ''));
        } catch {
          return refused('MalformedDetail', 'Detail is malformed.');
        }
        if (typeof detail !== 'object' || detail === null || Array.isArray(detail))
          return refused('MalformedDetail', 'Detail is malformed.');
        if (refuse > 0) {
          refuse--;
          return refused('InternalFailure', 'Internal failure (refused by the test).');
        }
        const event: DeliveredEvent = {
          version: '0',
          id: randomUUID(),
          'detail-type': entry.DetailType,
          source: entry.Source,
          account: ACCOUNT,
          time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
          region: REGION,
          resources: [],
          detail: detail as Record<string, unknown>,
        };
        events.push(event);
        options.onEvent?.(event);
        const forwarded = !options.notify?.on || options.notify.on.includes(event['detail-type']);
        if (options.webhookUrl && forwarded) queue = queue.then(() => deliver(event));
        return { EventId: event.id };
      });
      replyAwsJson(res, 200, { FailedEntryCount: failed, Entries: results });
    },
  });
  const listening = await listenOnLoopback(server, options.port);
  return {
    guard: (authorize) => (guard.current = authorize),
    url: listening.url,
    busName: options.busName,
    events,
    deadLetters,
    refuseNext: (count) => {
      refuse = count;
    },
    drained: () => queue,
    close: async () => {
      closed = true;
      await listening.close();
    },
  };
};
