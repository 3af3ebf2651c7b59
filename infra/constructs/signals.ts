/**
 * The signal queue between the webhook and the signal worker (functions/signals/, docs/reference/signals.md): SQS, encrypted,
 * TLS only, with a dead-letter queue for a signal the worker failed on three times, and an alarm when one lands
 * there. Its visibility timeout is six times the worker's timeout (AWS's advice for a Lambda event source), so a
 * message is not delivered again while a run is still on it.
 */
import { Duration, type Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as sqs from 'aws-cdk-lib/aws-sqs';

import { SIGNAL_WORKER } from '../../functions/signals/definitions.js';

/** A signal is delivered this many times before it goes to the dead-letter queue. */
export const SIGNAL_MAX_RECEIVES = 3;

export interface SignalQueue {
  queue: sqs.Queue;
  deadLetters: sqs.Queue;
}

export const addSignalQueue = (stack: Stack, alarmAction: cloudwatch.IAlarmAction): SignalQueue => {
  const deadLetters = new sqs.Queue(stack, 'SignalDeadLetters', {
    enforceSSL: true,
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    retentionPeriod: Duration.days(14),
  });
  const queue = new sqs.Queue(stack, 'SignalQueue', {
    enforceSSL: true,
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    visibilityTimeout: Duration.seconds(6 * (SIGNAL_WORKER.bundle.timeoutSeconds ?? 30)),
    retentionPeriod: Duration.days(1),
    deadLetterQueue: { queue: deadLetters, maxReceiveCount: SIGNAL_MAX_RECEIVES },
  });
  deadLetters
    .metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) })
    .createAlarm(stack, 'SignalDeadLettersAlarm', {
      alarmDescription:
        'gtt-gateway: a signal the worker failed on went to the dead-letter queue (docs/reference/signals.md)',
      threshold: 1,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    })
    .addAlarmAction(alarmAction);
  return { queue, deadLetters };
};

/**
 * The CDK context `signalBaseUrl`: the base of the strategies' webhook URLs when the API is reached through a custom
 * domain (`https://trade.example.com`, or with a base path). Absent: the API's own URL, from each request.
 */
export const resolveSignalBaseUrl = (value: unknown): string | undefined => {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !/^https:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(value))
    throw new Error(
      `signalBaseUrl must be an https URL such as https://trade.example.com (got ${JSON.stringify(value)})`,
    );
  return value.replace(/\/+$/, '');
};
