/**
 * The CDK stacks as CloudFormation templates: one function per operation, IAM on every route, least privilege,
 * logs, alarms, throttling, the idempotency table, and no unsuppressed cdk-nag finding. These run on the default
 * egress (nat-instance); test/infra/egress.test.ts covers each egress setting.
 */
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';

import { EVENTS_HISTORY } from '../../functions/manifest/events-history.js';
import { OPERATIONS } from '../../functions/manifest/index.js';
import { KILL_SWITCH } from '../../functions/manifest/kill-switch.js';
import { PLANS } from '../../functions/manifest/plans.js';
import { SESSION_FUNCTIONS } from '../../functions/manifest/session.js';
import { SIGNAL_WEBHOOK, STRATEGIES } from '../../functions/manifest/strategies.js';
import { ORDER_ROUTE_THROTTLE } from '../../infra/constructs/api.js';
import { LAMBDA_ENI_ACTIONS } from '../../infra/constructs/egress.js';
import { buildApp } from '../../infra/stacks/app.js';

/** OAuthCallback and SessionHealth; SessionRenewal only with -c sessionRenewal=totp. */
const SESSION = SESSION_FUNCTIONS.filter((f) => f.name !== 'SessionRenewal' && f.name !== 'SessionLogout');

// Template assertions need no bundles: skip esbuild here (the synth test below bundles for real).
// The end-of-day logout is left out where functions are counted; test/infra/end-of-day.test.ts covers it.
const synth = (context: Record<string, unknown> = {}) =>
  buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], endOfDayLogout: 'off', ...context } }));

let gateway: Template;
let workflow: Template;
let built: ReturnType<typeof synth>;

type Statement = { Effect: string; Action: string | string[]; Resource: unknown };
const statementsOf = (template: Template): Statement[] =>
  Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
    (policy) =>
      (policy as { Properties: { PolicyDocument: { Statement: Statement[] } } }).Properties.PolicyDocument.Statement,
  );
const actions = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);

beforeAll(() => {
  built = synth();
  gateway = Template.fromStack(built.gateway);
  workflow = Template.fromStack(built.workflow);
});

describe('functions', () => {
  it('one function per operation and per session function, on nodejs22.x arm64 with X-Ray and a timeout above the broker timeout', () => {
    const functions = gateway.findResources('AWS::Lambda::Function');
    // The operations, the session functions, the watcher, the kill switch, the outbox's EventForwarder, the
    // events history and the plans; the strategies, the signal webhook and the signal worker.
    expect(Object.keys(functions)).toHaveLength(OPERATIONS.length + SESSION.length + 5 + 3);
    for (const [id, fn] of Object.entries(functions) as [string, { Properties: Record<string, unknown> }][]) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        // The kill switch sweeps the book at the governor's pace; the signal worker may act on 20 alerts.
        Timeout: id.startsWith('KillSwitch') ? 90 : id.startsWith('SignalWorker') ? 60 : 12,
        Environment: {
          Variables: expect.objectContaining({ BROKER_TIMEOUT_MS: '8000', POWERTOOLS_SERVICE_NAME: 'gtt-gateway' }),
        },
      });
      const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      // The EventForwarder, the events history, the strategies and the signal webhook never call the broker.
      expect(env.BROKER_BASE_URL).toEqual(
        ['EventsEventForwarder', 'EventsHistory', 'Strategies', 'SignalWebhook'].some((name) => id.startsWith(name))
          ? undefined
          : { Ref: 'BrokerBaseUrl' },
      );
    }
  });

  it('each function has its own log group with a retention', () => {
    // One per function (the watcher, the kill switch and the EventForwarder too), the API's access logs, the VPC flow
    // logs of the default egress.
    gateway.resourceCountIs('AWS::Logs::LogGroup', OPERATIONS.length + SESSION.length + 5 + 3 + 2);
    for (const group of Object.values(gateway.findResources('AWS::Logs::LogGroup')) as {
      Properties: { RetentionInDays?: number };
    }[]) {
      expect(group.Properties.RetentionInDays).toBe(30);
    }
  });
});

