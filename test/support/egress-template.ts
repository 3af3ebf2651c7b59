/**
 * Reading the egress parts of a synthesized gateway stack (bundling and the end-of-day logout left out): the
 * function counts of a default deployment, subnets, route tables and routes, Lambda roles, cdk-nag findings, and
 * docs/explanation/egress.md, whose cost table the tests compare.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { App } from 'aws-cdk-lib';

import { PROJECT_ROOT } from '../../infra/constructs/gateway-function.js';
import { buildApp } from '../../infra/stacks/app.js';
import { nagFindingsOf, type WithGatewayStacks } from './gateway-template.js';

/** OAuthCallback and SessionHealth (SessionRenewal only with -c sessionRenewal=totp), and the GttWatcher. */
export const DEFAULT_SESSION_FUNCTIONS = 3;
/** The kill switch (functions/controls/definition.ts). */
export const KILL_SWITCH_FUNCTIONS = 1;
/**
 * The outbox's EventForwarder, the events history (GET /events) and the plans; the strategies, the signal webhook
 * and the signal worker; the InstrumentRefresh; the assistants and the remote MCP server; the day's limits (Risk);
 * coverage.
 */
export const FORWARDER_FUNCTIONS = 11;

export const SKIP_BUNDLING = { 'aws:cdk:bundling-stacks': [] };
// The end-of-day logout is left out where functions are counted; test/infra/end-of-day.test.ts covers it.
export const synth = (context: Record<string, unknown> = {}) =>
  buildApp(new App({ context: { ...SKIP_BUNDLING, endOfDayLogout: 'off', ...context } }));

export type Resource = { Type: string; Properties: Record<string, unknown>; DependsOn?: string[]; Metadata?: unknown };
export type TemplateJson = {
  Resources: Record<string, Resource>;
  Outputs: Record<string, { Value: unknown; Description?: string }>;
  Parameters?: Record<string, { Type: string; Default?: string }>;
};
export const ref = (id: string) => ({ Ref: id });
export const getAtt = (id: string, attribute: string) => ({ 'Fn::GetAtt': [id, attribute] });
export const idsOf = (template: TemplateJson, type: string) =>
  Object.keys(template.Resources).filter((id) => template.Resources[id]!.Type === type);
export const tagOf = (resource: Resource, key: string) =>
  (resource.Properties.Tags as { Key: string; Value: string }[] | undefined)?.find((t) => t.Key === key)?.Value;
export const subnetsOfType = (template: TemplateJson, type: 'Public' | 'Private') =>
  idsOf(template, 'AWS::EC2::Subnet').filter((id) => tagOf(template.Resources[id]!, 'aws-cdk:subnet-type') === type);
export const routeTableOf = (template: TemplateJson, subnetId: string) =>
  Object.values(template.Resources).find(
    (r) =>
      r.Type === 'AWS::EC2::SubnetRouteTableAssociation' &&
      JSON.stringify(r.Properties.SubnetId) === JSON.stringify(ref(subnetId)),
  )!.Properties.RouteTableId as { Ref: string };
export const routesOf = (template: TemplateJson, routeTable: { Ref: string }) =>
  Object.values(template.Resources).filter(
    (r) => r.Type === 'AWS::EC2::Route' && JSON.stringify(r.Properties.RouteTableId) === JSON.stringify(routeTable),
  );
export type Statement = { Action: string | string[]; Resource: unknown; Sid?: string };
export const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
/**
 * The CDK's own function (and its role, ConsoleFilesRole) that copies the console's files into its bucket (infra/constructs/console.ts):
 * it never calls the broker, so it stays out of the VPC and out of the egress counts.
 */
export const CONSOLE_FILES_HANDLER = /^(CustomCDKBucketDeployment|ConsoleFilesRole)/;
/** The gateway's functions: every Lambda function but the CDK's handler of the console's files. */
export const functionIds = (template: TemplateJson) =>
  idsOf(template, 'AWS::Lambda::Function').filter((id) => !CONSOLE_FILES_HANDLER.test(id));
export const lambdaRoleIds = (template: TemplateJson) =>
  idsOf(template, 'AWS::IAM::Role').filter(
    (id) =>
      !CONSOLE_FILES_HANDLER.test(id) &&
      JSON.stringify(template.Resources[id]!.Properties.AssumeRolePolicyDocument).includes('lambda.amazonaws.com'),
  );
/** cdk-nag's findings on every stack of the gateway (test/support/gateway-template.ts). */
export const nagFindings = (built: WithGatewayStacks) => nagFindingsOf(built.gatewayStacks);
export const egressDoc = readFileSync(join(PROJECT_ROOT, 'docs', 'explanation', 'egress.md'), 'utf8');
