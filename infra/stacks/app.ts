/**
 * The CDK app (`npm run synth`, `npm run deploy`): the gateway's stacks (the gateway stack and the stacks after it,
 * infra/stacks/gateway-stack.ts), the workflow example stack, and cdk-nag's AWS Solutions checks over all of them.
 * Runs offline: no account lookups, bundling with the local esbuild.
 */
import { App, Aspects, type Stack } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';

import { envName } from '../../functions/base/runtime/env.js';
import { accountOf, gatewayStackName, workflowExampleStackName } from '../settings/accounts.js';
import { BROKER_CONTEXT_KEYS, resolveBrokerSetup } from '../settings/broker-setup.js';
import { checkContextSettings } from '../settings/context.js';
import { applyFeatureFlags } from '../settings/feature-flags.js';
import { CONTEXT_SETTINGS, GatewayStack } from './gateway-stack.js';
import { WorkflowExampleStack } from './workflow-example-stack.js';

export interface BuiltApp {
  app: App;
  /** The gateway stack: the data, the network, the API, the session and events functions (and `parts`). */
  gateway: GatewayStack;
  /** Every stack `npm run deploy` deploys: the gateway stack, then its parts (Orders, Automation, Api, Console). */
  gatewayStacks: Stack[];
  workflow: WorkflowExampleStack;
}

export const buildApp = (app = new App()): BuiltApp => {
  // cdk.json's feature flags, for an App made in code too (tests): the template checked is the one deployed.
  applyFeatureFlags(app);
  const context = (name: string): string | undefined => {
    const value: unknown = app.node.tryGetContext(name);
    return value === undefined || value === null ? undefined : String(value);
  };
  // Every setting is checked before anything is built: a bad one fails the synth with one line naming it.
  checkContextSettings(app.node.getAllContext());
  // The broker preset and how the trader logs in (docs/explanation/brokers.md); a bad value fails here with one line.
  const broker = resolveBrokerSetup(
    Object.fromEntries(BROKER_CONTEXT_KEYS.map((name) => [name, context(name)]).filter(([, v]) => v !== undefined)),
  );
  // One set of stacks per broker account (infra/settings/accounts.ts): `-c account=alice` deploys
  // GttGatewayStack-alice and its parts (GttGatewayStack-alice-Orders...).
  const account = accountOf(context('account'));
  const gateway = new GatewayStack(app, gatewayStackName(account), {
    description:
      'gtt-gateway: GTT orders and sessions at a jData broker, as Lambda functions behind an IAM-authorised HTTP API',
    brokerSecretArn: context('brokerSecretArn'),
    alarmEmail: context('alarmEmail'),
    // The exchange algo id is also `-c algoId=` (docs/explanation/compliance.md).
    settings: {
      ...Object.fromEntries(CONTEXT_SETTINGS.map((name) => [name, context(name)])),
      [envName('algoId')]: context(envName('algoId')) ?? context('algoId'),
    },
    broker,
    oauthAppSecretArn: context('oauthAppSecretArn'),
    // Lifecycle events (docs/reference/events.md); the stack checks each value. `egress` and `watcher` (on/off) are read from
    // the context by the stack itself, which validates them with the props that win over them.
    watcherSchedule: context('watcherSchedule'),
    notifyWebhookUrl: context('notifyWebhookUrl'),
    notifyWebhookHeader: context('notifyWebhookHeader'),
    notifyWebhookSecretArn: context('notifyWebhookSecretArn'),
    notifyWebhookFormat: context('notifyWebhookFormat'),
    notifyTelegramChatId: context('notifyTelegramChatId'),
    notifyOn: context('notifyOn'),
  });
  const workflow = new WorkflowExampleStack(app, workflowExampleStackName(account), {
    description: 'gtt-gateway example: a Step Functions workflow and an EventBridge schedule using the functions',
    functions: {
      place: gateway.functions.get('PlaceGTTOrder')!.function,
      placeOco: gateway.functions.get('PlaceOCOOrder')!.function,
      listPending: gateway.functions.get('GetPendingGTTOrder')!.function,
    },
  });
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  const gatewayStacks = [gateway, ...Object.values(gateway.parts)];
  return { app, gateway, gatewayStacks, workflow };
};
