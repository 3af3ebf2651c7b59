/**
 * A deploy rehearsal, offline: the app synthesized for every deployment shape docs/reference/deploying.md documents (the
 * table below is the page's "Deploy rehearsal" table, row for row), and every template of each checked as
 * CloudFormation would check it before creating anything: each resource type exists in CloudFormation's published
 * resource specification (`@aws-cdk/aws-service-spec`, test/support/cfn-spec.ts), each property it sets is one of
 * that type's with a value of the property's type, no required property is missing; and cdk-nag's AWS Solutions
 * checks leave no unsuppressed error or warning on any stack.
 *
 * Time: bundling is skipped (`aws:cdk:bundling-stacks: []`), so each shape is one synth of the whole app, 2 to 5 s
 * after the first (about 30 s: the modules load, the specification loads once); measured 69 s for the file on the
 * shared 2-core machine (December 2026), more under load. Each shape has its own test with a generous timeout.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';

import { PROJECT_ROOT } from '../../infra/constructs/gateway-function.js';
import { buildApp } from '../../infra/stacks/app.js';
import { specProblems } from '../support/cfn-spec.js';
import { nagFindingsOf } from '../support/gateway-template.js';

/** Each documented shape: the `-c` settings as docs/reference/deploying.md writes them, and the context they are. */
export const REHEARSAL: readonly { shape: string; context: Record<string, string> }[] = [
  { shape: '(defaults)', context: {} },
  { shape: '-c broker=shoonya', context: { broker: 'shoonya' } },
  { shape: '-c broker=zebu', context: { broker: 'zebu' } },
  { shape: '-c broker=flattrade', context: { broker: 'flattrade' } },
  { shape: '-c broker=tradesmart', context: { broker: 'tradesmart' } },
  { shape: '-c broker=custom', context: { broker: 'custom' } },
  { shape: '-c egress=nat-gateway', context: { egress: 'nat-gateway' } },
  { shape: '-c egress=none', context: { egress: 'none' } },
  { shape: '-c sessionRenewal=totp', context: { sessionRenewal: 'totp' } },
  {
    shape: '-c notifyWebhookUrl=https://... -c notifyWebhookFormat=slack',
    context: { notifyWebhookUrl: 'https://hooks.example.com/gtt', notifyWebhookFormat: 'slack' },
  },
  {
    shape: '-c console=off -c watcher=off -c endOfDayLogout=off',
    context: { console: 'off', watcher: 'off', endOfDayLogout: 'off' },
  },
  { shape: '-c account=alice', context: { account: 'alice' } },
];

const synthAll = (context: Record<string, string>) => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const built = buildApp(app);
  return { built, assembly: app.synth() };
};

describe('deploy rehearsal', () => {
  it("docs/reference/deploying.md's rehearsal table lists exactly these shapes", () => {
    const page = readFileSync(join(PROJECT_ROOT, 'docs', 'reference', 'deploying.md'), 'utf8');
    const section = page.slice(page.indexOf('**Deploy rehearsal**'));
    const rows = [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    expect(rows).toEqual(REHEARSAL.map((r) => r.shape));
  });

  for (const { shape, context } of REHEARSAL) {
    it(`${shape}: every template fits CloudFormation's resource specification, and cdk-nag has nothing to say`, () => {
      const { built, assembly } = synthAll(context);
      expect(assembly.stacks.length).toBeGreaterThanOrEqual(5);
      for (const stack of assembly.stacks) {
        expect(specProblems(stack.template as never), stack.stackName).toEqual([]);
      }
      expect(nagFindingsOf([...built.gatewayStacks, built.workflow])).toEqual([]);
    }, 300_000);
  }
});
