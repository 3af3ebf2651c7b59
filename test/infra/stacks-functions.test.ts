/**
 * The CDK stacks as CloudFormation templates: one function per operation, IAM on every route, logs, throttling,
 * the trading rules settings, alarms, outputs, the workflow example and no unsuppressed cdk-nag finding. These run
 * on the default egress (nat-instance); test/infra/egress-*.test.ts cover each egress setting.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';

import { ASSISTANTS } from '../../functions/assistants/definition.js';
import { KILL_SWITCH } from '../../functions/controls/definition.js';
import { EVENTS_HISTORY } from '../../functions/events/definitions.js';
import { OPERATIONS } from '../../functions/manifest/index.js';
import { MCP_SERVER } from '../../functions/mcp/definition.js';
import { QUOTE_BESIDE } from '../../functions/orders/definitions.js';
import { PLANS } from '../../functions/plans/definition.js';
import { COVERAGE } from '../../functions/risk/coverage-definition.js';
import { RISK } from '../../functions/risk/definition.js';
import { SIGNAL_WEBHOOK, STRATEGIES } from '../../functions/signals/definitions.js';
import { ORDER_ROUTE_THROTTLE } from '../../infra/constructs/api.js';
import { gatewayTemplate } from '../support/gateway-template.js';
import {
  built,
  gateway,
  gatewayFunctionsOf,
  SESSION,
  synth,
  useDefaultStacks,
  workflow,
} from '../support/stacks-template.js';

useDefaultStacks();

describe('functions', () => {
  it('one function per operation and per session function, on nodejs22.x arm64 with X-Ray and a timeout above the broker timeout', () => {
    // The CDK's handler that copies the console's files is the CDK's (its runtime, its settings).
    const functions = gatewayFunctionsOf(gateway);
    // The operations, the session functions, the watcher, the kill switch, the outbox's EventForwarder, the
    // events history and the plans; the strategies, the signal webhook and the signal worker; the InstrumentRefresh;
    // the assistants and the remote MCP server; the day's limits; coverage.
    expect(Object.keys(functions)).toHaveLength(OPERATIONS.length + SESSION.length + 5 + 3 + 1 + 2 + 1 + 1);
    for (const [id, fn] of Object.entries(functions) as [string, { Properties: Record<string, unknown> }][]) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        // The kill switch sweeps the book at the governor's pace; the signal worker may act on 20 alerts; the
        // instrument refresh loads whole symbol masters; the remote MCP server waits on the API's order routes.
        Timeout: id.startsWith('KillSwitch')
          ? 90
          : id.startsWith('SignalWorker')
            ? 60
            : id.startsWith('InstrumentRefresh')
              ? 300
              : id.startsWith('McpServer')
                ? 25
                : 12,
        Environment: {
          Variables: expect.objectContaining({ BROKER_TIMEOUT_MS: '8000', POWERTOOLS_SERVICE_NAME: 'gtt-gateway' }),
        },
      });
      const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      // The EventForwarder, the events history, the strategies, the signal webhook, the assistants and the remote MCP
      // server (it calls the API) never call the broker, nor does Risk (the watcher's check reads the positions).
      expect(env.BROKER_BASE_URL).toEqual(
        [
          'EventsEventForwarder',
          'EventsHistory',
          'Strategies',
          'SignalWebhook',
          'Assistants',
          'McpServer',
          'Risk',
        ].some((name) => id.startsWith(name))
          ? undefined
          : { Ref: 'BrokerBaseUrl' },
      );
    }
  });

  it('each function has its own log group with a retention', () => {
    // One per function (the watcher, the kill switch and the EventForwarder too), the API's access logs, the VPC flow
    // logs of the default egress, the CDK's handler that copies the console's files.
    gateway.resourceCountIs('AWS::Logs::LogGroup', OPERATIONS.length + SESSION.length + 5 + 3 + 1 + 2 + 1 + 1 + 2 + 1);
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
        // The quote function's route beside its operation (functions/orders/definitions.ts QUOTE_BESIDE).
        ...QUOTE_BESIDE.routes.map((r) => `${r.method} ${r.path}`),
        ...sessionRoutes.map((r) => `${r.method} ${r.path}`),
        ...KILL_SWITCH.routes.map((r) => `${r.method} ${r.path}`),
        ...EVENTS_HISTORY.routes.map((r) => `${r.method} ${r.path}`),
        ...PLANS.routes.map((r) => `${r.method} ${r.path}`),
        ...COVERAGE.routes.map((r) => `${r.method} ${r.path}`),
        ...[...STRATEGIES.routes, ...SIGNAL_WEBHOOK.routes].map((r) => `${r.method} ${r.path}`),
        ...ASSISTANTS.routes.map((r) => `${r.method} ${r.path}`),
        ...RISK.routes.map((r) => `${r.method} ${r.path}`),
        ...MCP_SERVER.routes.map((r) => `${r.method} ${r.path}`),
        // Its other methods reach its function, which answers them 405 with `Allow: POST`.
        'ANY /mcp',
      ].sort(),
    );
    for (const route of routes) {
      expect([route.Properties.RouteKey, route.Properties.AuthorizationType]).toEqual([
        route.Properties.RouteKey,
        ['GET /session/oauth/callback', 'POST /signals/{id}', 'POST /mcp', 'ANY /mcp'].includes(
          route.Properties.RouteKey,
        )
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
        // A position's close places an order.
        'POST /positions/close',
        // The unsigned signal webhook and remote MCP server.
        'POST /signals/{id}',
        'POST /mcp',
        'ANY /mcp',
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
    const set = gatewayTemplate(synth({ algoId: '99999', MARKET_ORDERS: 'reject', MARKET_PROTECTION_PERCENT: '1' }));
    expect(envOf(set, 'PlaceOCOOrder')).toMatchObject({
      ALGO_ID: '99999',
      MARKET_ORDERS: 'reject',
      MARKET_PROTECTION_PERCENT: '1',
    });
  });
});

describe('alarms and outputs', () => {
  it('alarms on errors and throttles per function and on API 5xx', () => {
    const alarms = Object.values(gateway.findResources('AWS::CloudWatch::Alarm')) as {
      Properties: { MetricName: string; Namespace: string; AlarmActions: unknown[] };
    }[];
    // Per operation and session function, the watcher, the kill switch, the EventForwarder, the events history, plans.
    // ... the strategies, the signal webhook and the signal worker; the InstrumentRefresh; the assistants; the
    // remote MCP server; the day's limits; coverage.
    expect(alarms.filter((a) => a.Properties.MetricName === 'Errors')).toHaveLength(
      OPERATIONS.length + SESSION.length + 5 + 3 + 1 + 2 + 1 + 1,
    );
    expect(alarms.filter((a) => a.Properties.MetricName === 'SessionAlive')).toHaveLength(1);
    expect(alarms.filter((a) => a.Properties.MetricName === 'Throttles')).toHaveLength(OPERATIONS.length);
    expect(alarms.filter((a) => a.Properties.MetricName === '5xx')).toHaveLength(1);
    // Each goes to the topic; the NAT instances' status alarms (egress-static.test.ts) also carry their EC2 action.
    for (const alarm of alarms)
      expect(alarm.Properties.AlarmActions).toHaveLength(alarm.Properties.Namespace === 'AWS/EC2' ? 2 : 1);
  });

  it('exports every function ARN for direct invocation', () => {
    const outputs = gateway.toJSON().Outputs as Record<string, { Export?: { Name: string } }>;
    for (const op of OPERATIONS)
      expect(outputs[`${op.name}FunctionArn`]?.Export?.Name).toBe(`GttGatewayStack-${op.name}-Arn`);
  });

  it('passes guardrail settings from context to every operation function', () => {
    const withGuards = gatewayTemplate(synth({ GUARDRAIL_MAX_QTY: '500', GUARDRAIL_READ_ONLY: 'true' }));
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
    for (const stack of [...built.gatewayStacks, built.workflow]) {
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
