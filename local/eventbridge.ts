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
 * Tests can make it refuse the next entries (`refuseNext`), as PutEvents refuses entries with an `ErrorCode`.
 */
import { randomUUID } from 'node:crypto';
import { awsJsonServer, failAwsJson, replyAwsJson } from './aws-json.js';
import { listenOnLoopback } from './loopback.js';

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

export interface LocalEventBridge {
  url: string;
  busName: string;
  /** Every accepted event, oldest first. */
  events: DeliveredEvent[];
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

  const deliver = async (event: DeliveredEvent) => {
    for (let attempt = 1; attempt <= attempts && !closed; attempt++) {
      try {
        const res = await fetch(options.webhookUrl!, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'Amazon/EventBridge/ApiDestinations' },
          body: JSON.stringify(event),
          signal: AbortSignal.timeout(5_000),
        });
        await res.arrayBuffer();
        if (res.status < 300) return;
        if (res.status !== 429 && res.status < 500) {
          options.onDeliveryProblem?.(`webhook refused ${event['detail-type']} ${event.id}: HTTP ${res.status} (not retried)`);
          return;
        }
        options.onDeliveryProblem?.(`webhook answered HTTP ${res.status} for ${event.id} (attempt ${attempt} of ${attempts})`);
      } catch (error) {
        options.onDeliveryProblem?.(`webhook unreachable for ${event.id} (attempt ${attempt} of ${attempts}): ${(error as Error).message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 100 * 2 ** attempt)));
    }
  };

  const server = awsJsonServer({
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
        if (typeof entry.Source !== 'string' || !entry.Source) return refused('InvalidArgument', 'Parameter Source is not valid.');
        if (typeof entry.DetailType !== 'string' || !entry.DetailType) return refused('InvalidArgument', 'Parameter DetailType is not valid.');
        if ((entry.EventBusName ?? 'default') !== options.busName) {
          return refused('InvalidArgument', `Event bus ${String(entry.EventBusName)} does not exist.`);
        }
        let detail: unknown;
        try {
          detail = JSON.parse(String(entry.Detail ?? ''));
        } catch {
          return refused('MalformedDetail', 'Detail is malformed.');
        }
        if (typeof detail !== 'object' || detail === null || Array.isArray(detail)) return refused('MalformedDetail', 'Detail is malformed.');
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
        if (options.webhookUrl) queue = queue.then(() => deliver(event));
        return { EventId: event.id };
      });
      replyAwsJson(res, 200, { FailedEntryCount: failed, Entries: results });
    },
  });
  const listening = await listenOnLoopback(server, options.port);
  return {
    url: listening.url,
    busName: options.busName,
    events,
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
