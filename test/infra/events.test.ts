/**
 * The lifecycle events in the stack: the watcher's schedule and switches, PutEvents only on our bus and only for the
 * functions that publish, the events table's actions per function, the webhook (rule, API destination, connection,
 * dead-letter queue, alarm, formats), the dashboard, and cdk-nag.
 */
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { App as CdkApp } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../infra/app.js';
import { DEFAULT_WATCHER_SCHEDULE, ORDER_EVENTS_TABLE_ACTIONS, WATCHER_EVENTS_TABLE_ACTIONS } from '../../infra/events.js';
import { OPERATIONS } from '../../functions/operations.js';

const synth = (context: Record<string, unknown> = {}) =>
  buildApp(new CdkApp({ context: { 'aws:cdk:bundling-stacks': [], egress: 'none', ...context } }));

type Res = { Type: string; Properties: Record<string, unknown> };
type Statement = { Action: string | string[]; Resource: unknown; Effect: string };
const actions = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
const ORDER_FUNCTIONS = OPERATIONS.filter((op) => op.lifecycle).map((op) => op.name);

/** Lambda function logical id prefix -> its role's statements. */
const statementsByFunction = (t: Template): Map<string, Statement[]> => {
  const json = t.toJSON() as { Resources: Record<string, Res> };
  const byRole = new Map<string, Statement[]>();
  for (const r of Object.values(json.Resources)) {
    if (r.Type !== 'AWS::IAM::Policy') continue;
    for (const role of r.Properties.Roles as { Ref: string }[]) {
      byRole.set(role.Ref, [...(byRole.get(role.Ref) ?? []), ...(r.Properties.PolicyDocument as { Statement: Statement[] }).Statement]);
    }
  }
  const result = new Map<string, Statement[]>();
  for (const [id, r] of Object.entries(json.Resources)) {
    if (r.Type !== 'AWS::Lambda::Function') continue;
    const roleId = (r.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    result.set(id.replace(/Function[0-9A-F]{8}$/, ''), byRole.get(roleId) ?? []);
  }
  return result;
};
const idOf = (t: Template, type: string, prefix: string) => Object.keys(t.findResources(type)).find((id) => id.startsWith(prefix))!;

describe('default deployment', () => {
  let t: Template;
  let byFunction: Map<string, Statement[]>;
  beforeAll(() => {
    t = Template.fromStack(synth().gateway);
    byFunction = statementsByFunction(t);
  });

  it('schedules the watcher every minute of the NSE session, India time, invoking only the watcher', () => {
    const schedules = Object.values(t.findResources('AWS::Scheduler::Schedule')) as Res[];
    const watcher = schedules.find((s) => JSON.stringify(s.Properties.Target).includes('EventsGttWatcher'))!;
    expect(watcher.Properties).toMatchObject({ ScheduleExpression: DEFAULT_WATCHER_SCHEDULE, ScheduleExpressionTimezone: 'Asia/Kolkata', FlexibleTimeWindow: { Mode: 'OFF' } });
    expect(DEFAULT_WATCHER_SCHEDULE).toBe('cron(* 9-15 ? * MON-FRI *)');
    const target = watcher.Properties.Target as { Arn: { 'Fn::GetAtt': [string, string] }; RoleArn: { 'Fn::GetAtt': [string, string] } };
    expect(target.Arn['Fn::GetAtt'][0]).toMatch(/^EventsGttWatcherFunction/);
    const roleStatements = (Object.values(t.findResources('AWS::IAM::Policy')) as Res[])
      .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === target.RoleArn['Fn::GetAtt'][0]))
      .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
    expect(roleStatements).toEqual([{ Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: target.Arn }]);
  });

  it('allows PutEvents only on our bus, and only to the order functions, the token writers and the watcher', () => {
    const bus = idOf(t, 'AWS::Events::EventBus', 'EventsBus');
    const publishers: string[] = [];
    for (const [fn, statements] of byFunction) {
      const puts = statements.filter((s) => actions(s).some((a) => a.startsWith('events:')));
      if (!puts.length) continue;
      publishers.push(fn);
      for (const s of puts) {
        expect(actions(s)).toEqual(['events:PutEvents']);
        expect(s.Resource).toEqual({ 'Fn::GetAtt': [bus, 'Arn'] });
      }
    }
    expect(publishers.sort()).toEqual([...ORDER_FUNCTIONS, 'SessionOAuthCallback', 'EventsGttWatcher'].sort());
    expect(byFunction.get('GetPendingGTTOrder')!.some((s) => actions(s).includes('events:PutEvents'))).toBe(false);
  });

  it('gives the events table to the order functions (read the snapshot, write markers) and the watcher (lease, commit, markers), nobody else', () => {
    const table = idOf(t, 'AWS::DynamoDB::Table', 'EventsTable');
    const onTable = (statements: Statement[]) => statements.filter((s) => JSON.stringify(s.Resource).includes(table)).flatMap(actions).sort();
    for (const [fn, statements] of byFunction) {
      if (ORDER_FUNCTIONS.includes(fn)) expect(onTable(statements), fn).toEqual([...ORDER_EVENTS_TABLE_ACTIONS].sort());
      else if (fn === 'EventsGttWatcher') expect(onTable(statements)).toEqual([...WATCHER_EVENTS_TABLE_ACTIONS].sort());
      else expect(onTable(statements), fn).toEqual([]);
    }
    t.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it('gives the publishers the bus and table names, and the watcher only what it reads', () => {
    const env = (prefix: string) => {
      const fn = Object.entries(t.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith(prefix))![1] as Res;
      return (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    };
    for (const name of ORDER_FUNCTIONS) expect(Object.keys(env(name))).toEqual(expect.arrayContaining(['EVENT_BUS_NAME', 'EVENTS_TABLE_NAME']));
    expect(env('GetPendingGTTOrder').EVENT_BUS_NAME).toBeUndefined();
    expect(env('SessionOAuthCallback').EVENT_BUS_NAME).toEqual({ Ref: idOf(t, 'AWS::Events::EventBus', 'EventsBus') });
    expect(env('SessionSessionHealth').EVENT_BUS_NAME).toBeUndefined();
    expect(env('EventsGttWatcher')).toMatchObject({ BROKER_BASE_URL: { Ref: 'BrokerBaseUrl' }, EVENT_BUS_NAME: expect.anything(), EVENTS_TABLE_NAME: expect.anything() });
    expect(env('EventsGttWatcher').IDEMPOTENCY_TABLE_NAME).toBeUndefined();
  });

  it('has no webhook parts without notifyWebhookUrl', () => {
    for (const type of ['AWS::Events::Rule', 'AWS::Events::ApiDestination', 'AWS::Events::Connection', 'AWS::SQS::Queue']) t.resourceCountIs(type, 0);
    expect((t.toJSON() as { Outputs: Record<string, unknown> }).Outputs.WebhookDeadLetterQueueUrl).toBeUndefined();
  });

  it('has a dashboard of the metrics, and outputs for the bus and the table', () => {
    t.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    const body = JSON.stringify((Object.values(t.findResources('AWS::CloudWatch::Dashboard'))[0] as Res).Properties.DashboardBody);
    for (const name of ['Requests', 'Failed', 'BrokerLatency', 'GuardrailRejections', 'IdempotentReplays', 'EventsPublished', 'EventPublishFailures', 'WatcherLag', 'SessionAlive']) {
      expect(body).toContain(`\\"${name}\\"`);
    }
    expect(body).toContain('GttGateway');
    expect(body).toContain('GttWatcher');
    const outputs = (t.toJSON() as { Outputs: Record<string, unknown> }).Outputs;
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['EventBusName', 'EventBusArn', 'EventsTableName']));
  });
});

