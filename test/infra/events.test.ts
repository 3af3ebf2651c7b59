/**
 * The lifecycle events in the stack: the watcher's schedule and switches, PutEvents only on our bus and only for the
 * functions that publish, the events table's actions per function, the webhook (rule, API destination, connection,
 * dead-letter queue, alarm, formats), the dashboard, and cdk-nag.
 */
import { App as CdkApp } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';

import { DEFAULT_NOTIFY_ON, NOTIFICATION_SOURCE } from '../../functions/events/notification.js';
import { OPERATIONS } from '../../functions/manifest/index.js';
import { DETAIL_TYPES } from '../../functions/schemas/event-types.js';
import { METRIC_NAMESPACE } from '../../functions/schemas/names.js';
import {
  DEFAULT_WATCHER_SCHEDULE,
  FORWARDER_EVENTS_TABLE_ACTIONS,
  WATCHER_EVENTS_TABLE_ACTIONS,
} from '../../infra/constructs/events.js';
import {
  PLANS_EVENTS_TABLE_ACTIONS,
  SIGNALS_EVENTS_TABLE_ACTIONS,
  STRATEGIES_EVENTS_TABLE_ACTIONS,
} from '../../infra/constructs/grants.js';
import { buildApp } from '../../infra/stacks/app.js';
import { GatewayStack } from '../../infra/stacks/gateway-stack.js';

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
      byRole.set(role.Ref, [
        ...(byRole.get(role.Ref) ?? []),
        ...(r.Properties.PolicyDocument as { Statement: Statement[] }).Statement,
      ]);
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
const idOf = (t: Template, type: string, prefix: string) =>
  Object.keys(t.findResources(type)).find((id) => id.startsWith(prefix))!;
