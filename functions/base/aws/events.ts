/**
 * EventBridge's PutEvents through the gateway's AWS client (json-client.ts: the JSON 1.1 protocol, `X-Amz-Target:
 * AWSEvents.PutEvents`, SigV4 for `events`, the SDK's standard retries), in place of `@aws-sdk/client-eventbridge`.
 * The request and reply keep the SDK's field names: PutEvents may accept some entries and refuse others, the
 * reply's `Entries` say which, in the order sent (`EventId`, or `ErrorCode` and `ErrorMessage`), and
 * `FailedEntryCount` how many were refused.
 */
import {
  AwsJsonClient,
  type AwsJsonClientOptions,
  type AwsJsonService,
  type AwsMetadata,
  type SendOptions,
} from './json-client.js';

export interface PutEventsRequestEntry {
  EventBusName?: string;
  Source?: string;
  DetailType?: string;
  Detail?: string;
  Resources?: string[];
}

export interface PutEventsResultEntry {
  EventId?: string;
  ErrorCode?: string;
  ErrorMessage?: string;
}

export interface PutEventsOutput {
  FailedEntryCount?: number;
  Entries?: PutEventsResultEntry[];
  $metadata: AwsMetadata;
}

const EVENTS: AwsJsonService = {
  signingName: 'events',
  hostPrefix: 'events',
  targetPrefix: 'AWSEvents',
  jsonVersion: '1.1',
  title: 'EventBridge',
};

export class EventBridge {
  private readonly client: AwsJsonClient;

  /** `options`: the attempts and timeouts of this use (publisher.ts gives up quickly). */
  constructor(endpoint?: string, options: AwsJsonClientOptions = {}) {
    this.client = new AwsJsonClient(EVENTS, endpoint, options);
  }

  putEvents(input: { Entries: PutEventsRequestEntry[] }, options?: SendOptions): Promise<PutEventsOutput> {
    return this.client.call<PutEventsOutput>('PutEvents', input, options);
  }
}
