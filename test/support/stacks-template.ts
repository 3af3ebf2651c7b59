/**
 * The default gateway stacks (as one template: test/support/gateway-template.ts) and workflow stack as templates (bundling skipped, the end-of-day logout left out where
 * functions are counted), synthesized once per worker (the infra tests share a process per worker, see
 * vitest.config.ts), and the IAM statement readers the stack tests share.
 */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll } from 'vitest';

import { SESSION_FUNCTIONS } from '../../functions/session/definitions.js';
import { buildApp } from '../../infra/stacks/app.js';
import { gatewayTemplate } from './gateway-template.js';

/** OAuthCallback and SessionHealth; SessionRenewal only with -c sessionRenewal=totp. */
export const SESSION = SESSION_FUNCTIONS.filter((f) => f.name !== 'SessionRenewal' && f.name !== 'SessionLogout');

// Template assertions need no bundles: skip esbuild here (test/infra/synth.test.ts bundles for real).
// The end-of-day logout is left out where functions are counted; test/infra/end-of-day.test.ts covers it.
export const synth = (context: Record<string, unknown> = {}) =>
  buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], endOfDayLogout: 'off', ...context } }));

export let gateway: Template;
export let workflow: Template;
export let built: ReturnType<typeof synth>;

import { CONSOLE_FILES_HANDLER } from './egress-template.js';

export { CONSOLE_FILES_HANDLER };

/** The stack's Lambda functions by logical id, without the CDK's handler of the console's files. */
export const gatewayFunctionsOf = (template: Template): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(template.findResources('AWS::Lambda::Function')).filter(([id]) => !CONSOLE_FILES_HANDLER.test(id)),
  );

export type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };
export const statementsOf = (template: Template): Statement[] =>
  Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
    (policy) =>
      (policy as { Properties: { PolicyDocument: { Statement: Statement[] } } }).Properties.PolicyDocument.Statement,
  );
export const actions = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);

let defaults: { built: typeof built; gateway: Template; workflow: Template } | undefined;

/** The default stacks before the file's tests: synthesized by the worker's first file that asks, then kept. */
export const useDefaultStacks = () => {
  beforeAll(() => {
    if (!defaults) {
      const app = synth();
      defaults = { built: app, gateway: gatewayTemplate(app), workflow: Template.fromStack(app.workflow) };
    }
    ({ built, gateway, workflow } = defaults);
  });
};