const envOf = (t: Template, prefix: string) => {
  const fn = Object.entries(t.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith(prefix))![1] as Res;
  return (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
};
const nagFindings = (stack: Parameters<typeof Annotations.fromStack>[0]) => {
  const annotations = Annotations.fromStack(stack);
  return [
    ...annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
    ...annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')),
  ].map((f) => `${f.id}: ${String(f.entry.data).slice(0, 160)}`);
};

/** Every metric line of the dashboard: graph title, namespace, name, dimension map, statistic. */
type DashboardMetric = { title: string; namespace: string; name: string; dims: Record<string, string>; stat: string };
const dashboardMetrics = (t: Template): DashboardMetric[] => {
  const body = (Object.values(t.findResources('AWS::CloudWatch::Dashboard'))[0] as Res).Properties.DashboardBody as {
    'Fn::Join': [string, unknown[]];
  };
  // The only tokens in the body are the region references.
  const text = body['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : 'REGION')).join('');
  const widgets = (JSON.parse(text) as { widgets: { properties: { title: string; metrics?: unknown[][] } }[] }).widgets;
  return widgets.flatMap((w) =>
    (w.properties.metrics ?? []).map((line) => {
      const [namespace, name, ...rest] = line as [string, string, ...unknown[]];
      const options = rest.pop() as { stat: string };
      const dims: Record<string, string> = {};
      for (let i = 0; i < rest.length; i += 2) dims[rest[i] as string] = rest[i + 1] as string;
      return { title: w.properties.title, namespace, name, dims, stat: options.stat };
    }),
  );
};

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
    expect(watcher.Properties).toMatchObject({
      ScheduleExpression: DEFAULT_WATCHER_SCHEDULE,
      ScheduleExpressionTimezone: 'Asia/Kolkata',
      FlexibleTimeWindow: { Mode: 'OFF' },
    });
    expect(DEFAULT_WATCHER_SCHEDULE).toBe('cron(* 9-15 ? * MON-FRI *)');
    const target = watcher.Properties.Target as {
      Arn: { 'Fn::GetAtt': [string, string] };
      RoleArn: { 'Fn::GetAtt': [string, string] };
    };
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
    // The order functions' events go through the outbox: the EventForwarder publishes them. The kill switch
    // publishes its own Kill Switch event (its sweep's cancels go to the outbox too); the signal worker may turn it.
    expect(publishers.sort()).toEqual(
      [
        'KillSwitch',
        'SessionOAuthCallback',
        'EventsGttWatcher',
        'EventsEventForwarder',
        'Plans',
        'SignalWorker',
      ].sort(),
    );
    for (const fn of ORDER_FUNCTIONS)
      expect(
        byFunction.get(fn)!.some((s) => actions(s).includes('events:PutEvents')),
        fn,
      ).toBe(false);
    expect(byFunction.get('GetPendingGTTOrder')!.some((s) => actions(s).includes('events:PutEvents'))).toBe(false);
  });

  it("gives the events table to the EventForwarder (markers, one order's view), the watcher (lease, Query its orders, markers, order items) and the history (Query), nobody else", () => {
    const table = idOf(t, 'AWS::DynamoDB::Table', 'EventsTable');
    const onTable = (statements: Statement[]) =>
      statements
        .filter((s) => JSON.stringify(s.Resource).includes(table))
        .flatMap(actions)
        .sort();
    for (const [fn, statements] of byFunction) {
      if (fn === 'EventsEventForwarder')
        expect(onTable(statements), fn).toEqual([...FORWARDER_EVENTS_TABLE_ACTIONS].sort());
      // GET /events reads the history: Query only.
      else if (fn === 'EventsHistory') expect(onTable(statements), fn).toEqual(['dynamodb:Query']);
      // The plans: their records, and the markers of their events; the watcher carries them out too.
      else if (fn === 'Plans') expect(onTable(statements), fn).toEqual([...PLANS_EVENTS_TABLE_ACTIONS].sort());
      // Strategies: their records and token items. The webhook: tokens, signals, rates, duplicates. The signal
      // worker: the signals, and the plans an alert may create.
      else if (fn === 'Strategies')
        expect(onTable(statements), fn).toEqual([...STRATEGIES_EVENTS_TABLE_ACTIONS].sort());
      else if (fn === 'SignalWebhook')
        expect(onTable(statements), fn).toEqual([...SIGNALS_EVENTS_TABLE_ACTIONS].sort());
      else if (fn === 'SignalWorker')
        expect(onTable(statements), fn).toEqual(
          [...PLANS_EVENTS_TABLE_ACTIONS, ...SIGNALS_EVENTS_TABLE_ACTIONS].sort(),
        );
      else if (fn === 'EventsGttWatcher')
        expect([...new Set(onTable(statements))].sort()).toEqual(
          [...new Set([...WATCHER_EVENTS_TABLE_ACTIONS, ...PLANS_EVENTS_TABLE_ACTIONS])].sort(),
        );
      else expect(onTable(statements), fn).toEqual([]);
    }
    t.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it('gives the order functions the bus name only (event ids; the outbox is their idempotency table), the publishers the bus and table names', () => {
    const env = (prefix: string) => {
      const fn = Object.entries(t.findResources('AWS::Lambda::Function')).find(([id]) =>
        id.startsWith(prefix),
      )![1] as Res;
      return (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    };
    for (const name of ORDER_FUNCTIONS) {
      expect(Object.keys(env(name))).toEqual(expect.arrayContaining(['EVENT_BUS_NAME', 'IDEMPOTENCY_TABLE_NAME']));
      expect(env(name).EVENTS_TABLE_NAME, name).toBeUndefined();
    }
    expect(env('EventsEventForwarder')).toEqual({
      POWERTOOLS_SERVICE_NAME: 'gtt-gateway',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      BROKER_TIMEOUT_MS: expect.any(String),
      EVENT_BUS_NAME: { Ref: idOf(t, 'AWS::Events::EventBus', 'EventsBus') },
      EVENTS_TABLE_NAME: { Ref: idOf(t, 'AWS::DynamoDB::Table', 'EventsTable') },
    });
    expect(env('GetPendingGTTOrder').EVENT_BUS_NAME).toBeUndefined();
    expect(env('SessionOAuthCallback').EVENT_BUS_NAME).toEqual({ Ref: idOf(t, 'AWS::Events::EventBus', 'EventsBus') });
    expect(env('SessionSessionHealth').EVENT_BUS_NAME).toBeUndefined();
    expect(env('EventsGttWatcher')).toMatchObject({
      BROKER_BASE_URL: { Ref: 'BrokerBaseUrl' },
      EVENT_BUS_NAME: expect.anything(),
      EVENTS_TABLE_NAME: expect.anything(),
    });
    // The watcher carries the plans out through the order operations: it has the order path's tables.
    expect(env('EventsGttWatcher')).toMatchObject({
      IDEMPOTENCY_TABLE_NAME: expect.anything(),
      CONTROL_TABLE_NAME: expect.anything(),
    });
  });

  it('has no webhook parts without notifyWebhookUrl', () => {
    for (const type of ['AWS::Events::Rule', 'AWS::Events::ApiDestination', 'AWS::Events::Connection'])
      t.resourceCountIs(type, 0);
    // The only queues are the signals' (the signal queue and its dead letters), not the webhook's.
    expect(Object.keys(t.findResources('AWS::SQS::Queue')).map((id) => id.replace(/[0-9A-F]{8}$/, ''))).toEqual([
      'SignalDeadLetters',
      'SignalQueue',
    ]);
    expect((t.toJSON() as { Outputs: Record<string, unknown> }).Outputs.WebhookDeadLetterQueueUrl).toBeUndefined();
  });

  it('has a dashboard of the metrics, and outputs for the bus and the table', () => {
    t.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    const body = JSON.stringify(
      (Object.values(t.findResources('AWS::CloudWatch::Dashboard'))[0] as Res).Properties.DashboardBody,
    );
    for (const name of [
      'Requests',
      'Failed',
      'BrokerLatency',
      'GuardrailRejections',
      'IdempotentReplays',
      'EventsQueued',
      'EventQueueFailures',
      'EventsPublished',
      'EventPublishFailures',
      'WatcherLag',
      'SessionAlive',
    ]) {
      expect(body).toContain(`\\"${name}\\"`);
    }
    expect(body).toContain('GttGateway');
    expect(body).toContain('GttWatcher');
    const outputs = (t.toJSON() as { Outputs: Record<string, unknown> }).Outputs;
    expect(Object.keys(outputs)).toEqual(
      expect.arrayContaining(['EventBusName', 'EventBusArn', 'EventsTableName', 'EventArchiveName']),
    );
  });

  it('archives the lifecycle events of our source on our bus for 30 days (not the notification bodies)', () => {
    t.resourceCountIs('AWS::Events::Archive', 1);
    const bus = Object.keys(t.findResources('AWS::Events::EventBus'));
    expect(bus).toHaveLength(1);
    t.hasResourceProperties('AWS::Events::Archive', {
      SourceArn: { 'Fn::GetAtt': [bus[0], 'Arn'] },
      RetentionDays: 30,
      EventPattern: { source: ['gtt-gateway'] },
    });
  });
});

describe('dashboard', () => {
  let metrics: DashboardMetric[];
  beforeAll(() => {
    metrics = dashboardMetrics(Template.fromStack(synth({ watcher: 'off' }).gateway));
  });
  const operationsOf = (name: string, stat = 'Sum') =>
    metrics
      .filter((m) => m.name === name && m.stat === stat)
      .map((m) => m.dims.Operation)
      .filter((op) => op !== undefined);

  it('reads every metric in the namespace the functions write, with exactly the dimensions Powertools sets', () => {
    expect(new Set(metrics.map((m) => m.namespace))).toEqual(new Set([METRIC_NAMESPACE]));
    for (const m of metrics) {
      const keys = Object.keys(m.dims).sort();
      if (m.name === 'SessionAlive') expect(m.dims).toEqual({ service: 'gtt-gateway' });
      else if (m.dims.Function !== undefined) {
        expect(keys, m.name).toEqual(['Function', 'service']);
        expect(['GttWatcher', 'EventForwarder'], m.name).toContain(m.dims.Function);
      } else expect(keys, m.name).toEqual(['Operation', 'service']);
      expect(m.dims.service, m.name).toBe('gtt-gateway');
    }
  });

  it('graphs requests, failures and broker latency (p50, p99) for every operation', () => {
    const all = OPERATIONS.map((op) => op.name);
    expect(operationsOf('Requests')).toEqual(all);
    expect(operationsOf('Failed')).toEqual(all);
    expect(operationsOf('BrokerLatency', 'p50')).toEqual(all);
    expect(operationsOf('BrokerLatency', 'p99')).toEqual(all);
  });

  it('graphs guardrail rejections, replays and events for the operations that can emit them, and the watcher', () => {
    expect(operationsOf('GuardrailRejections')).toEqual(
      OPERATIONS.filter((op) => op.guardedOrders).map((op) => op.name),
    );
    expect(operationsOf('IdempotentReplays')).toEqual(OPERATIONS.filter((op) => op.idempotency).map((op) => op.name));
    expect(operationsOf('GuardrailRejections')).toEqual(expect.arrayContaining(['PlaceGTTOrder', 'ModifyOCOOrder']));
    // The order functions queue (the outbox); the EventForwarder and the watcher publish.
    for (const name of ['EventsQueued', 'EventQueueFailures']) expect(operationsOf(name)).toEqual(ORDER_FUNCTIONS);
    for (const name of ['EventsPublished', 'EventPublishFailures']) {
      expect(operationsOf(name)).toEqual([]);
      for (const fn of ['GttWatcher', 'EventForwarder'])
        expect(metrics.some((m) => m.name === name && m.dims.Function === fn)).toBe(true);
    }
    expect(metrics.filter((m) => m.name === 'WatcherLag').map((m) => [m.dims, m.stat])).toEqual([
      [{ service: 'gtt-gateway', Function: 'GttWatcher' }, 'Maximum'],
      [{ service: 'gtt-gateway', Function: 'GttWatcher' }, 'p50'],
    ]);
    expect(metrics.filter((m) => m.name === 'SessionAlive').map((m) => m.stat)).toEqual(['Minimum']);
  });
});

describe('TOTP renewal on', () => {
  let t: Template;
  beforeAll(() => {
    t = Template.fromStack(synth({ sessionRenewal: 'totp' }).gateway);
  });

  it('lets both token writers (OAuthCallback, SessionRenewal) publish Session Renewed on our bus; SessionHealth gets nothing', () => {
    const bus = idOf(t, 'AWS::Events::EventBus', 'EventsBus');
    const byFunction = statementsByFunction(t);
    const publishers = [...byFunction]
      .filter(([, statements]) => statements.some((s) => actions(s).some((a) => a.startsWith('events:'))))
      .map(([fn]) => fn);
    expect(publishers.sort()).toEqual(
      [
        'KillSwitch',
        'SessionOAuthCallback',
        'SessionSessionRenewal',
        'SignalWorker',
        'EventsGttWatcher',
        'EventsEventForwarder',
        'Plans',
      ].sort(),
    );
    const renewalPuts = byFunction
      .get('SessionSessionRenewal')!
      .filter((s) => actions(s).some((a) => a.startsWith('events:')));
    expect(renewalPuts.map((s) => [actions(s), s.Resource])).toEqual([
      [['events:PutEvents'], { 'Fn::GetAtt': [bus, 'Arn'] }],
    ]);
    expect(envOf(t, 'SessionSessionRenewal').EVENT_BUS_NAME).toEqual({ Ref: bus });
    expect(envOf(t, 'SessionSessionRenewal').EVENTS_TABLE_NAME).toBeUndefined();
    expect(envOf(t, 'SessionSessionHealth').EVENT_BUS_NAME).toBeUndefined();
    const table = idOf(t, 'AWS::DynamoDB::Table', 'EventsTable');
    for (const fn of ['SessionOAuthCallback', 'SessionSessionRenewal', 'SessionSessionHealth']) {
      expect(JSON.stringify(byFunction.get(fn)), fn).not.toContain(table);
    }
  });
});

describe('settings', () => {
  it('-c watcherSchedule replaces the expression; a bad one fails the synth', () => {
    const t = Template.fromStack(synth({ watcherSchedule: 'cron(* 9-23 ? * MON-FRI *)' }).gateway);
    t.hasResourceProperties('AWS::Scheduler::Schedule', { ScheduleExpression: 'cron(* 9-23 ? * MON-FRI *)' });
    expect(() => synth({ watcherSchedule: 'every minute' })).toThrow(
      /watcherSchedule must be an EventBridge Scheduler cron\(\.\.\.\) or rate\(\.\.\.\)/,
    );
  });

  it('-c watcher=off leaves the watcher and its schedule out; the gateway still publishes (through the forwarder)', () => {
    const t = Template.fromStack(synth({ watcher: 'off' }).gateway);
    expect(Object.keys(t.findResources('AWS::Lambda::Function')).some((id) => id.startsWith('EventsGttWatcher'))).toBe(
      false,
    );
    expect(JSON.stringify(t.findResources('AWS::Scheduler::Schedule'))).not.toContain('GttWatcher');
    t.resourceCountIs('AWS::Events::EventBus', 1);
    expect(
      statementsByFunction(t)
        .get('EventsEventForwarder')!
        .some((s) => actions(s).includes('events:PutEvents')),
    ).toBe(true);
    // The EventForwarder's stream, and the SignalWorker's queue.
    t.resourceCountIs('AWS::Lambda::EventSourceMapping', 2);
  });

  it('forwards the outbox: the idempotency table streams new images to the EventForwarder, completed records only, failures reported per record', () => {
    const t = Template.fromStack(synth({}).gateway);
    const table = idOf(t, 'AWS::DynamoDB::Table', 'IdempotencyTable');
    t.hasResourceProperties('AWS::DynamoDB::Table', { StreamSpecification: { StreamViewType: 'NEW_IMAGE' } });
    t.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [table, 'StreamArn'] },
      FunctionName: { Ref: Match.stringLikeRegexp('^EventsEventForwarder') },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: 100,
      MaximumRecordAgeInSeconds: 86_400,
      FilterCriteria: {
        Filters: [{ Pattern: JSON.stringify({ dynamodb: { NewImage: { status: { S: ['COMPLETED'] } } } }) }],
      },
    });
    // Its memory: the background size; the order functions' is the order size (docs/benchmarks.md#memory).
    const memory = (prefix: string) =>
      (Object.entries(t.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith(prefix))![1] as Res)
        .Properties.MemorySize;
    expect(memory('EventsEventForwarder')).toBe(256);
    expect(memory('PlaceGTTOrder')).toBe(1024);
    expect(memory('GetPendingGTTOrder')).toBe(512);
    t.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: Match.stringLikeRegexp('^EventsEventForwarder') } }],
    });
  });

  it('-c watcher accepts on and off only; a bad watcherSchedule fails even with the watcher off', () => {
    expect(() => synth({ watcher: 'of' })).toThrow(/watcher must be on or off/);
    expect(() => synth({ watcher: 'off', watcherSchedule: 'cron(* 9-15 ? * MON-FRI *' })).toThrow(
      /watcherSchedule must be/,
    );
    const t = Template.fromStack(synth({ watcher: 'on', watcherSchedule: 'rate(5 minutes)' }).gateway);
    t.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(5 minutes)',
      ScheduleExpressionTimezone: 'Asia/Kolkata',
    });
  });

  it('the props watcher and watcherSchedule win over the context keys', () => {
    const stack = (props: ConstructorParameters<typeof GatewayStack>[2]) =>
      Template.fromStack(
        new GatewayStack(
          new CdkApp({
            context: {
              'aws:cdk:bundling-stacks': [],
              egress: 'none',
              watcher: 'off',
              watcherSchedule: 'not an expression',
            },
          }),
          'Gateway',
          props,
        ),
      );
    const on = stack({ watcher: true, watcherSchedule: 'cron(* 9-23 ? * MON-FRI *)' });
    on.hasResourceProperties('AWS::Scheduler::Schedule', { ScheduleExpression: 'cron(* 9-23 ? * MON-FRI *)' });
    expect(Object.keys(on.findResources('AWS::Lambda::Function')).some((id) => id.startsWith('EventsGttWatcher'))).toBe(
      true,
    );
    expect(() => stack({ watcher: true })).toThrow(/watcherSchedule must be/);
    expect(() => stack({ watcher: true, watcherSchedule: 'at(2026-01-01T09:00:00)' })).toThrow(
      /watcherSchedule must be/,
    );
  });

  it('refuses an http:// webhook, an unknown format, a Telegram format without a chat id, and a header without its secret', () => {
    expect(() => synth({ notifyWebhookUrl: 'http://example.com/hook' })).toThrow(
      /notifyWebhookUrl must be an https:\/\/ URL/,
    );
    expect(() => synth({ notifyWebhookUrl: 'https://example.com/hook', notifyWebhookFormat: 'discord' })).toThrow(
      /notifyWebhookFormat must be one of event, slack, telegram/,
    );
    expect(() => synth({ notifyWebhookUrl: 'https://example.com/hook', notifyWebhookFormat: 'telegram' })).toThrow(
      /notifyTelegramChatId/,
    );
    expect(() => synth({ notifyWebhookUrl: 'https://example.com/hook', notifyWebhookHeader: 'X-Token' })).toThrow(
      /go together/,
    );
  });

  it('refuses a notifyOn name that is no detail-type, with one line listing them', () => {
    expect(() =>
      synth({ notifyWebhookUrl: 'https://example.com/hook', notifyOn: 'GTT Triggered,Order Filed' }),
    ).toThrow(
      /^notifyOn names no detail-type "Order Filed": use a comma-separated list of GTT Placed, GTT Modified, .*Kill Switch, Order Filled, Order Rejected, Order Cancelled, Plan Armed, Plan Step, Plan Done, Plan Failed, Plan Unprotected, Signal Received, Signal Acted, Signal Refused \(or all\)$/,
    );
  });
});

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
    t = Template.fromStack(built.gateway);
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
    expect(actions(onTable[0]!).sort()).toEqual(
      [
        ...new Set([...FORWARDER_EVENTS_TABLE_ACTIONS, ...WATCHER_EVENTS_TABLE_ACTIONS, ...PLANS_EVENTS_TABLE_ACTIONS]),
      ].sort(),
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
    expect(nagFindings(built.gateway)).toEqual([]);
  });
});