describe('settings', () => {
  it('-c watcherSchedule replaces the expression; a bad one fails the synth', () => {
    const t = Template.fromStack(synth({ watcherSchedule: 'cron(* 9-23 ? * MON-FRI *)' }).gateway);
    t.hasResourceProperties('AWS::Scheduler::Schedule', { ScheduleExpression: 'cron(* 9-23 ? * MON-FRI *)' });
    expect(() => synth({ watcherSchedule: 'every minute' })).toThrow(/watcherSchedule must be an EventBridge Scheduler cron\(\.\.\.\) or rate\(\.\.\.\)/);
  });

  it('-c watcher=off leaves the watcher and its schedule out; the gateway still publishes', () => {
    const t = Template.fromStack(synth({ watcher: 'off' }).gateway);
    expect(Object.keys(t.findResources('AWS::Lambda::Function')).some((id) => id.startsWith('EventsGttWatcher'))).toBe(false);
    expect(JSON.stringify(t.findResources('AWS::Scheduler::Schedule'))).not.toContain('GttWatcher');
    t.resourceCountIs('AWS::Events::EventBus', 1);
    expect(statementsByFunction(t).get('PlaceGTTOrder')!.some((s) => actions(s).includes('events:PutEvents'))).toBe(true);
  });

  it('refuses an http:// webhook, an unknown format, a Telegram format without a chat id, and a header without its secret', () => {
    expect(() => synth({ notifyWebhookUrl: 'http://example.com/hook' })).toThrow(/notifyWebhookUrl must be an https:\/\/ URL/);
    expect(() => synth({ notifyWebhookUrl: 'https://example.com/hook', notifyWebhookFormat: 'discord' })).toThrow(/notifyWebhookFormat must be one of event, slack, telegram/);
    expect(() => synth({ notifyWebhookUrl: 'https://example.com/hook', notifyWebhookFormat: 'telegram' })).toThrow(/notifyTelegramChatId/);
    expect(() => synth({ notifyWebhookUrl: 'https://example.com/hook', notifyWebhookHeader: 'X-Token' })).toThrow(/go together/);
  });
});

