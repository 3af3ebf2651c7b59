/**
 * What the synthesized stacks allow each function, as JSON: every function's role statements, whether it runs in the
 * VPC (its DynamoDB calls then pass the gateway endpoint's policy), its environment's values as the template writes
 * them (so a reader can tell which resource each variable names), the endpoint policies, the resources' types and the
 * stacks' exports. The local stack (local/permissions/) holds every function's AWS calls to it.
 *
 * Synthesized with every optional feature on that adds a function or a permission (the TOTP login, the end-of-day
 * logout, the webhook's formatter, the watcher, the console, the default egress with its VPC), with bundling skipped:
 * the grants do not depend on the bundles. `tsx infra/scripts/stack-permissions.ts <out.json>` writes the file.
 */
import { writeFileSync } from 'node:fs';

import { App, type CfnElement, Stack } from 'aws-cdk-lib';

import { GatewayFunction } from '../constructs/gateway-function.js';
import { buildApp } from '../stacks/app.js';

/** A template fragment as CloudFormation has it (a string, or an intrinsic function). */
export type TemplateValue = unknown;

export interface PolicyStatementJson {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: TemplateValue;
  NotResource?: TemplateValue;
  Principal?: TemplateValue;
  Condition?: Record<string, Record<string, TemplateValue>>;
}

export interface FunctionPermissions {
  /** The stack the function and its role are in. */
  stack: string;
  /** The role's logical id (the principal's name: `arn:aws:iam::<account>:role/<logical id>` here). */
  role: string;
  /** Every statement of the role: its inline policies and the policies attached to it. */
  statements: PolicyStatementJson[];
  /** Whether the function runs in the VPC (through the DynamoDB gateway endpoint). */
  inVpc: boolean;
  /** Its environment as the template has it: which variable names which resource. */
  environment: Record<string, TemplateValue>;
}

export interface StackPermissions {
  /** By manifest name. */
  functions: Record<string, FunctionPermissions>;
  /** The DynamoDB gateway endpoints' policies (the VPC functions' DynamoDB calls pass them). */
  dynamodbEndpointPolicies: { stack: string; statements: PolicyStatementJson[] }[];
  /** Every resource's type, by stack then logical id. */
  resources: Record<string, Record<string, string>>;
  /** The stacks' exports by name: the stack and the value (for Fn::ImportValue). */
  exports: Record<string, { stack: string; value: TemplateValue }>;
  /** The context the stacks were synthesized with. */
  context: Record<string, unknown>;
}

/** Every optional feature that brings a function or a grant of its own. */
export const PERMISSIONS_CONTEXT: Record<string, unknown> = {
  'aws:cdk:bundling-stacks': [],
  sessionRenewal: 'totp',
  notifyWebhookUrl: 'https://hooks.example.com/gtt-gateway',
  notifyWebhookFormat: 'telegram',
  notifyTelegramChatId: '12345',
};

type Template = {
  Resources?: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
  Outputs?: Record<string, { Value: TemplateValue; Export?: { Name: unknown } }>;
};
type PolicyDocument = { Statement?: PolicyStatementJson[] };

const refersTo = (value: unknown, logicalId: string): boolean =>
  JSON.stringify(value) === JSON.stringify({ Ref: logicalId });

export const stackPermissions = (context: Record<string, unknown> = PERMISSIONS_CONTEXT): StackPermissions => {
  const { app } = buildApp(new App({ context }));
  const assembly = app.synth();
  const templates = new Map<string, Template>();
  const templateOf = (stack: Stack): Template => {
    let template = templates.get(stack.stackName);
    if (!template) {
      template = assembly.getStackByName(stack.stackName).template as Template;
      templates.set(stack.stackName, template);
    }
    return template;
  };
  const functions: Record<string, FunctionPermissions> = {};
  for (const construct of app.node.findAll()) {
    if (!(construct instanceof GatewayFunction)) continue;
    const stack = Stack.of(construct);
    const template = templateOf(stack);
    const role = stack.getLogicalId(construct.role.node.defaultChild as CfnElement);
    const fn = template.Resources?.[stack.getLogicalId(construct.function.node.defaultChild as CfnElement)];
    const statements: PolicyStatementJson[] = [];
    for (const resource of Object.values(template.Resources ?? {})) {
      const props = resource.Properties ?? {};
      if (resource.Type === 'AWS::IAM::Policy' && (props.Roles as unknown[]).some((r) => refersTo(r, role)))
        statements.push(...((props.PolicyDocument as PolicyDocument).Statement ?? []));
    }
    for (const inline of (template.Resources?.[role]?.Properties?.Policies ?? []) as {
      PolicyDocument: PolicyDocument;
    }[])
      statements.push(...(inline.PolicyDocument.Statement ?? []));
    const fnProps = fn?.Properties ?? {};
    functions[construct.node.id] = {
      stack: stack.stackName,
      role,
      statements,
      inVpc: fnProps.VpcConfig !== undefined,
      environment: ((fnProps.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ??
        {}) as Record<string, TemplateValue>,
    };
  }
  const resources: StackPermissions['resources'] = {};
  const exports: StackPermissions['exports'] = {};
  const dynamodbEndpointPolicies: StackPermissions['dynamodbEndpointPolicies'] = [];
  for (const artifact of assembly.stacks) {
    const template = artifact.template as Template;
    resources[artifact.stackName] = Object.fromEntries(
      Object.entries(template.Resources ?? {}).map(([id, r]) => [id, r.Type]),
    );
    for (const output of Object.values(template.Outputs ?? {}))
      if (typeof output.Export?.Name === 'string')
        exports[output.Export.Name] = { stack: artifact.stackName, value: output.Value };
    for (const resource of Object.values(template.Resources ?? {})) {
      const props = resource.Properties ?? {};
      if (resource.Type === 'AWS::EC2::VPCEndpoint' && JSON.stringify(props.ServiceName).includes('.dynamodb'))
        dynamodbEndpointPolicies.push({
          stack: artifact.stackName,
          statements: (props.PolicyDocument as PolicyDocument | undefined)?.Statement ?? [],
        });
    }
  }
  return { functions, dynamodbEndpointPolicies, resources, exports, context };
};

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: tsx infra/scripts/stack-permissions.ts <out.json>');
  writeFileSync(out, JSON.stringify(stackPermissions()));
}