describe('HTTP API', () => {
  it('one route per operation and session route, each with IAM authorisation but the OAuth callback and the signal webhook', () => {
    const routes = Object.values(gateway.findResources('AWS::ApiGatewayV2::Route')) as {
      Properties: { RouteKey: string; AuthorizationType: string };
    }[];
    const sessionRoutes = SESSION.flatMap((f) => f.routes);
    expect(routes.map((r) => r.Properties.RouteKey).sort()).toEqual(
      [
        ...OPERATIONS.map((op) => `${op.route.method} ${op.route.path}`),
        ...sessionRoutes.map((r) => `${r.method} ${r.path}`),
        ...KILL_SWITCH.routes.map((r) => `${r.method} ${r.path}`),
        ...EVENTS_HISTORY.routes.map((r) => `${r.method} ${r.path}`),
        ...PLANS.routes.map((r) => `${r.method} ${r.path}`),
        ...[...STRATEGIES.routes, ...SIGNAL_WEBHOOK.routes].map((r) => `${r.method} ${r.path}`),
      ].sort(),
    );
    for (const route of routes) {
      expect([route.Properties.RouteKey, route.Properties.AuthorizationType]).toEqual([
        route.Properties.RouteKey,
        ['GET /session/oauth/callback', 'POST /signals/{token}'].includes(route.Properties.RouteKey)
          ? 'NONE'
          : 'AWS_IAM',
      ]);
    }
  });

  it('logs access and throttles the order routes below the broker limit of 10 a second', () => {
    const stage = Object.values(gateway.findResources('AWS::ApiGatewayV2::Stage'))[0] as {
      Properties: Record<string, unknown>;
    };
    expect(stage.Properties.AccessLogSettings).toBeDefined();
    expect(stage.Properties.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: 50 });
    const routeSettings = stage.Properties.RouteSettings as Record<
      string,
      { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }
    >;
    // Every order route of the table (place, modify and cancel, and any order operation added later).
    const orderRoutes = OPERATIONS.filter((op) => op.kind === 'order').map(
      (op) => `${op.route.method} ${op.route.path}`,
    );
    expect(orderRoutes).toEqual(
      expect.arrayContaining(['DELETE /gtt-orders/{alId}', 'POST /gtt-orders', 'PUT /gtt-orders/{alId}']),
    );
    expect(Object.keys(routeSettings).sort()).toEqual(
      [
        ...orderRoutes,
        'GET /session/oauth/callback',
        'POST /kill-switch',
        'DELETE /kill-switch',
        // The plans' order routes: a create places a GTT, a cancel cancels one.
        'POST /plans',
        'DELETE /plans/{planId}',
        // The unsigned signal webhook.
        'POST /signals/{token}',
      ].sort(),
    );
    expect(routeSettings['POST /kill-switch']).toEqual({ ThrottlingRateLimit: 1, ThrottlingBurstLimit: 2 });
    expect(routeSettings['GET /session/oauth/callback']).toEqual({ ThrottlingRateLimit: 2, ThrottlingBurstLimit: 5 });
    for (const setting of orderRoutes.map((r) => routeSettings[r]!)) {
      expect(setting.ThrottlingRateLimit).toBe(ORDER_ROUTE_THROTTLE.rateLimit);
      expect(setting.ThrottlingRateLimit).toBeLessThan(10);
      expect(setting.ThrottlingBurstLimit).toBeLessThan(10);
    }
  });
});

