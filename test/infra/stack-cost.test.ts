/**
 * docs/reference/deploying.md's monthly cost per deployment shape, from the template's own counts: each shape is synthesized
 * (bundling skipped) and its functions, alarms, secrets, dashboards, egress and total must be the doc's row.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';

import { costAtRest } from '../../infra/constructs/egress-cost.js';
import { stackCostAtRest } from '../../infra/constructs/stack-cost.js';
import { buildApp } from '../../infra/stacks/app.js';
import { gatewayTemplate } from '../support/gateway-template.js';

const ROOT = join(import.meta.dirname, '..', '..');
const page = (name: string) => readFileSync(join(ROOT, 'docs', name), 'utf8');
const doc = page('reference/deploying.md');

/** Each shape: the row's first cell as the doc writes it, and its context. */
const SHAPES: [string, Record<string, string>][] = [
  ['`-c broker=shoonya` (the default egress, `nat-instance`)', { broker: 'shoonya' }],
  ['`-c egress=nat-gateway`', { broker: 'shoonya', egress: 'nat-gateway' }],
  ['`-c egress=none`', { broker: 'shoonya', egress: 'none' }],
  ['`-c sessionRenewal=totp` (TOTP login)', { broker: 'shoonya', sessionRenewal: 'totp' }],
  ['`-c notifyWebhookUrl=https://...` (webhook)', { broker: 'shoonya', notifyWebhookUrl: 'https://example.com/hook' }],
];

const usd = (n: number) => `$${n.toFixed(2)}`;

/** The doc's row for a shape, as the template says it must read. */
const rowOf = (shape: string, context: Record<string, string>): string => {
  const stacks = buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }));
  const cost = stackCostAtRest(gatewayTemplate(stacks).toJSON());
  const { functions, alarms, secrets, dashboards } = cost.counts;
  const price = (item: string) => cost.lines.find((l) => l.item.startsWith(item))?.monthlyUsd ?? 0;
  return `| ${shape} | ${functions} | ${alarms} (${usd(price('CloudWatch alarm'))}) | ${secrets} (${usd(price('Secrets Manager'))}) | ${dashboards} (${usd(price('CloudWatch dashboard'))}) | ${usd(cost.egressUsd)} | **${usd(cost.monthlyUsd)}** |`;
};

describe("docs/reference/deploying.md's cost at rest, per deployment shape", () => {
  it.each(SHAPES)(
    '%s: the row is the template’s count',
    (shape, context) => {
      const row = rowOf(shape, context);
      const inDoc = doc.split('\n').find((line) => line.startsWith(`| ${shape} |`));
      expect(inDoc, `docs/reference/deploying.md should have the row:\n${row}`).toBe(row);
    },
    120_000,
  );

  it("says how its egress column and docs/explanation/egress.md's figure differ, in the template's numbers", () => {
    const template = gatewayTemplate(
      buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], broker: 'shoonya' } })),
    ).toJSON();
    const egress = costAtRest(template);
    const alarms = egress.lines.filter((line) => line.item.includes('alarm'));
    const alarmCount = alarms.reduce((sum, line) => sum + line.count, 0);
    const alarmUsd = alarms.reduce((sum, line) => sum + line.monthlyUsd, 0);
    const sentence =
      `the default egress is ${usd(stackCostAtRest(template).egressUsd)} here and ${usd(egress.monthlyUsd)} in ` +
      `[static egress](../explanation/egress.md#cost-at-rest), whose figure includes its ${alarmCount} status alarms (${usd(alarmUsd)})`;
    expect(doc.replace(/\s+/g, ' ')).toContain(sentence);
    expect(page('explanation/egress.md')).toContain(`**${usd(egress.monthlyUsd)}** |`);
  }, 120_000);
});
