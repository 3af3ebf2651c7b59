/**
 * The signal queue's one call: SQS SendMessage in the AWS JSON 1.0 protocol, signed with SigV4 (aws4fetch) with the
 * function's own credentials from its environment. No SQS SDK client: the webhook's bundle stays small and its cold
 * start short (the SDK's client would add its set-up to the first alert's answer). Locally the same call goes to the
 * local queue (local/sqs.ts), which hands each message to the signal worker.
 */
import { AwsClient } from 'aws4fetch';

import { clientTarget } from '../base/aws/endpoint.js';
import { deployedEnv } from '../base/runtime/config.js';
import type { SignalMessage } from '../base/schemas/signals.js';

export interface SignalQueue {
  send(message: SignalMessage, signal?: AbortSignal): Promise<void>;
}

export const sqsQueue = (options: {
  queueUrl: string;
  endpoint?: string | undefined;
  env?: Record<string, string | undefined>;
}): SignalQueue => {
  const env = options.env ?? deployedEnv();
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? /sqs\.([a-z0-9-]+)\./.exec(options.queueUrl)?.[1];
  // Locally the endpoint names the function's own credentials (base/aws/endpoint.ts); deployed, the role's.
  const target = clientTarget(options.endpoint);
  const client = new AwsClient({
    ...(target.credentials ?? {
      accessKeyId: env.AWS_ACCESS_KEY_ID ?? '',
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '',
      ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
    }),
    service: 'sqs',
    ...(region ? { region } : {}),
    // One retry at most: the webhook answers within TradingView's 3 seconds or fails clearly.
    retries: 1,
    initRetryMs: 50,
  });
  const url = target.endpoint ?? `${new URL(options.queueUrl).origin}/`;
  return {
    async send(message, signal) {
      const reply = await client.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AmazonSQS.SendMessage' },
        body: JSON.stringify({ QueueUrl: options.queueUrl, MessageBody: JSON.stringify(message) }),
        ...(signal ? { signal } : {}),
      });
      if (!reply.ok) {
        const text = await reply.text().catch(() => '');
        const type = /"__type"\s*:\s*"([^"]{1,120})"/.exec(text)?.[1] ?? 'unknown';
        throw new Error(`SQS SendMessage failed: HTTP ${reply.status} (${type})`);
      }
    },
  };
};
