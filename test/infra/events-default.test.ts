/**
 * The lifecycle events in the default stack: the watcher's schedule, PutEvents only on our bus and only for the
 * functions that publish (TOTP renewal's writer too), the events table's actions per function, the dashboard, the
 * archive and the outputs.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';

import { METRIC_NAMESPACE } from '../../functions/base/schemas/names.js';
import { OPERATIONS } from '../../functions/manifest/index.js';
import { DEFAULT_WATCHER_SCHEDULE } from '../../infra/constructs/events.js';
import {
  actions,
  type DashboardMetric,
  dashboardMetrics,
  envOf,
  idOf,
  ORDER_FUNCTIONS,
  type Res,
  type Statement,
  statementsByFunction,
  synth,
} from '../support/events-template.js';
import { gatewayTemplate } from '../support/gateway-template.js';

describe('default deployment', () => {
  let t: Template;
  let byFunction: Map<string, Statement[]>;
  beforeAll(() => {
    t = gatewayTemplate(synth());
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
    // The remote MCP server publishes its Assistant Action events.
    expect(publishers.sort()).toEqual(
      [
        'KillSwitch',
        'McpServer',
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

  it("gives the events table to the EventForwarder (markers, one order's view), the watcher (lease, Query its orders, markers, order items), the history and the instrument refresh (Query), nobody else", () => {
    const table = idOf(t, 'AWS::DynamoDB::Table', 'EventsTable');
    // What the role may do there, whatever statements it is written in.
    const onTable = (statements: Statement[]) =>
      [...new Set(statements.filter((s) => JSON.stringify(s.Resource).includes(table)).flatMap(actions))].sort();
    const d = (...names: string[]) => names.map((n) => `dynamodb:${n}`).sort();
    // Which items each may touch there is test/infra/item-grants.test.ts's.
    const expected: Record<string, string[]> = {
      // Markers read; each event's marker, history and known order put in one transaction; one cancelled order's last view.
      EventsEventForwarder: d('BatchGetItem', 'GetItem', 'PutItem', 'Query'),
      // GET /events reads the history: Query only.
      EventsHistory: d('Query'),
      // The instrument refresh reads the live plans' symbols: Query only.
      InstrumentRefresh: d('Query'),
      // One order by id: the watcher's lease and the order's copy, in one consistent BatchGetItem.
      GetGTTOrder: d('BatchGetItem'),
      // The plans: their records (their events go to the outbox); the watcher and the worker carry them out too.
      Plans: d('DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'),
      // Coverage: its settings' item, read and written whole (the watcher reads it too), and a Query of the plans.
      Coverage: d('GetItem', 'PutItem', 'Query'),
      // Strategies: their records and token items, and the signals read back.
      Strategies: d('DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'),
      // The day's limits: the settings, the day's state, a PUT's key (GetItem, PutItem in its transaction).
      Risk: d('GetItem', 'PutItem'),
      // Assistants: their records and token items.
      Assistants: d('DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'),
      // The remote MCP server: token look-ups, day counters, previews.
      McpServer: d('GetItem', 'PutItem', 'UpdateItem'),
      // The webhook: the token read and checked in its transaction, the rate counted, the claim, signal and marker put.
      SignalWebhook: d('ConditionCheckItem', 'GetItem', 'PutItem', 'UpdateItem'),
      // The worker: the signals (and a Query of the pending ones: its sweep), and the plans an alert may create.
      SignalWorker: d('DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'),
      // The watcher: its lease and items, markers, history, known orders, the copy; and the plans.
      EventsGttWatcher: d('BatchGetItem', 'BatchWriteItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'),
    };
    for (const [fn, statements] of byFunction) expect(onTable(statements), fn).toEqual(expected[fn] ?? []);
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
    metrics = dashboardMetrics(gatewayTemplate(synth({ watcher: 'off' })));
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
    t = gatewayTemplate(synth({ sessionRenewal: 'totp' }));
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
        'McpServer',
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