describe('least privilege', () => {
  it('no statement the project writes has a bare "*" resource, except the X-Ray, Lambda ENI and stream-listing actions that require it', () => {
    for (const template of [gateway, workflow]) {
      for (const statement of statementsOf(template)) {
        const resources = Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
        if (resources.includes('*')) {
          expect(
            actions(statement).every(
              (a) =>
                a.startsWith('xray:') ||
                (LAMBDA_ENI_ACTIONS.includes(a) && template === gateway) ||
                // The EventForwarder's stream trigger: ListStreams has no resource-level permission.
                (a === 'dynamodb:ListStreams' && template === gateway) ||
                (a.startsWith('logs:') && template === workflow),
            ),
          ).toBe(true);
        }
      }
    }
  });

  it('each function role may read only the one secret, and only order functions touch the idempotency table', () => {
    // The function roles (the egress adds the NAT instances' and the flow log's, which are not Lambda's).
    const roles = Object.keys(
      gateway.findResources('AWS::IAM::Role', {
        Properties: { AssumeRolePolicyDocument: { Statement: [{ Principal: { Service: 'lambda.amazonaws.com' } }] } },
      }),
    ).filter(
      (id) =>
        !id.startsWith('Session') &&
        !id.startsWith('Events') &&
        !id.startsWith('KillSwitch') &&
        !id.startsWith('Plans') &&
        !id.startsWith('Strategies') &&
        !id.startsWith('Signal'),
    );
    expect(roles).toHaveLength(OPERATIONS.length);
    const policies = (
      Object.values(gateway.findResources('AWS::IAM::Policy')) as {
        Properties: { PolicyDocument: { Statement: Statement[] }; Roles: { Ref: string }[] };
      }[]
    ).filter((p) => p.Properties.Roles.some((r) => roles.includes(r.Ref)));
    expect(policies).toHaveLength(OPERATIONS.length);
    for (const policy of policies) {
      const statements = policy.Properties.PolicyDocument.Statement;
      const secretStatements = statements.filter((s) => actions(s).some((a) => a.startsWith('secretsmanager:')));
      const isLogout = policy.Properties.Roles.some((r) => r.Ref.startsWith('LogoutRole'));
      // Logout also writes the secret (marks it logged out); every other function only reads it.
      expect(secretStatements).toHaveLength(isLogout ? 2 : 1);
      for (const st of secretStatements) expect(st.Resource).toEqual({ Ref: expect.stringMatching(/^BrokerSession/) });
      expect(secretStatements.flatMap(actions).sort()).toEqual([
        'secretsmanager:DescribeSecret',
        'secretsmanager:GetSecretValue',
        ...(isLogout ? ['secretsmanager:PutSecretValue'] : []),
      ]);
      const onIdempotency = (st: Statement) => /IdempotencyTable/.test(JSON.stringify(st.Resource));
      for (const s of statements.filter(
        (st) => actions(st).some((a) => a.startsWith('dynamodb:')) && onIdempotency(st),
      )) {
        expect(actions(s).sort()).toEqual([
          'dynamodb:DeleteItem',
          'dynamodb:GetItem',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
        ]);
      }
      // The control table: the governor's read and conditional put, nothing else.
      const onControl = (st: Statement) => /ControlTable/.test(JSON.stringify(st.Resource));
      for (const s of statements.filter((st) => actions(st).some((a) => a.startsWith('dynamodb:')) && onControl(st))) {
        expect(actions(s).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem']);
      }
      // Any other table is the events table (the events-*.test.ts files check what each function may do there).
      for (const s of statements.filter(
        (st) => actions(st).some((a) => a.startsWith('dynamodb:')) && !onIdempotency(st) && !onControl(st),
      )) {
        expect(JSON.stringify(s.Resource)).toMatch(/EventsTable/);
      }
    }
    const withTable = policies.filter((p) =>
      p.Properties.PolicyDocument.Statement.some(
        (s) => actions(s).some((a) => a.startsWith('dynamodb:')) && /IdempotencyTable/.test(JSON.stringify(s.Resource)),
      ),
    );
    expect(withTable).toHaveLength(OPERATIONS.filter((op) => op.idempotency).length);
  });
});

describe('control table (order-rate governor)', () => {
  const functionsOf = (t: Template) =>
    Object.entries(
      t.findResources('AWS::Lambda::Function') as Record<
        string,
        { Properties: { Environment?: { Variables?: Record<string, unknown> } } }
      >,
    );

  it('is on-demand, encrypted, with point-in-time recovery and no TTL (the kill switch outlives everything)', () => {
    const tables = gateway.findResources('AWS::DynamoDB::Table', {
      Properties: { KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }] },
    });
    const control = Object.entries(tables).filter(([id]) => id.startsWith('ControlTable'));
    expect(control).toHaveLength(1);
    expect(control[0]![1]).toMatchObject({
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
      },
    });
    expect(
      (control[0]![1] as { Properties: Record<string, unknown> }).Properties.TimeToLiveSpecification,
    ).toBeUndefined();
  });

  it('every order function, the kill switch and the plans (and only those) get the table, and only those may read or write it', () => {
    const orderIds = OPERATIONS.filter((op) => op.kind === 'order').map((op) => op.name);
    // The plans act through the order operations: the Plans function, and the watcher that carries them out.
    const actors = [...orderIds, 'KillSwitch', 'Plans', 'EventsGttWatcher', 'SignalWorker'];
    const withTable = functionsOf(gateway).filter(
      ([, f]) => f.Properties.Environment?.Variables?.CONTROL_TABLE_NAME !== undefined,
    );
    expect(withTable.map(([id]) => actors.find((name) => id.startsWith(name))).sort()).toEqual([...actors].sort());
    const policies = Object.values(gateway.findResources('AWS::IAM::Policy')) as {
      Properties: { PolicyDocument: { Statement: Statement[] } };
    }[];
    const onControl = policies.filter((p) =>
      p.Properties.PolicyDocument.Statement.some((st) => /ControlTable/.test(JSON.stringify(st.Resource))),
    );
    // The order functions (GetItem, PutItem), the kill switch, which also turns the switch (UpdateItem), the plans.
    // ... and the signal worker (an alert may turn the kill switch).
    expect(onControl).toHaveLength(orderIds.length + 4);
  });

  it('the kill switch may turn the switch (UpdateItem) besides the governor calls, on its three IAM routes', () => {
    const policies = Object.entries(gateway.findResources('AWS::IAM::Policy')) as [
      string,
      { Properties: { PolicyDocument: { Statement: Statement[] } } },
    ][];
    const [, policy] = policies.find(([id]) => id.startsWith('KillSwitch'))!;
    const onControl = policy.Properties.PolicyDocument.Statement.filter((st) =>
      /ControlTable/.test(JSON.stringify(st.Resource)),
    );
    expect(onControl.flatMap(actions).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    // On the idempotency table only the outbox items of its sweep's cancels (they carry no key).
    const onIdempotency = policy.Properties.PolicyDocument.Statement.filter((st) =>
      /IdempotencyTable/.test(JSON.stringify(st.Resource)),
    );
    expect(onIdempotency.flatMap(actions)).toEqual(['dynamodb:PutItem']);
    const env = functionsOf(gateway).find(([id]) => id.startsWith('KillSwitch'))![1].Properties.Environment!.Variables!;
    expect(env).toMatchObject({ CONTROL_TABLE_NAME: expect.anything(), EVENT_BUS_NAME: expect.anything() });
  });

  it('order functions default to 8/s and 120/min; a preset that states its own rate (TradeSmart) sets it; the context wins', () => {
    const envOf = (t: Template) =>
      functionsOf(t).find(([id]) => id.startsWith('PlaceGTTOrder'))![1].Properties.Environment!.Variables!;
    expect(envOf(gateway).ORDER_RATE_PER_SECOND).toBeUndefined();
    const tradesmart = Template.fromStack(synth({ broker: 'tradesmart' }).gateway);
    expect(envOf(tradesmart)).toMatchObject({ ORDER_RATE_PER_SECOND: '8', ORDER_RATE_PER_MINUTE: '110' });
    const chosen = Template.fromStack(synth({ broker: 'tradesmart', ORDER_RATE_PER_MINUTE: '60' }).gateway);
    expect(envOf(chosen)).toMatchObject({ ORDER_RATE_PER_SECOND: '8', ORDER_RATE_PER_MINUTE: '60' });
  });
});