describe('with a webhook and no receiver secret', () => {
  let built: ReturnType<typeof synth>;
  let t: Template;
  beforeAll(() => {
    built = synth({ notifyWebhookUrl: 'https://example.com/gtt-hook' });
    t = Template.fromStack(built.gateway);
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
    expect(nagFindings(built.gateway)).toEqual([]);
  });
});

describe('webhook formats and notifyOn', () => {
  type Rule = { EventPattern: Record<string, unknown>; Targets: Record<string, unknown>[] };
  const rules = (t: Template) =>
    Object.entries(t.findResources('AWS::Events::Rule')).map(
      ([id, r]) => [id, (r as Res).Properties as unknown as Rule] as const,
    );

  it("notifyOn chooses the detail-types in the rule's pattern (all: every one)", () => {
    const t = Template.fromStack(
      synth({ notifyWebhookUrl: 'https://hooks.example.com/x', notifyOn: 'GTT Triggered, Order Filled' }).gateway,
    );
    t.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { source: ['gtt-gateway'], 'detail-type': ['GTT Triggered', 'Order Filled'] },
    });
    const all = Template.fromStack(synth({ notifyWebhookUrl: 'https://hooks.example.com/x', notifyOn: 'all' }).gateway);
    all.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { source: ['gtt-gateway'], 'detail-type': [...DETAIL_TYPES] },
    });
    t.resourceCountIs(
      'AWS::Lambda::Function',
      Object.keys(Template.fromStack(synth().gateway).findResources('AWS::Lambda::Function')).length,
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
      t = Template.fromStack(built.gateway);
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
      expect(nagFindings(built.gateway)).toEqual([]);
    });
  });
});
