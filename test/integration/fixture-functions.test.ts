/**
 * A function is one definition: two fixture functions that are not in the manifest (test/fixtures/functions/: a
 * scheduled DailyReport and a routed Greeting) are given beside the manifest's, and nothing else is written for them.
 * The stack builds each with its grants, schedule, notes and alarms; the local stack runs both (the route over its
 * HTTP API, the schedule at its local run route); the OpenAPI document has the route.
 */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { envName } from '../../functions/base/runtime/env.js';
import { FUNCTIONS } from '../../functions/manifest/index.js';
import { buildOpenApiDocument } from '../../functions/manifest/openapi.js';
import { applyFeatureFlags } from '../../infra/settings/feature-flags.js';
import { GatewayStack } from '../../infra/stacks/gateway-stack.js';
import { LOCAL_EVENTS_TABLE } from '../../local/dynamodb.js';
import { LOCAL_RUN_PREFIX, type LocalStack, startLocalStack } from '../../local/run-local.js';
import { DAILY_REPORT, DAILY_REPORT_CRON, FIXTURE_FUNCTIONS, GREETING } from '../fixtures/functions/definitions.js';

const WITH_FIXTURES = [...FUNCTIONS, ...FIXTURE_FUNCTIONS];

type Res = { Type: string; Properties: Record<string, unknown> };

describe('the stack builds a function from its definition alone', () => {
  // No bundling: the fixtures' entry files exist, nothing is built from them here.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], egress: 'none' } });
  applyFeatureFlags(app);
  const stack = new GatewayStack(app, 'FixtureStack', { functions: WITH_FIXTURES });
  // The fixtures are stack functions without an operation: they are built in the automation stack.
  const automation = stack.parts.Automation;
  const template = Template.fromStack(automation);
  const resources = template.toJSON().Resources as Record<string, Res>;
  const idOf = (name: string) =>
    automation.getLogicalId(stack.functions.get(name)!.function.node.defaultChild as never);
  const roleOf = (name: string) =>
    (resources[idOf(name)]!.Properties.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
  const statementsOf = (role: string) =>
    Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(role))
      .flatMap(
        (r) => (r.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }).Statement,
      );

  it('the scheduled one: its Lambda with its environment and notes, its grant, its schedule and its alarm', () => {
    const fn = resources[idOf(DAILY_REPORT.name)]!.Properties;
    expect(fn.Description).toBe(`gtt-gateway: ${DAILY_REPORT.summary}`);
    expect(fn.MemorySize).toBe(256);
    expect(Object.keys((fn.Environment as { Variables: object }).Variables)).toContain(envName('eventsTableName'));
    expect(resources[roleOf(DAILY_REPORT.name)]!.Properties.Description).toBe(DAILY_REPORT.notes.roleDescription);
    // eventsTable:history: a Query of the events table, nothing else of it.
    const onTable = statementsOf(roleOf(DAILY_REPORT.name)).filter((s) =>
      JSON.stringify(s.Resource).includes(stack.getLogicalId(stack.events.table.node.defaultChild as never)),
    );
    expect(onTable.map((s) => s.Action)).toEqual(['dynamodb:Query']);
    // The schedule written in its definition is the one deployed, India time, with the scheduled runs' retries.
    const schedules = Object.values(resources).filter(
      (r) =>
        r.Type === 'AWS::Scheduler::Schedule' && JSON.stringify(r.Properties.Target).includes(idOf(DAILY_REPORT.name)),
    );
    expect(schedules).toHaveLength(1);
    expect(schedules[0]!.Properties).toMatchObject({
      ScheduleExpression: DAILY_REPORT_CRON,
      ScheduleExpressionTimezone: 'Asia/Kolkata',
      Target: { RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 600 } },
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmDescription: DAILY_REPORT.alarms.errors!.description,
      Threshold: 2,
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: idOf(DAILY_REPORT.name) } }],
    });
  });

  it('the routed one: its route on the API (IAM auth) to its Lambda, its notes, no grant beyond its logs', () => {
    const route = Object.values(resources).find(
      (r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.RouteKey === 'GET /greetings/{name}',
    )!;
    expect(route.Properties.AuthorizationType).toBe('AWS_IAM');
    const integration = JSON.stringify(route.Properties.Target).match(/"Ref":"([^"]+)"/)![1]!;
    expect(resources[integration]!.Properties.IntegrationUri).toEqual({ 'Fn::GetAtt': [idOf(GREETING.name), 'Arn'] });
    expect(resources[idOf(GREETING.name)]!.Properties.Description).toBe(GREETING.notes.description);
    expect(resources[roleOf(GREETING.name)]!.Properties.Description).toBe(GREETING.notes.roleDescription);
    const actions = statementsOf(roleOf(GREETING.name)).flatMap((s) => [s.Action].flat());
    expect(actions.every((a) => String(a).startsWith('logs:') || String(a).startsWith('xray:'))).toBe(true);
  });

  it('builds the manifest alone without them', () => {
    const alone = new App({ context: { 'aws:cdk:bundling-stacks': [], egress: 'none' } });
    applyFeatureFlags(alone);
    const manifestOnly = new GatewayStack(alone, 'ManifestStack');
    expect(manifestOnly.functions.has(DAILY_REPORT.name)).toBe(false);
    expect(manifestOnly.functions.has(GREETING.name)).toBe(false);
  });
});

describe('the local stack runs a function from its definition alone', () => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startLocalStack({ functions: WITH_FIXTURES });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('answers the routed one over its HTTP API', async () => {
    const res = await fetch(`${stack.api.url}/greetings/trader`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ greeting: 'hello trader' });
  });

  it('runs the scheduled one as its schedule would, with the environment its definition names', async () => {
    const res = await fetch(`${stack.api.url}${LOCAL_RUN_PREFIX}${DAILY_REPORT.name}`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ report: 'daily', table: LOCAL_EVENTS_TABLE });
  });

  it("documents the routed one in the OpenAPI document it serves, as the document's builder does", async () => {
    const served = (await (await fetch(`${stack.api.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(served.paths['/greetings/{name}']?.get?.operationId).toBe('GetGreeting');
    const built = buildOpenApiDocument(undefined, WITH_FIXTURES) as typeof served;
    expect(built.paths['/greetings/{name}']?.get?.operationId).toBe('GetGreeting');
    expect((buildOpenApiDocument() as typeof served).paths['/greetings/{name}']).toBeUndefined();
  });
});
