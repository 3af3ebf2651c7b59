/**
 * The gateway stack's closing steps: its outputs (API URL, secret, tables, alarm topic, audit bucket, the session's
 * and the events' own outputs, the egress addresses and setting) and its cdk-nag suppressions (the runtime, the
 * X-Ray and log-stream wildcards, the broker secret's rotation). Functions that add to the stack (docs/architecture.md,
 * the CDK app), so the construct ids stay where they were.
 */
import { CfnOutput } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { NagSuppressions } from 'cdk-nag';

import type { GatewayStack } from '../stacks/gateway-stack.js';
import { EGRESS_IP_DESCRIPTION } from './egress.js';

export const addGatewayOutputs = (stack: GatewayStack, alarmTopic: sns.ITopic): void => {
  new CfnOutput(stack, 'ApiUrl', {
    value: stack.api.apiEndpoint,
    description: 'Base URL of the HTTP API (SigV4-signed requests)',
  });
  new CfnOutput(stack, 'BrokerSecretArn', {
    value: stack.secret.secretArn,
    description: 'Put the broker session JSON here',
  });
  new CfnOutput(stack, 'IdempotencyTableName', { value: stack.idempotencyTable.tableName });
  new CfnOutput(stack, 'AlarmTopicArn', { value: alarmTopic.topicArn });
  new CfnOutput(stack, 'AuditBucketName', {
    value: stack.audit.bucket.bucketName,
    description: 'Audit records (order actions, kill switch, session renewals), locked for 5 years',
  });
  stack.session.addOutputs(stack.api.apiEndpoint);
  stack.events.addOutputs();
  if (stack.staticEgress) {
    stack.staticEgress.addresses.forEach(
      (eip, i) =>
        new CfnOutput(stack, `EgressIp${i + 1}`, { value: eip.attrPublicIp, description: EGRESS_IP_DESCRIPTION }),
    );
    new CfnOutput(stack, 'EgressSetting', {
      value: `${stack.egress}: static egress, the broker sees only EgressIp1 and EgressIp2`,
      description: 'How the functions reach the broker (docs/explanation/egress.md)',
    });
  } else {
    new CfnOutput(stack, 'EgressSetting', {
      value:
        'none: no static egress IP (Lambda shared addresses); brokers that require a registered static IP will reject orders',
      description:
        'How the functions reach the broker (docs/explanation/egress.md); deploy with -c egress=nat-instance for two static IPs',
    });
  }
};

export const suppressGatewayNagFindings = (stack: GatewayStack): void => {
  for (const gatewayFunction of [
    ...stack.functions.values(),
    ...stack.session.functions.values(),
    ...(stack.events.watcher ? [stack.events.watcher] : []),
    ...(stack.events.forwarder ? [stack.events.forwarder] : []),
    ...(stack.events.notifyFormatter ? [stack.events.notifyFormatter] : []),
  ]) {
    NagSuppressions.addResourceSuppressions(
      gatewayFunction,
      [
        {
          id: 'AwsSolutions-L1',
          reason:
            'nodejs22.x is the runtime this project targets and tests (Node 20/22 compatible code); newer runtimes are adopted deliberately, not by default.',
        },
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'X-Ray PutTraceSegments/PutTelemetryRecords (and, for the EventForwarder\'s stream trigger, dynamodb:ListStreams) support no resource-level permissions (AWS requires "*"); the log-stream wildcard is inside this function\'s own log group ARN. No wildcard is granted on any data resource.' +
            (stack.staticEgress
              ? ' In the VPC: the ENI actions of AWSLambdaVPCAccessExecutionRole (Create/Delete/Describe network interfaces, Describe subnets, Assign/Unassign private IPs), which Lambda checks at function creation; DescribeNetworkInterfaces supports only "*".'
              : ''),
          appliesTo: ['Resource::*', { regex: '/^Resource::<.*Logs.*\\.Arn>:\\*$/g' }],
        },
      ],
      true,
    );
  }
  if (stack.secret instanceof secretsmanager.Secret) {
    NagSuppressions.addResourceSuppressions(stack.secret, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          "The broker's access token is issued by the broker's own login flow; Secrets Manager cannot rotate it. The trader puts a fresh token (README) and the functions re-read it.",
      },
    ]);
  }
};
