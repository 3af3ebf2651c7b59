/**
 * Every stack of the app stays within CloudFormation's limits with room to grow: at most 300 resources (the limit
 * is 500) and 100 outputs (the limit is 200) with every optional part on (the console, each static egress, the
 * watcher, the notification webhook in a chat format, the TOTP renewal, the end-of-day logout, the workflow
 * example). And one `npm run deploy` still deploys every gateway stack, for each broker account: its stack pattern
 * matches each of them and not the workflow example. docs/reference/deploying.md's count of each stack's resources is
 * the synthesized one. Bundling skipped; two synths.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';

import { PROJECT_ROOT } from '../../infra/constructs/gateway-function.js';
import { buildApp } from '../../infra/stacks/app.js';
import { GATEWAY_PARTS } from '../../infra/stacks/gateway-stack.js';

export const MAX_RESOURCES = 300;
export const MAX_OUTPUTS = 100;

/** Every optional part on; the egress is given per synth. */
const EVERYTHING = {
  'aws:cdk:bundling-stacks': [],
  console: 'on',
  watcher: 'on',
  notifyWebhookUrl: 'https://hooks.example.com/gtt',
  notifyWebhookFormat: 'telegram',
  notifyTelegramChatId: '-1001234567890',
  sessionRenewal: 'totp',
  broker: 'shoonya',
  endOfDayLogout: 'on',
  alarmEmail: 'trader@example.com',
};

const countsOf = (context: Record<string, unknown>) => {
  const app = new App({ context });
  const built = buildApp(app);
  const assembly = app.synth();
  return {
    built,
    counts: assembly.stacks.map((stack) => {
      const template = stack.template as { Resources?: object; Outputs?: object };
      return {
        stack: stack.stackName,
        resources: Object.keys(template.Resources ?? {}).length,
        outputs: Object.keys(template.Outputs ?? {}).length,
      };
    }),
  };
};

/** `cdk deploy '<pattern>'`: the CLI's glob, where `*` is any run of characters. */
const matches = (pattern: string, name: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(name);
const deployPattern = () => {
  const scripts = (
    JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  const pattern = /^cdk deploy '([^']+)'$/.exec(scripts.deploy!)?.[1];
  expect(pattern, `npm run deploy is ${scripts.deploy}`).toBeDefined();
  return pattern!;
};

/** The resources a stack holds, as docs/reference/deploying.md's table of the stacks says (its last column). */
const documentedCounts = (): Record<string, number> => {
  const page = readFileSync(join(PROJECT_ROOT, 'docs/reference/deploying.md'), 'utf8');
  const rows = [...page.matchAll(/^\| `(GttGatewayStack[^`]*)` \|.*\| (\d+) \|$/gm)];
  expect(rows.length, 'the table of the stacks in docs/reference/deploying.md').toBe(1 + GATEWAY_PARTS.length);
  return Object.fromEntries(rows.map((row) => [row[1]!, Number(row[2])]));
};

describe('stack limits', () => {
  for (const egress of ['nat-instance', 'nat-gateway']) {
    it(`with every option on and egress ${egress}, each stack has at most ${MAX_RESOURCES} resources and ${MAX_OUTPUTS} outputs`, () => {
      const { built, counts } = countsOf({ ...EVERYTHING, egress });
      // Every part is there (the console's included), and the workflow example.
      expect(counts.map((c) => c.stack).sort()).toEqual(
        [
          'GttGatewayStack',
          ...GATEWAY_PARTS.map((p) => `GttGatewayStack-${p}`),
          'GttGatewayWorkflowExampleStack',
        ].sort(),
      );
      expect(built.gatewayStacks.map((s) => s.stackName)).toEqual([
        'GttGatewayStack',
        ...GATEWAY_PARTS.map((p) => `GttGatewayStack-${p}`),
      ]);
      for (const c of counts) {
        expect(c.resources, `${c.stack}: ${c.resources} resources`).toBeLessThanOrEqual(MAX_RESOURCES);
        expect(c.outputs, `${c.stack}: ${c.outputs} outputs`).toBeLessThanOrEqual(MAX_OUTPUTS);
      }
      // The split is real: no stack holds most of the deployment.
      const total = counts.reduce((sum, c) => sum + c.resources, 0);
      expect(total).toBeGreaterThan(MAX_RESOURCES);
      // docs/reference/deploying.md's table gives each stack's count with every option on (a NAT instance).
      if (egress === 'nat-instance') {
        const documented = documentedCounts();
        const synthesized = Object.fromEntries(
          counts.filter((c) => documented[c.stack] !== undefined).map((c) => [c.stack, c.resources]),
        );
        expect(documented).toEqual(synthesized);
      }
    }, 240_000);
  }

  it("npm run deploy's pattern takes every gateway stack, for each account, and leaves the example out", () => {
    const pattern = deployPattern();
    for (const account of [undefined, 'alice']) {
      const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...(account ? { account } : {}) } });
      const built = buildApp(app);
      const names = built.gatewayStacks.map((s) => s.stackName);
      expect(names).toHaveLength(1 + GATEWAY_PARTS.length);
      for (const name of names) expect(matches(pattern, name), name).toBe(true);
      expect(matches(pattern, built.workflow.stackName)).toBe(false);
      if (account) for (const name of names) expect(name).toContain(`-${account}`);
      // The stage's stack comes after every stack that adds routes.
      const api = built.gateway.parts.Api.dependencies.map((s) => s.stackName);
      expect(api).toEqual(
        expect.arrayContaining([built.gateway.parts.Orders.stackName, built.gateway.parts.Automation.stackName]),
      );
    }
  }, 240_000);
});