describe('trading rules settings', () => {
  it('-c algoId and the market-order settings reach the functions; none is set by default', () => {
    const envOf = (t: Template, name: string) =>
      (
        Object.entries(t.findResources('AWS::Lambda::Function')) as [
          string,
          { Properties: { Environment: { Variables: Record<string, unknown> } } },
        ][]
      ).find(([id]) => id.startsWith(name))![1].Properties.Environment.Variables;
    expect(envOf(gateway, 'PlaceGTTOrder').ALGO_ID).toBeUndefined();
    expect(envOf(gateway, 'PlaceGTTOrder').MARKET_ORDERS).toBeUndefined();
    const set = Template.fromStack(
      synth({ algoId: '99999', MARKET_ORDERS: 'reject', MARKET_PROTECTION_PERCENT: '1' }).gateway,
    );
    expect(envOf(set, 'PlaceOCOOrder')).toMatchObject({
      ALGO_ID: '99999',
      MARKET_ORDERS: 'reject',
      MARKET_PROTECTION_PERCENT: '1',
    });
  });
});

describe('idempotency table', () => {
  it('is on-demand with TTL on the expiry attribute and point-in-time recovery', () => {
    gateway.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expiration', Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });
});

describe('alarms and outputs', () => {
  it('alarms on errors and throttles per function and on API 5xx', () => {
    const alarms = Object.values(gateway.findResources('AWS::CloudWatch::Alarm')) as {
      Properties: { MetricName: string; Namespace: string; AlarmActions: unknown[] };
    }[];
    // Per operation and session function, the watcher, the kill switch, the EventForwarder, the events history, plans.
    // ... the strategies, the signal webhook and the signal worker.
    expect(alarms.filter((a) => a.Properties.MetricName === 'Errors')).toHaveLength(
      OPERATIONS.length + SESSION.length + 5 + 3,
    );
    expect(alarms.filter((a) => a.Properties.MetricName === 'SessionAlive')).toHaveLength(1);
    expect(alarms.filter((a) => a.Properties.MetricName === 'Throttles')).toHaveLength(OPERATIONS.length);
    expect(alarms.filter((a) => a.Properties.MetricName === '5xx')).toHaveLength(1);
    // Each goes to the topic; the NAT instances' status alarms (egress.test.ts) also carry their EC2 action.
    for (const alarm of alarms)
      expect(alarm.Properties.AlarmActions).toHaveLength(alarm.Properties.Namespace === 'AWS/EC2' ? 2 : 1);
  });

  it('exports every function ARN for direct invocation', () => {
    const outputs = gateway.toJSON().Outputs as Record<string, { Export?: { Name: string } }>;
    for (const op of OPERATIONS)
      expect(outputs[`${op.name}FunctionArn`]?.Export?.Name).toBe(`GttGatewayStack-${op.name}-Arn`);
  });

  it('passes guardrail settings from context to every operation function', () => {
    const withGuards = Template.fromStack(synth({ GUARDRAIL_MAX_QTY: '500', GUARDRAIL_READ_ONLY: 'true' }).gateway);
    const functions = Object.entries(withGuards.findResources('AWS::Lambda::Function')) as [
      string,
      { Properties: { Environment?: { Variables?: Record<string, unknown> } } },
    ][];
    for (const op of OPERATIONS) {
      const matching = functions.filter(([id]) => new RegExp(`^${op.name}Function[0-9A-F]{8}$`).test(id));
      expect(matching, op.name).toHaveLength(1);
      expect(matching[0]![1].Properties.Environment?.Variables, op.name).toMatchObject({
        GUARDRAIL_MAX_QTY: '500',
        GUARDRAIL_READ_ONLY: 'true',
      });
    }
  });
});

describe('cdk-nag', () => {
  it('AwsSolutions checks report no unsuppressed error or warning', () => {
    for (const stack of [built.gateway, built.workflow]) {
      const annotations = Annotations.fromStack(stack);
      const findings = [
        ...annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
        ...annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')),
      ].map((f) => `${f.id}: ${String(f.entry.data).slice(0, 160)}`);
      expect(findings).toEqual([]);
    }
  });
});

describe('workflow example', () => {
  it('has a logged, traced state machine and a schedule that lists pending orders', () => {
    workflow.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      TracingConfiguration: { Enabled: true },
      LoggingConfiguration: Match.objectLike({ Level: 'ALL' }),
    });
    workflow.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'cron(0/15 4-9 ? * MON-FRI *)' });
  });
});
