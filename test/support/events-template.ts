/**
 * Reading the lifecycle events' parts of a synthesized gateway stack (bundling skipped, egress none unless a test
 * sets it): each function's role statements, resource ids and environments, cdk-nag findings, the dashboard's
 * metric lines.
 */
import { App as CdkApp } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';

import { OPERATIONS } from '../../functions/manifest/index.js';
import { buildApp } from '../../infra/stacks/app.js';
import { nagFindingsOf, type WithGatewayStacks } from './gateway-template.js';

export const synth = (context: Record<string, unknown> = {}) =>
  buildApp(new CdkApp({ context: { 'aws:cdk:bundling-stacks': [], egress: 'none', ...context } }));

export type Res = { Type: string; Properties: Record<string, unknown> };
export type Statement = { Action: string | string[]; Resource: unknown; Effect: string };
export const actions = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
export const ORDER_FUNCTIONS = OPERATIONS.filter((op) => op.lifecycle).map((op) => op.name);

/** Lambda function logical id prefix -> its role's statements. */
export const statementsByFunction = (t: Template): Map<string, Statement[]> => {
  const json = t.toJSON() as { Resources: Record<string, Res> };
  const byRole = new Map<string, Statement[]>();
  for (const r of Object.values(json.Resources)) {
    if (r.Type !== 'AWS::IAM::Policy') continue;
    for (const role of r.Properties.Roles as { Ref: string }[]) {
      byRole.set(role.Ref, [
        ...(byRole.get(role.Ref) ?? []),
        ...(r.Properties.PolicyDocument as { Statement: Statement[] }).Statement,
      ]);
    }
  }
  const result = new Map<string, Statement[]>();
  for (const [id, r] of Object.entries(json.Resources)) {
    if (r.Type !== 'AWS::Lambda::Function') continue;
    const roleId = (r.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    result.set(id.replace(/Function[0-9A-F]{8}$/, ''), byRole.get(roleId) ?? []);
  }
  return result;
};
export const idOf = (t: Template, type: string, prefix: string) =>
  Object.keys(t.findResources(type)).find((id) => id.startsWith(prefix))!;
export const envOf = (t: Template, prefix: string) => {
  const fn = Object.entries(t.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith(prefix))![1] as Res;
  return (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
};
/** cdk-nag's findings on every stack of the gateway (test/support/gateway-template.ts). */
export const nagFindings = (built: WithGatewayStacks) => nagFindingsOf(built.gatewayStacks);

/** Every metric line of the dashboard: graph title, namespace, name, dimension map, statistic. */
export type DashboardMetric = {
  title: string;
  namespace: string;
  name: string;
  dims: Record<string, string>;
  stat: string;
};
export const dashboardMetrics = (t: Template): DashboardMetric[] => {
  const body = (Object.values(t.findResources('AWS::CloudWatch::Dashboard'))[0] as Res).Properties.DashboardBody as {
    'Fn::Join': [string, unknown[]];
  };
  // The only tokens in the body are the region references.
  const text = body['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : 'REGION')).join('');
  const widgets = (JSON.parse(text) as { widgets: { properties: { title: string; metrics?: unknown[][] } }[] }).widgets;
  return widgets.flatMap((w) =>
    (w.properties.metrics ?? []).map((line) => {
      const [namespace, name, ...rest] = line as [string, string, ...unknown[]];
      const options = rest.pop() as { stat: string };
      const dims: Record<string, string> = {};
      for (let i = 0; i < rest.length; i += 2) dims[rest[i] as string] = rest[i + 1] as string;
      return { title: w.properties.title, namespace, name, dims, stat: options.stat };
    }),
  );
};
