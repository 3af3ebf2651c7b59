/**
 * The gateway's stacks read as one template: the gateway stack and the stacks after it (infra/stacks/gateway-stack.ts)
 * with their resources, outputs and parameters side by side, so a test asks about the deployment whatever stack a
 * resource is in. A reference from one stack to another (an `Fn::ImportValue` of the CDK's `ExportsOutput...`
 * export) reads as what the export names, as it would in one stack; the exports themselves are left out of the
 * outputs. Logical ids are unique across the stacks but for the CDK's own (`CDKMetadata`, the bootstrap version
 * parameter).
 */
import { type Stack, Stage } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';

type Json = Record<string, Record<string, unknown> | undefined>;
const SECTIONS = ['Resources', 'Outputs', 'Parameters', 'Conditions', 'Mappings', 'Rules'] as const;

type Output = { Value: unknown; Export?: { Name: string } };
const CDK_EXPORT = /^ExportsOutput/;

const resolveImports = (value: unknown, exported: Map<string, unknown>): unknown => {
  if (Array.isArray(value)) return value.map((v) => resolveImports(v, exported));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value);
  if (entries.length === 1 && entries[0]![0] === 'Fn::ImportValue' && typeof entries[0]![1] === 'string') {
    const name = entries[0]![1];
    if (exported.has(name)) return exported.get(name);
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, resolveImports(v, exported)]));
};

export const mergedTemplate = (stacks: readonly Stack[]): Template => {
  const merged: Record<string, Record<string, unknown>> = {};
  const exported = new Map<string, unknown>();
  for (const stack of stacks) {
    const json = Template.fromStack(stack).toJSON() as Json;
    for (const [id, output] of Object.entries((json.Outputs ?? {}) as Record<string, Output>)) {
      if (!CDK_EXPORT.test(id) || !output.Export) continue;
      exported.set(output.Export.Name, output.Value);
      delete (json.Outputs as Record<string, unknown>)[id];
    }
    for (const section of SECTIONS) if (json[section]) merged[section] = { ...merged[section], ...json[section] };
  }
  return Template.fromJSON(resolveImports(merged, exported) as Record<string, unknown>, {
    skipCyclicalDependenciesCheck: true,
  });
};

/** What buildApp answers (infra/stacks/app.ts): the gateway's stacks, in deploy order. */
export type WithGatewayStacks = { gatewayStacks: readonly Stack[] };

export const gatewayTemplate = (built: WithGatewayStacks): Template => mergedTemplate(built.gatewayStacks);

/**
 * cdk-nag's AwsSolutions errors and warnings on every stack given, `<path>: <finding>`. Read from the app's one
 * synthesis (`Annotations.fromStack` synthesizes the whole app again for each stack it is asked about).
 */
export const nagFindingsOf = (stacks: readonly Stack[]): string[] =>
  stacks.flatMap((stack) =>
    Stage.of(stack)!
      .synth()
      .getStackArtifact(stack.artifactId)
      .messages.filter(
        (m) => (m.level === 'error' || m.level === 'warning') && /AwsSolutions-/.test(String(m.entry.data)),
      )
      .map((m) => `${m.id}: ${String(m.entry.data).slice(0, 160)}`),
  );
