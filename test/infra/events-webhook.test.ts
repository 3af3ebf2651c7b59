/**
 * The lifecycle events' webhook: rule, API destination, connection, dead-letter queue, alarm, the formats and
 * notifyOn, its VPC placement, and cdk-nag.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';

import { DETAIL_TYPES } from '../../functions/base/schemas/event-types.js';
import { DEFAULT_NOTIFY_ON, NOTIFICATION_SOURCE } from '../../functions/events/notification.js';
import { FUNCTIONS } from '../../functions/manifest/index.js';
import { FORWARDER_EVENTS_TABLE_ACTIONS, WATCHER_EVENTS_TABLE_ACTIONS } from '../../infra/constructs/events.js';
import { PLANS_EVENTS_TABLE_ACTIONS } from '../../infra/constructs/grants.js';
import { tableActionsOf } from '../../infra/constructs/table-grants.js';
import {
  actions,
  envOf,
  idOf,
  nagFindings,
  type Res,
  type Statement,
  statementsByFunction,
  synth,
} from '../support/events-template.js';
import { gatewayTemplate } from '../support/gateway-template.js';

describe('with a webhook', () => {
  let built: ReturnType<typeof synth>;
  let t: Template;
  const SECRET = 'arn:aws:secretsmanager:ap-south-1:111122223333:secret:hook-token-AbCdEf';
  beforeAll(() => {
    built = synth({
      notifyWebhookUrl: 'https://example.com/gtt-hook',
      notifyWebhookHeader: 'X-Hook-Token',
      notifyWebhookSecretArn: SECRET,
      egress: 'nat-instance',
    });
    t = gatewayTemplate(built);
  });

  it('forwards the default notifyOn detail-types of our bus to the API destination, with retries and a dead-letter queue', () => {
    const bus = idOf(t, 'AWS::Events::EventBus', 'EventsBus');
    const queue = idOf(t, 'AWS::SQS::Queue', 'EventsWebhookDeadLetters');
    const destination = idOf(t, 'AWS::Events::ApiDestination', 'EventsWebhookDestination');
    t.hasResourceProperties('AWS::Events::Rule', {
      EventBusName: { Ref: bus },
      EventPattern: { source: ['gtt-gateway'], 'detail-type': [...DEFAULT_NOTIFY_ON] },
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [destination, 'Arn'] },
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queue, 'Arn'] } },
          RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86_400 },
          Input: Match.absent(),
          InputTransformer: Match.absent(),
        }),
      ],
    });
    t.hasResourceProperties('AWS::Events::ApiDestination', {
      HttpMethod: 'POST',
      InvocationEndpoint: 'https://example.com/gtt-hook',
      InvocationRateLimitPerSecond: 10,
    });
    t.hasResourceProperties('AWS::SQS::Queue', { MessageRetentionPeriod: 1_209_600, SqsManagedSseEnabled: true });
  });

  it('authenticates with the given header and secret', () => {
    const connection = (Object.values(t.findResources('AWS::Events::Connection'))[0] as Res).Properties;
    expect(connection.AuthorizationType).toBe('API_KEY');
    const key = (connection.AuthParameters as { ApiKeyAuthParameters: { ApiKeyName: string; ApiKeyValue: unknown } })
      .ApiKeyAuthParameters;
    expect(key.ApiKeyName).toBe('X-Hook-Token');
    expect(JSON.stringify(key.ApiKeyValue)).toContain(SECRET);
  });

  it('alarms on the first dead letter', () => {
    const queue = idOf(t, 'AWS::SQS::Queue', 'EventsWebhookDeadLetters');
    t.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queue, 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [{ Ref: Match.stringLikeRegexp('^AlarmTopic') }],
    });
    expect((t.toJSON() as { Outputs: Record<string, unknown> }).Outputs.WebhookDeadLetterQueueUrl).toBeDefined();
  });

  it('reaches the events table through the VPC endpoint too, with exactly the actions the functions use there', () => {
    const table = idOf(t, 'AWS::DynamoDB::Table', 'EventsTable');
    const endpoint = (Object.values(t.findResources('AWS::EC2::VPCEndpoint'))[0] as Res).Properties;
    const onTable = (endpoint.PolicyDocument as { Statement: Statement[] }).Statement.filter((s) =>
      JSON.stringify(s.Resource).includes(table),
    );
    expect(onTable.map((s) => s.Resource)).toEqual([{ 'Fn::GetAtt': [table, 'Arn'] }]);
    // The union of what every function is granted there (test/infra/endpoint-grants.test.ts checks it role by role).
    expect(actions(onTable[0]!).sort()).toEqual(tableActionsOf(FUNCTIONS.map((f) => f.grants)).get('eventsTable'));
    expect(actions(onTable[0]!)).toEqual(
      expect.arrayContaining([
        ...FORWARDER_EVENTS_TABLE_ACTIONS,
        ...WATCHER_EVENTS_TABLE_ACTIONS,
        ...PLANS_EVENTS_TABLE_ACTIONS,
        // The signal webhook's transaction begins with a ConditionCheck on the strategy's token item.
        'dynamodb:ConditionCheckItem',
      ]),
    );
  });

  it("runs the watcher in the private subnets with the functions' security group, like the operation functions", () => {
    const vpcConfig = (prefix: string) => {
      const fn = Object.entries(t.findResources('AWS::Lambda::Function')).find(([id]) =>
        id.startsWith(prefix),
      )![1] as Res;
      return fn.Properties.VpcConfig;
    };
    expect(vpcConfig('EventsGttWatcher')).toBeDefined();
    expect(vpcConfig('EventsGttWatcher')).toEqual(vpcConfig('PlaceGTTOrder'));
  });

  it('cdk-nag reports no unsuppressed error or warning', () => {
    expect(nagFindings(built)).toEqual([]);
  });
});

describe('with a webhook and no receiver secret', () => {
  let built: ReturnType<typeof synth>;
  let t: Template;
  beforeAll(() => {
    built = synth({ notifyWebhookUrl: 'https://example.com/gtt-hook' });
    t = gatewayTemplate(built);
  });

  it('authenticates with the fixed, non-secret X-Gtt-Gateway header and sends the event unchanged', () => {
    const connection = (Object.values(t.findResources('AWS::Events::Connection'))[0] as Res).Properties;
    expect(connection.AuthorizationType).toBe('API_KEY');
    expect(connection.AuthParameters).toEqual({
      ApiKeyAuthParameters: { ApiKeyName: 'X-Gtt-Gateway', ApiKeyValue: 'webhook' },
    });
    t.hasResourceProperties('AWS::Events::Rule', {
      Targets: [
        Match.objectLike({ Input: Match.absent(), InputTransformer: Match.absent(), InputPath: Match.absent() }),
      ],
    });
    // The webhook's dead letters, and the signal queue with its own.
    t.resourceCountIs('AWS::SQS::Queue', 3);
  });

  it('cdk-nag reports no unsuppressed error or warning', () => {
    expect(nagFindings(built)).toEqual([]);
  });
});

describe('webhook formats and notifyOn', () => {
  type Rule = { EventPattern: Record<string, unknown>; Targets: Record<string, unknown>[] };
  const rules = (t: Template) =>
    Object.entries(t.findResources('AWS::Events::Rule')).map(
      ([id, r]) => [id, (r as Res).Properties as unknown as Rule] as const,
    );

  it("notifyOn chooses the detail-types in the rule's pattern (all: every one)", () => {
    const t = gatewayTemplate(
      synth({ notifyWebhookUrl: 'https://hooks.example.com/x', notifyOn: 'GTT Triggered, Order Filled' }),
    );
    t.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { source: ['gtt-gateway'], 'detail-type': ['GTT Triggered', 'Order Filled'] },
    });
    const all = gatewayTemplate(synth({ notifyWebhookUrl: 'https://hooks.example.com/x', notifyOn: 'all' }));
    all.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { source: ['gtt-gateway'], 'detail-type': [...DETAIL_TYPES] },
    });
    t.resourceCountIs(
      'AWS::Lambda::Function',
      Object.keys(gatewayTemplate(synth()).findResources('AWS::Lambda::Function')).length,
    );
  });

  describe.each([
    ['slack', {}],
    ['telegram', { notifyTelegramChatId: '-1001234' }],
  ] as const)('%s', (format, extra) => {
    let built: ReturnType<typeof synth>;
    let t: Template;
    beforeAll(() => {
      built = synth({ notifyWebhookUrl: 'https://hooks.example.com/x', notifyWebhookFormat: format, ...extra });
      t = gatewayTemplate(built);
    });

    it('the filtered events go to the NotifyFormatter, its Notification events go to the API destination as $.detail', () => {
      const fn = idOf(t, 'AWS::Lambda::Function', 'EventsNotifyFormatter');
      const destination = idOf(t, 'AWS::Events::ApiDestination', 'EventsWebhookDestination');
      const queue = idOf(t, 'AWS::SQS::Queue', 'EventsWebhookDeadLetters');
      const byId = new Map(rules(t));
      const webhook = [...byId].find(([id]) => id.startsWith('EventsWebhookRule'))![1];
      expect(webhook.EventPattern).toEqual({ source: ['gtt-gateway'], 'detail-type': [...DEFAULT_NOTIFY_ON] });
      expect(webhook.Targets).toEqual([
        expect.objectContaining({
          Arn: { 'Fn::GetAtt': [fn, 'Arn'] },
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queue, 'Arn'] } },
        }),
      ]);
      const notification = [...byId].find(([id]) => id.startsWith('EventsNotificationRule'))![1];
      expect(notification.EventPattern).toEqual({ source: [NOTIFICATION_SOURCE], 'detail-type': ['Notification'] });
      expect(notification.Targets).toEqual([
        expect.objectContaining({
          Arn: { 'Fn::GetAtt': [destination, 'Arn'] },
          InputPath: '$.detail',
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queue, 'Arn'] } },
        }),
      ]);
      // No rule sends the lifecycle events themselves to the webhook, and no input transformer is left.
      for (const [, rule] of byId) for (const target of rule.Targets) expect(target.InputTransformer).toBeUndefined();
      expect(
        [...byId]
          .filter(([, rule]) => rule.Targets.some((target) => JSON.stringify(target.Arn).includes(destination)))
          .map(([id]) => id),
      ).toEqual([expect.stringMatching(/^EventsNotificationRule/)]);
    });

    it('the formatter knows its format and chat id, and may only put events of its own source on our bus', () => {
      const env = envOf(t, 'EventsNotifyFormatter');
      expect(env).toMatchObject({
        EVENT_BUS_NAME: { Ref: idOf(t, 'AWS::Events::EventBus', 'EventsBus') },
        NOTIFY_FORMAT: format,
      });
      expect(env.NOTIFY_TELEGRAM_CHAT_ID).toBe(format === 'telegram' ? '-1001234' : undefined);
      expect(
        Object.keys(env).filter((name) =>
          /^(BROKER_SECRET_ID|EVENTS_TABLE_NAME|IDEMPOTENCY_TABLE_NAME|BROKER_BASE_URL)$/.test(name),
        ),
      ).toEqual([]);
      const statements = statementsByFunction(t).get('EventsNotifyFormatter')!;
      const puts = statements.filter((s) => actions(s).some((a) => a.startsWith('events:')));
      expect(puts).toEqual([
        expect.objectContaining({
          Action: 'events:PutEvents',
          Resource: { 'Fn::GetAtt': [idOf(t, 'AWS::Events::EventBus', 'EventsBus'), 'Arn'] },
          Condition: { StringEquals: { 'events:source': NOTIFICATION_SOURCE } },
        }),
      ]);
      const data = statements.filter((s) => actions(s).some((a) => !/^(logs|xray):/.test(a)));
      const queue = idOf(t, 'AWS::SQS::Queue', 'EventsWebhookDeadLetters');
      // Besides the bus: only sending its failures to the webhook's dead-letter queue (Lambda's on-failure destination).
      expect(data.flatMap(actions).sort()).toEqual(
        ['events:PutEvents', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'].sort(),
      );
      for (const s of data.filter((s) => actions(s).some((a) => a.startsWith('sqs:'))))
        expect(s.Resource).toEqual({ 'Fn::GetAtt': [queue, 'Arn'] });
      t.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: idOf(t, 'AWS::Lambda::Function', 'EventsNotifyFormatter') },
        MaximumRetryAttempts: 2,
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queue, 'Arn'] } } },
      });
    });

    it('cdk-nag reports no unsuppressed error or warning', () => {
      expect(nagFindings(built)).toEqual([]);
    });
  });
});
