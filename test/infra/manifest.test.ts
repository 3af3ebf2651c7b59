/**
 * The stack is the function manifest (functions/manifest/): every function a deployment has is a Lambda with exactly
 * the environment its entry names (its catalogue keys, the deployment's settings when it takes them, and what every
 * function gets), every route of the manifest is on the API with its auth, its function and its throttle, and no
 * Lambda or route is there that the manifest does not list.
 */
import { App, Stack } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { describe, expect, it } from 'vitest';

import { DEPLOYMENT_SETTINGS, type EnvKey, envName } from '../../functions/base/runtime/env.js';
import { type FunctionEntry, FUNCTIONS } from '../../functions/manifest/index.js';
import { GatewayFunction } from '../../infra/constructs/gateway-function.js';
import type { DeploymentChoices } from '../../infra/constructs/manifest-function.js';
import { buildApp } from '../../infra/stacks/app.js';
import { gatewayTemplate } from '../support/gateway-template.js';
import { gatewayFunctionsOf } from '../support/stacks-template.js';

/** What GatewayFunction gives every function (without an account or source maps). */
const COMMON = ['POWERTOOLS_SERVICE_NAME', 'POWERTOOLS_LOG_LEVEL', envName('brokerTimeoutMs')];
const SETTINGS = { GUARDRAIL_MAX_QTY: '100', ALGO_ID: 'ABC123' };

interface Deployment {
  name: string;
  context: Record<string, string>;
  deployed: DeploymentChoices;
  /** Catalogue keys this deployment leaves unset (no value: the function's default applies). */
  unset: EnvKey[];
}

const DEPLOYMENTS: Deployment[] = [
  {
    // A preset with the broker's own order rate, the Flattrade login with its token URL, a Telegram webhook.
    name: 'browser login, Telegram webhook',
    context: {
      broker: 'tradesmart',
      brokerLogin: 'flattrade',
      brokerTokenUrl: 'https://auth.example.com/token',
      notifyWebhookUrl: 'https://hooks.example.com/x',
      notifyWebhookFormat: 'telegram',
      notifyTelegramChatId: '12345',
      signalBaseUrl: 'https://trade.example.com',
    },
    deployed: { totpRenewal: false, endOfDayLogout: true, watcher: true, notifyFormat: true },
    // The login window: the catalogue's default.
    unset: ['oauthStateTtlSeconds'],
  },
  {
    name: 'TOTP renewal, raw webhook, no watcher, no end-of-day logout',
    context: {
      sessionRenewal: 'totp',
      notifyWebhookUrl: 'https://hooks.example.com/x',
      watcher: 'off',
      endOfDayLogout: 'off',
    },
    deployed: { totpRenewal: true, endOfDayLogout: false, watcher: false, notifyFormat: false },
    unset: ['orderRatePerSecond', 'orderRatePerMinute', 'brokerTokenUrl', 'signalBaseUrl', 'oauthStateTtlSeconds'],
  },
];

type Res = { Type: string; Properties: Record<string, unknown> };

/** The only routes not signed with IAM: the OAuth callback, the signal webhook and the remote MCP server. */
const UNSIGNED =
  /^(OAuthCallback GET \/session\/oauth\/callback|SignalWebhook POST \/signals\/\{id\}|McpServer (POST|ANY) \/mcp)$/;

/** The function's logical id, in whichever of the app's stacks it is built. */
const lambdaOf = (app: Construct, entry: FunctionEntry): string | undefined => {
  const found = app.node
    .findAll()
    .filter((c): c is GatewayFunction => c instanceof GatewayFunction && c.node.id === entry.name);
  expect(found.length).toBeLessThanOrEqual(1);
  return found[0] && Stack.of(found[0]).getLogicalId(found[0].function.node.defaultChild as lambda.CfnFunction);
};

