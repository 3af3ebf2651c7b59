/**
 * The stack is the function manifest (functions/manifest/): every function a deployment has is a Lambda with exactly
 * the environment its entry names (its catalogue keys, the deployment's settings when it takes them, and what every
 * function gets), every route of the manifest is on the API with its auth, its function and its throttle, and no
 * Lambda or route is there that the manifest does not list.
 */
import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';

import { type FunctionEntry, FUNCTIONS } from '../../functions/manifest/index.js';
import { DEPLOYMENT_SETTINGS, type EnvKey, envName } from '../../functions/runtime/env.js';
import { notesOf } from '../../infra/constructs/function-notes.js';
import { GatewayFunction } from '../../infra/constructs/gateway-function.js';
import type { DeploymentChoices } from '../../infra/constructs/manifest-function.js';
import { buildApp } from '../../infra/stacks/app.js';

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
    },
    deployed: { totpRenewal: false, endOfDayLogout: true, watcher: true, notifyFormat: true },
    unset: [],
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
    unset: ['orderRatePerSecond', 'orderRatePerMinute', 'brokerTokenUrl'],
  },
];

type Res = { Type: string; Properties: Record<string, unknown> };

const lambdaOf = (stack: Stack, entry: FunctionEntry): string | undefined => {
  const found = stack.node
    .findAll()
    .filter((c): c is GatewayFunction => c instanceof GatewayFunction && c.node.id === entry.name);
  expect(found.length).toBeLessThanOrEqual(1);
  return found[0] && stack.getLogicalId(found[0].function.node.defaultChild as lambda.CfnFunction);
};

describe.each(DEPLOYMENTS)('the stack from the manifest ($name)', (deployment) => {
  const { gateway: stack } = buildApp(
    new App({ context: { 'aws:cdk:bundling-stacks': [], egress: 'none', ...SETTINGS, ...deployment.context } }),
  );
  const template = Template.fromStack(stack);
  const isDeployed = (entry: FunctionEntry) => !entry.deployedWhen || deployment.deployed[entry.deployedWhen];
  const deployed = FUNCTIONS.filter(isDeployed);

  it('every function of the manifest has its notes (where it is built, its descriptions)', () => {
    for (const entry of FUNCTIONS) expect(() => notesOf(entry)).not.toThrow();
  });

  it('has a Lambda for each deployed function of the manifest, and no other', () => {
    expect(Object.keys(template.findResources('AWS::Lambda::Function'))).toHaveLength(deployed.length);
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
    const manifestRoutes = deployed.flatMap((entry) => entry.routes.map((route) => ({ entry, route })));
    expect(routes).toHaveLength(manifestRoutes.length);
    for (const { entry, route } of manifestRoutes) {
      const key = `${route.method} ${route.path}`;
      const found = routes.filter((r) => r.Properties.RouteKey === key);
      expect(found, key).toHaveLength(1);
      const props = found[0]!.Properties;
      expect(props.AuthorizationType ?? 'NONE', key).toBe(route.auth === 'iam' ? 'AWS_IAM' : 'NONE');
      // The route's integration invokes the function of its entry.
      const integrationId = JSON.stringify(props.Target).match(/"Ref":"([^"]+)"/)![1]!;
      expect(resources[integrationId]!.Properties.IntegrationUri, key).toEqual({
        'Fn::GetAtt': [lambdaOf(stack, entry), 'Arn'],
      });
      expect(throttles[key]?.ThrottlingRateLimit, key).toBe(route.throttle?.rateLimit);
    }
  });
});
