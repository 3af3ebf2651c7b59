/**
 * What a deployment costs a month at rest (no traffic), counted from its synthesized template: the egress
 * (egress-cost.ts: NAT instances, volumes, NAT gateways, Elastic IPs), every CloudWatch alarm, every Secrets Manager
 * secret (EventBridge keeps a webhook connection's credentials in one too) and the dashboard. Lambda, API Gateway,
 * DynamoDB on demand, EventBridge, Scheduler, SQS and logs are paid per use and are not in it. List prices as
 * egress-cost.ts states them, before free tiers (an account's first 10 alarms and 3 dashboards are free).
 * docs/reference/deploying.md shows the totals per deployment shape; a test synthesizes each shape and keeps them in step.
 */
import { costAtRest, type CostLine, PRICING_ASSUMPTIONS } from './egress-cost.js';

export const STACK_PRICES = {
  ...PRICING_ASSUMPTIONS,
  /** A secret, per month (Secrets Manager). */
  secretMonthUsd: 0.4,
  /** A custom dashboard, per month. */
  dashboardMonthUsd: 3,
} as const;

interface TemplateJson {
  Resources?: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
}

export interface StackCost {
  /** What the template holds, by kind. */
  counts: { functions: number; alarms: number; secrets: number; dashboards: number };
  /** The egress resources other than their alarms (counted with the rest). */
  egressUsd: number;
  lines: CostLine[];
  monthlyUsd: number;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

export const stackCostAtRest = (template: TemplateJson): StackCost => {
  const resources = Object.values(template.Resources ?? {});
  const count = (type: string) => resources.filter((r) => r.Type === type).length;
  const counts = {
    functions: count('AWS::Lambda::Function'),
    alarms: count('AWS::CloudWatch::Alarm'),
    // The stack's secrets, and the one EventBridge makes for a webhook's API destination connection.
    secrets: count('AWS::SecretsManager::Secret') + count('AWS::Events::Connection'),
    dashboards: count('AWS::CloudWatch::Dashboard'),
  };
  const egress = costAtRest(template).lines.filter((line) => !line.item.includes('alarm'));
  const lines: CostLine[] = [
    ...egress,
    {
      item: `CloudWatch alarm ($${STACK_PRICES.alarmMonthUsd}/month)`,
      count: counts.alarms,
      monthlyUsd: round2(counts.alarms * STACK_PRICES.alarmMonthUsd),
    },
    {
      item: `Secrets Manager secret ($${STACK_PRICES.secretMonthUsd}/month)`,
      count: counts.secrets,
      monthlyUsd: round2(counts.secrets * STACK_PRICES.secretMonthUsd),
    },
    {
      item: `CloudWatch dashboard ($${STACK_PRICES.dashboardMonthUsd}/month)`,
      count: counts.dashboards,
      monthlyUsd: round2(counts.dashboards * STACK_PRICES.dashboardMonthUsd),
    },
  ].filter((line) => line.count > 0);
  return {
    counts,
    egressUsd: round2(egress.reduce((sum, line) => sum + line.monthlyUsd, 0)),
    lines,
    monthlyUsd: round2(lines.reduce((sum, line) => sum + line.monthlyUsd, 0)),
  };
};