describe.each(DEPLOYMENTS)('the stack from the manifest ($name)', (deployment) => {
  const built = buildApp(
    new App({ context: { 'aws:cdk:bundling-stacks': [], egress: 'none', ...SETTINGS, ...deployment.context } }),
  );
  const stack = built.app;
  const template = gatewayTemplate(built);
  const isDeployed = (entry: FunctionEntry) => !entry.deployedWhen || deployment.deployed[entry.deployedWhen];
  const deployed = FUNCTIONS.filter(isDeployed);

  it("gives each function its definition's notes: its description and its role's", () => {
    const resources = template.toJSON().Resources as Record<string, Res>;
    for (const entry of deployed) {
      const fn = resources[lambdaOf(stack, entry)!]!.Properties;
      // The formatter's description names the webhook's chat format (infra/constructs/webhook.ts).
      if (entry.name !== 'NotifyFormatter')
        expect(fn.Description, entry.name).toBe(entry.notes.description ?? `gtt-gateway: ${entry.summary}`);
      const role = (fn.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      expect(resources[role]!.Properties.Description, entry.name).toBe(entry.notes.roleDescription);
    }
  });

  it('has a Lambda for each deployed function of the manifest, and no other', () => {
    expect(Object.keys(gatewayFunctionsOf(template))).toHaveLength(deployed.length);
    for (const entry of FUNCTIONS) {
      const id = lambdaOf(stack, entry);
      if (!isDeployed(entry)) expect(id, entry.name).toBeUndefined();
      else expect(template.toJSON().Resources[id!]?.Type, entry.name).toBe('AWS::Lambda::Function');
    }
  });

  it("gives each function exactly the environment of its manifest entry's keys", () => {
    const settingNames = [...Object.keys(SETTINGS), envName('brokerAuth')];
    expect(DEPLOYMENT_SETTINGS).toEqual(expect.arrayContaining(Object.keys(SETTINGS)));
    for (const entry of deployed) {
      const fn = template.toJSON().Resources[lambdaOf(stack, entry)!] as Res;
      const names = Object.keys((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables);
      const expected = new Set([
        ...entry.env.keys.filter((key) => !deployment.unset.includes(key)).map(envName),
        ...(entry.env.deploymentSettings ? settingNames : []),
        ...COMMON,
      ]);
      expect(names.toSorted(), entry.name).toEqual([...expected].toSorted());
    }
  });

  it('has every route of the manifest with its auth, its function and its throttle, and no other', () => {
    const resources = template.toJSON().Resources as Record<string, Res>;
    const routes = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route');
    const stage = Object.values(resources).find((r) => r.Type === 'AWS::ApiGatewayV2::Stage')!;
    const throttles = stage.Properties.RouteSettings as Record<string, { ThrottlingRateLimit: number }>;
    // A route whose function answers its path's other methods (`anyMethod`: the MCP server) has `ANY` beside it.
    const manifestRoutes = deployed.flatMap((entry) =>
      entry.routes.flatMap((route) => [
        { entry, route, method: route.method as string },
        ...(route.anyMethod ? [{ entry, route, method: 'ANY' }] : []),
      ]),
    );
    expect(routes).toHaveLength(manifestRoutes.length);
    for (const { entry, route, method } of manifestRoutes) {
      const key = `${method} ${route.path}`;
      const found = routes.filter((r) => r.Properties.RouteKey === key);
      expect(found, key).toHaveLength(1);
      const props = found[0]!.Properties;
      expect(props.AuthorizationType ?? 'NONE', key).toBe(route.auth === 'iam' ? 'AWS_IAM' : 'NONE');
      // Unsigned: only the OAuth callback (auth none) and the signal webhook (its token in the path).
      if (route.auth !== 'iam') expect([`${entry.name} ${key}`]).toContainEqual(expect.stringMatching(UNSIGNED));
      // The route's integration invokes the function of its entry.
      const integrationId = JSON.stringify(props.Target).match(/"Ref":"([^"]+)"/)![1]!;
      expect(resources[integrationId]!.Properties.IntegrationUri, key).toEqual({
        'Fn::GetAtt': [lambdaOf(stack, entry), 'Arn'],
      });
      expect(throttles[key]?.ThrottlingRateLimit, key).toBe(route.throttle?.rateLimit);
    }
  });
});

describe('signals in the stack', () => {
  const built = buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], egress: 'none', ...SETTINGS } }));
  const stack = built.app;
  const template = gatewayTemplate(built);
  const resources = template.toJSON().Resources as Record<string, Res & { Metadata?: unknown }>;
  const idOf = (type: string, match: (r: Res) => boolean) =>
    Object.entries(resources).find(([, r]) => r.Type === type && match(r))?.[0];
  const queueId = idOf('AWS::SQS::Queue', (r) => r.Properties.RedrivePolicy !== undefined)!;
  const deadLettersId = Object.entries(resources).find(
    ([id, r]) => r.Type === 'AWS::SQS::Queue' && id !== queueId && id.startsWith('SignalDeadLetters'),
  )?.[0];
  const policiesOf = (entry: FunctionEntry) => {
    const fn = resources[lambdaOf(stack, entry)!]!;
    const role = JSON.stringify(fn.Properties.Role).match(/"([A-Za-z0-9]+Role[A-Za-z0-9]*)"/)![1]!;
    return JSON.stringify(
      Object.values(resources).filter(
        (r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(role),
      ),
    );
  };
  const entry = (name: string) => FUNCTIONS.find((f) => f.name === name)!;

  it('has the signal queue, encrypted and TLS only, with its dead-letter queue after three receives', () => {
    expect(queueId).toBeDefined();
    expect(deadLettersId).toBeDefined();
    const queue = resources[queueId]!.Properties;
    expect(queue.SqsManagedSseEnabled).toBe(true);
    expect(queue.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [deadLettersId, 'Arn'] },
      maxReceiveCount: 3,
    });
    expect(resources[deadLettersId!]!.Properties.SqsManagedSseEnabled).toBe(true);
    for (const id of [queueId, deadLettersId!]) {
      const policy = Object.values(resources).find(
        (r) => r.Type === 'AWS::SQS::QueuePolicy' && JSON.stringify(r.Properties.Queues).includes(id),
      );
      expect(JSON.stringify(policy?.Properties.PolicyDocument), id).toContain('"aws:SecureTransport":"false"');
    }
  });

  it('feeds the SignalWorker one message at a time, reporting each failure', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: lambdaOf(stack, entry('SignalWorker')) },
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(Object.keys(template.findResources('AWS::Lambda::EventSourceMapping'))).toHaveLength(
      FUNCTIONS.filter((f) => f.trigger?.kind === 'queue' || f.trigger?.kind === 'stream').length,
    );
  });

  it('runs the SignalWorker\'s sweep every minute with {"sweep": true}; its role invokes the worker only', () => {
    const worker = lambdaOf(stack, entry('SignalWorker'))!;
    const schedules = Object.values(resources).filter(
      (r) => r.Type === 'AWS::Scheduler::Schedule' && JSON.stringify(r.Properties.Target).includes(worker),
    );
    expect(schedules).toHaveLength(1);
    const schedule = schedules[0]!.Properties;
    expect(schedule).toMatchObject({
      ScheduleExpression: 'cron(* * * * ? *)',
      ScheduleExpressionTimezone: 'Asia/Kolkata',
      FlexibleTimeWindow: { Mode: 'OFF' },
    });
    const target = schedule.Target as {
      Arn: unknown;
      Input: string;
      RetryPolicy: unknown;
      RoleArn: { 'Fn::GetAtt': [string, string] };
    };
    expect(target.Arn).toEqual({ 'Fn::GetAtt': [worker, 'Arn'] });
    // The payload the worker tells a sweep by (anything else is refused); a run missed is not sent late.
    expect(JSON.parse(target.Input)).toEqual({ sweep: true });
    expect(target.RetryPolicy).toEqual({ MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 });
    const role = target.RoleArn['Fn::GetAtt'][0];
    expect(JSON.stringify(resources[role]!.Properties.AssumeRolePolicyDocument)).toContain('scheduler.amazonaws.com');
    const statements = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(role))
      .flatMap((r) => (r.Properties.PolicyDocument as { Statement: unknown[] }).Statement);
    expect(statements).toEqual([{ Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: target.Arn }]);
    // The sweep reads the pending signals with a Query; the webhook never does.
    expect(policiesOf(entry('SignalWorker'))).toContain('dynamodb:Query');
    expect(policiesOf(entry('SignalWebhook'))).not.toContain('dynamodb:Query');
  });

  it('lets the webhook send to the queue and nothing else of it; the worker consume it', () => {
    const webhook = policiesOf(entry('SignalWebhook'));
    expect(webhook).toContain('sqs:SendMessage');
    expect(webhook).not.toContain('sqs:ReceiveMessage');
    expect(webhook).not.toContain('secretsmanager:');
    expect(webhook).toContain(queueId);
    const worker = policiesOf(entry('SignalWorker'));
    expect(worker).toContain('sqs:ReceiveMessage');
    expect(worker).toContain('sqs:DeleteMessage');
    expect(worker).not.toContain('sqs:SendMessage');
    expect(policiesOf(entry('Strategies'))).not.toContain('sqs:');
    // The webhook knows where to send.
    const env = (
      resources[lambdaOf(stack, entry('SignalWebhook'))!]!.Properties.Environment as {
        Variables: Record<string, unknown>;
      }
    ).Variables;
    expect(env[envName('signalQueueUrl')]).toEqual({ Ref: queueId });
  });

  it('throttles the unsigned signal route at the stage and explains its one cdk-nag suppression', () => {
    const stage = Object.values(resources).find((r) => r.Type === 'AWS::ApiGatewayV2::Stage')!;
    const throttles = stage.Properties.RouteSettings as Record<string, { ThrottlingRateLimit: number }>;
    expect(throttles['POST /signals/{id}']).toEqual({ ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 });
    const route = Object.values(resources).find(
      (r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.RouteKey === 'POST /signals/{id}',
    )!;
    expect(JSON.stringify(route.Metadata)).toContain('AwsSolutions-APIG4');
    expect(JSON.stringify(route.Metadata)).toContain('256-bit token');
  });

  it("never writes the request path (the webhook's token) into the API's access log", () => {
    const stage = Object.values(resources).find((r) => r.Type === 'AWS::ApiGatewayV2::Stage')!;
    const format = String((stage.Properties.AccessLogSettings as { Format: string }).Format);
    expect(format).not.toContain('$context.path');
    expect(format).not.toContain('$context.http.path');
  });
});