describe('with a webhook', () => {
  let built: ReturnType<typeof synth>;
  let t: Template;
  const SECRET = 'arn:aws:secretsmanager:ap-south-1:111122223333:secret:hook-token-AbCdEf';
  beforeAll(() => {
    built = synth({ notifyWebhookUrl: 'https://example.com/gtt-hook', notifyWebhookHeader: 'X-Hook-Token', notifyWebhookSecretArn: SECRET, egress: 'nat-instance' });
    t = Template.fromStack(built.gateway);
  });

  it('forwards every gtt-gateway event on our bus to the API destination, with retries and a dead-letter queue', () => {
    const bus = idOf(t, 'AWS::Events::EventBus', 'EventsBus');
    const queue = idOf(t, 'AWS::SQS::Queue', 'EventsWebhookDeadLetters');
    const destination = idOf(t, 'AWS::Events::ApiDestination', 'EventsWebhookDestination');
    t.hasResourceProperties('AWS::Events::Rule', {
      EventBusName: { Ref: bus },
      EventPattern: { source: ['gtt-gateway'] },
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
    t.hasResourceProperties('AWS::Events::ApiDestination', { HttpMethod: 'POST', InvocationEndpoint: 'https://example.com/gtt-hook', InvocationRateLimitPerSecond: 10 });
    t.hasResourceProperties('AWS::SQS::Queue', { MessageRetentionPeriod: 1_209_600, SqsManagedSseEnabled: true });
  });

  it('authenticates with the given header and secret', () => {
    const connection = (Object.values(t.findResources('AWS::Events::Connection'))[0] as Res).Properties;
    expect(connection.AuthorizationType).toBe('API_KEY');
    const key = (connection.AuthParameters as { ApiKeyAuthParameters: { ApiKeyName: string; ApiKeyValue: unknown } }).ApiKeyAuthParameters;
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

  it('reaches the events table through the VPC endpoint too', () => {
    const table = idOf(t, 'AWS::DynamoDB::Table', 'EventsTable');
    const endpoint = (Object.values(t.findResources('AWS::EC2::VPCEndpoint'))[0] as Res).Properties;
    expect(JSON.stringify(endpoint.PolicyDocument)).toContain(table);
  });

  it('cdk-nag reports no unsuppressed error or warning', () => {
    const findings = [
      ...Annotations.fromStack(built.gateway).findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
      ...Annotations.fromStack(built.gateway).findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')),
    ];
    expect(findings.map((f) => `${f.id}: ${String(f.entry.data).slice(0, 160)}`)).toEqual([]);
  });
});

describe('webhook formats', () => {
  it('slack and telegram reshape the body with an input transformer; the line names the change', () => {
    for (const [format, extra] of [['slack', {}], ['telegram', { notifyTelegramChatId: '-1001234' }]] as const) {
      const t = Template.fromStack(synth({ notifyWebhookUrl: 'https://hooks.example.com/x', notifyWebhookFormat: format, ...extra }).gateway);
      const target = ((Object.values(t.findResources('AWS::Events::Rule'))[0] as Res).Properties.Targets as { InputTransformer: { InputPathsMap: Record<string, string>; InputTemplate: string } }[])[0]!;
      expect(Object.values(target.InputTransformer.InputPathsMap)).toEqual(expect.arrayContaining(['$.detail-type', '$.detail.tsym', '$.detail.al_id', '$.detail.firedLeg']));
      expect(target.InputTransformer.InputTemplate).toContain(format === 'slack' ? '"text"' : '"chat_id":"-1001234"');
    }
  });
});
