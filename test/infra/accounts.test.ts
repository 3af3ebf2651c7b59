/**
 * One stack per broker account: `-c account=<name>` synthesises a deployment of its own beside another account's,
 * with distinct stack, export, dashboard and metric namespace names and its own Elastic IPs (the one-IP-per-client
 * rule); without it, the names stay as they were. A bad name fails the synth with one line.
 */
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';

import { buildApp } from '../../infra/stacks/app.js';
import { CONSOLE_FILES_HANDLER } from '../support/egress-template.js';
import { gatewayTemplate } from '../support/gateway-template.js';

const synth = (context: Record<string, unknown>) =>
  buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], watcher: 'off', ...context } }));

type Template_ = ReturnType<Template['toJSON']> & {
  Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
  Outputs: Record<string, { Export?: { Name: string } }>;
};

const facts = (account?: string) => {
  const built = synth(account ? { account } : {});
  const t = gatewayTemplate(built).toJSON() as Template_;
  const resources = Object.values(t.Resources);
  // The gateway's functions (not the CDK's handler of the console's files).
  const env = Object.entries(t.Resources)
    .filter(([id, r]) => r.Type === 'AWS::Lambda::Function' && !CONSOLE_FILES_HANDLER.test(id))
    .map(([, r]) => (r.Properties.Environment as { Variables: Record<string, unknown> }).Variables);
  return {
    stack: built.gateway.stackName,
    workflow: built.workflow.stackName,
    exports: Object.values(t.Outputs).flatMap((o) => (o.Export ? [o.Export.Name] : [])),
    dashboard: resources.find((r) => r.Type === 'AWS::CloudWatch::Dashboard')!.Properties.DashboardName,
    namespaces: new Set(env.map((e) => e.METRIC_NAMESPACE)),
    alarmNamespaces: new Set(
      resources.filter((r) => r.Type === 'AWS::CloudWatch::Alarm').map((r) => r.Properties.Namespace),
    ),
    eips: resources.filter((r) => r.Type === 'AWS::EC2::EIP').length,
    dashboardBody: JSON.stringify(resources.find((r) => r.Type === 'AWS::CloudWatch::Dashboard')!.Properties),
  };
};

describe('one stack per account', () => {
  const alice = facts('alice');
  const bob = facts('bob');
  const plain = facts();

  it('two accounts synthesise side by side with distinct names: stack, example stack, exports, dashboard', () => {
    expect([alice.stack, bob.stack, plain.stack]).toEqual([
      'GttGatewayStack-alice',
      'GttGatewayStack-bob',
      'GttGatewayStack',
    ]);
    expect(alice.workflow).toBe('GttGatewayWorkflowExampleStack-alice');
    expect(alice.exports.length).toBeGreaterThan(5);
    // Our own exports (<stack>-<Operation>-Arn) and CDK's cross-stack ones (<stack>:ExportsOutput...).
    for (const name of alice.exports) expect(name).toMatch(/^GttGatewayStack-alice[-:]/);
    expect(alice.exports.filter((name) => bob.exports.includes(name))).toEqual([]);
    expect(alice.dashboard).toBe('gtt-gateway-GttGatewayStack-alice');
    expect(bob.dashboard).toBe('gtt-gateway-GttGatewayStack-bob');
  });

  it('each writes and reads its own metric namespace; without an account, the default one', () => {
    expect(alice.namespaces).toEqual(new Set(['GttGateway/alice']));
    expect(bob.namespaces).toEqual(new Set(['GttGateway/bob']));
    expect(plain.namespaces).toEqual(new Set([undefined]));
    expect(alice.dashboardBody).toContain('GttGateway/alice');
    expect(alice.dashboardBody).not.toContain('"GttGateway"');
    expect(alice.alarmNamespaces.has('GttGateway/alice')).toBe(true);
    expect(alice.alarmNamespaces.has('GttGateway')).toBe(false);
  });

  it('each account has its own static egress addresses (two Elastic IPs per stack by default)', () => {
    expect(alice.eips).toBe(2);
    expect(bob.eips).toBe(2);
  });

  it.each(['Alice', '1st', 'a_b', 'x'.repeat(25), 'a b'])('-c account=%j fails the synth with one line', (name) => {
    expect(() => synth({ account: name })).toThrow(/-c account=.* must be a short lower-case name/);
  });
});
