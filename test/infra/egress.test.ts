/**
 * The egress setting (infra/constructs/egress.ts, docs/egress.md): with nat-instance (the default) and nat-gateway every
 * function runs in the private subnets of a two-AZ VPC whose only way out is the NAT of its AZ, behind one of two
 * Elastic IPs the stack allocates and prints; with none the template is today's, without any VPC. Each setting's
 * template is synthesized once per describe block (bundling skipped, as in stacks.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';

import { OPERATIONS } from '../../functions/manifest/index.js';
import {
  EGRESS_IP_DESCRIPTION,
  type EgressSetting,
  LAMBDA_ENI_ACTIONS,
  resolveEgress,
  VPC_CIDR,
} from '../../infra/constructs/egress.js';
import { costAtRest } from '../../infra/constructs/egress-cost.js';
import { PROJECT_ROOT } from '../../infra/constructs/gateway-function.js';
import { buildApp } from '../../infra/stacks/app.js';
import { GatewayStack } from '../../infra/stacks/gateway-stack.js';

/** OAuthCallback and SessionHealth (SessionRenewal only with -c sessionRenewal=totp), and the GttWatcher. */
const DEFAULT_SESSION_FUNCTIONS = 3;
/** The kill switch (functions/manifest/kill-switch.ts). */
const KILL_SWITCH_FUNCTIONS = 1;
/**
 * The outbox's EventForwarder, the events history (GET /events) and the plans; the strategies, the signal webhook
 * and the signal worker.
 */
const FORWARDER_FUNCTIONS = 6;

const SKIP_BUNDLING = { 'aws:cdk:bundling-stacks': [] };
// The end-of-day logout is left out where functions are counted; test/infra/end-of-day.test.ts covers it.
const synth = (context: Record<string, unknown> = {}) =>
  buildApp(new App({ context: { ...SKIP_BUNDLING, endOfDayLogout: 'off', ...context } }));

type Resource = { Type: string; Properties: Record<string, unknown>; DependsOn?: string[]; Metadata?: unknown };
type TemplateJson = {
  Resources: Record<string, Resource>;
  Outputs: Record<string, { Value: unknown; Description?: string }>;
  Parameters?: Record<string, { Type: string; Default?: string }>;
};
const ref = (id: string) => ({ Ref: id });
const getAtt = (id: string, attribute: string) => ({ 'Fn::GetAtt': [id, attribute] });
const idsOf = (template: TemplateJson, type: string) =>
  Object.keys(template.Resources).filter((id) => template.Resources[id]!.Type === type);
const tagOf = (resource: Resource, key: string) =>
  (resource.Properties.Tags as { Key: string; Value: string }[] | undefined)?.find((t) => t.Key === key)?.Value;
const subnetsOfType = (template: TemplateJson, type: 'Public' | 'Private') =>
  idsOf(template, 'AWS::EC2::Subnet').filter((id) => tagOf(template.Resources[id]!, 'aws-cdk:subnet-type') === type);
const routeTableOf = (template: TemplateJson, subnetId: string) =>
  Object.values(template.Resources).find(
    (r) =>
      r.Type === 'AWS::EC2::SubnetRouteTableAssociation' &&
      JSON.stringify(r.Properties.SubnetId) === JSON.stringify(ref(subnetId)),
  )!.Properties.RouteTableId as { Ref: string };
const routesOf = (template: TemplateJson, routeTable: { Ref: string }) =>
  Object.values(template.Resources).filter(
    (r) => r.Type === 'AWS::EC2::Route' && JSON.stringify(r.Properties.RouteTableId) === JSON.stringify(routeTable),
  );
type Statement = { Action: string | string[]; Resource: unknown; Sid?: string };
const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
const lambdaRoleIds = (template: TemplateJson) =>
  idsOf(template, 'AWS::IAM::Role').filter((id) =>
    JSON.stringify(template.Resources[id]!.Properties.AssumeRolePolicyDocument).includes('lambda.amazonaws.com'),
  );
const nagFindings = (stack: GatewayStack) => {
  const annotations = Annotations.fromStack(stack);
  return [
    ...annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
    ...annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')),
  ].map((f) => `${f.id}: ${String(f.entry.data).slice(0, 160)}`);
};
const egressDoc = readFileSync(join(PROJECT_ROOT, 'docs', 'egress.md'), 'utf8');

describe('choosing the setting', () => {
  it('the prop wins over the context, the context over the default nat-instance', () => {
    expect(resolveEgress(undefined, undefined)).toBe('nat-instance');
    expect(resolveEgress(undefined, 'nat-gateway')).toBe('nat-gateway');
    expect(resolveEgress('none', 'nat-gateway')).toBe('none');
    expect(resolveEgress('nat-gateway', 'not-a-setting')).toBe('nat-gateway');
  });

  it('an unknown value fails the synth with the three choices and where the value came from', () => {
    expect(() => synth({ egress: 'nat' })).toThrow(
      /Unknown egress setting "nat" from the CDK context key `egress`.*nat-instance.*nat-gateway.*none/,
    );
    expect(() => synth({ egress: '' })).toThrow(/Unknown egress setting ""/);
    expect(
      () => new GatewayStack(new App({ context: SKIP_BUNDLING }), 'Bad', { egress: 'static' as EgressSetting }),
    ).toThrow(/Unknown egress setting "static" from the GatewayStack prop `egress`/);
  });

  it('the GatewayStack prop overrides the context in a real stack', () => {
    const stack = new GatewayStack(new App({ context: { ...SKIP_BUNDLING, egress: 'nat-gateway' } }), 'PropWins', {
      egress: 'none',
    });
    expect(stack.egress).toBe('none');
    expect(idsOf(Template.fromStack(stack).toJSON() as TemplateJson, 'AWS::EC2::VPC')).toEqual([]);
  });
});

for (const setting of ['nat-instance', 'nat-gateway'] as const) {
  describe(`egress ${setting}`, () => {
    let built: ReturnType<typeof synth>;
    let t: TemplateJson;
    let privateSubnets: string[];
    let publicSubnets: string[];
    let eips: string[];

    beforeAll(() => {
      // nat-instance is the default: build it without any context.
      built = synth(setting === 'nat-instance' ? {} : { egress: setting });
      t = Template.fromStack(built.gateway).toJSON() as TemplateJson;
      privateSubnets = subnetsOfType(t, 'Private');
      publicSubnets = subnetsOfType(t, 'Public');
      eips = idsOf(t, 'AWS::EC2::EIP');
    });

    it(`is the stack's setting${setting === 'nat-instance' ? ' by default' : ''}`, () => {
      expect(built.gateway.egress).toBe(setting);
    });

    it('builds one VPC over two AZs with a public and a private subnet in each', () => {
      expect(idsOf(t, 'AWS::EC2::VPC')).toHaveLength(1);
      expect(t.Resources[idsOf(t, 'AWS::EC2::VPC')[0]!]!.Properties.CidrBlock).toBe(VPC_CIDR);
      expect(privateSubnets).toHaveLength(2);
      expect(publicSubnets).toHaveLength(2);
      const azs = (ids: string[]) => ids.map((id) => JSON.stringify(t.Resources[id]!.Properties.AvailabilityZone));
      expect(new Set(azs(privateSubnets)).size).toBe(2);
      expect(new Set(azs(privateSubnets))).toEqual(new Set(azs(publicSubnets)));
      for (const id of privateSubnets) expect(t.Resources[id]!.Properties.MapPublicIpOnLaunch).toBe(false);
    });

    it('runs every function in the private subnets with a security group: no inbound, outbound TCP 443 and 80 only', () => {
      const functions = idsOf(t, 'AWS::Lambda::Function');
      expect(functions).toHaveLength(
        OPERATIONS.length + DEFAULT_SESSION_FUNCTIONS + KILL_SWITCH_FUNCTIONS + FORWARDER_FUNCTIONS,
      );
      const groups = new Set<string>();
      for (const id of functions) {
        const vpcConfig = t.Resources[id]!.Properties.VpcConfig as {
          SubnetIds: unknown[];
          SecurityGroupIds: { 'Fn::GetAtt': [string, string] }[];
        };
        expect(vpcConfig.SubnetIds).toEqual(privateSubnets.map(ref));
        expect(vpcConfig.SecurityGroupIds).toHaveLength(1);
        groups.add(vpcConfig.SecurityGroupIds[0]!['Fn::GetAtt'][0]);
        expect(JSON.stringify(t.Resources[id]!.Properties)).not.toMatch(/AssociatePublicIpAddress|PublicIp/);
      }
      expect(groups.size).toBe(1);
      const [group] = [...groups];
      const sg = t.Resources[group!]!.Properties;
      expect(sg.SecurityGroupIngress).toBeUndefined();
      expect(sg.SecurityGroupEgress).toEqual([
        expect.objectContaining({ CidrIp: '0.0.0.0/0', IpProtocol: 'tcp', FromPort: 443, ToPort: 443 }),
        expect.objectContaining({ CidrIp: '0.0.0.0/0', IpProtocol: 'tcp', FromPort: 80, ToPort: 80 }),
      ]);
      // Nor is any rule added to it from elsewhere.
      for (const type of ['AWS::EC2::SecurityGroupIngress', 'AWS::EC2::SecurityGroupEgress']) {
        for (const id of idsOf(t, type))
          expect(JSON.stringify(t.Resources[id]!.Properties.GroupId)).not.toContain(group);
      }
    });

    it(`routes 0.0.0.0/0 of each private subnet to the ${setting === 'nat-instance' ? 'NAT instance' : 'NAT gateway'} of its own AZ, and nowhere else`, () => {
      const targetKey = setting === 'nat-instance' ? 'InstanceId' : 'NatGatewayId';
      const targetType = setting === 'nat-instance' ? 'AWS::EC2::Instance' : 'AWS::EC2::NatGateway';
      const targets = new Set<string>();
      for (const subnet of privateSubnets) {
        const routes = routesOf(t, routeTableOf(t, subnet));
        expect(routes).toHaveLength(1);
        const route = routes[0]!.Properties;
        expect(route.DestinationCidrBlock).toBe('0.0.0.0/0');
        expect(Object.keys(route).sort()).toEqual(['DestinationCidrBlock', 'RouteTableId', targetKey].sort());
        const target = (route[targetKey] as { Ref: string }).Ref;
        expect(t.Resources[target]!.Type).toBe(targetType);
        // The NAT sits in the public subnet of the same AZ.
        const natSubnet = (t.Resources[target]!.Properties.SubnetId as { Ref: string }).Ref;
        expect(publicSubnets).toContain(natSubnet);
        expect(t.Resources[natSubnet]!.Properties.AvailabilityZone).toEqual(
          t.Resources[subnet]!.Properties.AvailabilityZone,
        );
        targets.add(target);
      }
      expect(targets.size).toBe(2);
      expect(idsOf(t, targetType)).toHaveLength(2);
    });

    it('allocates exactly two Elastic IPs, one on each NAT', () => {
      expect(eips).toHaveLength(2);
      for (const id of eips) expect(t.Resources[id]!.Properties.Domain).toBe('vpc');
      if (setting === 'nat-instance') {
        const instances = idsOf(t, 'AWS::EC2::Instance');
        expect(eips.map((id) => t.Resources[id]!.Properties.InstanceId)).toEqual(instances.map(ref));
        expect(idsOf(t, 'AWS::EC2::NatGateway')).toEqual([]);
      } else {
        const gateways = idsOf(t, 'AWS::EC2::NatGateway');
        expect(gateways.map((id) => t.Resources[id]!.Properties.AllocationId)).toEqual(
          eips.map((id) => getAtt(id, 'AllocationId')),
        );
        expect(idsOf(t, 'AWS::EC2::Instance')).toEqual([]);
      }
      expect(idsOf(t, 'AWS::EC2::EIPAssociation')).toEqual([]);
    });

    it('prints the two addresses as EgressIp1 and EgressIp2, to register with the broker', () => {
      expect(t.Outputs.EgressIp1).toEqual({ Value: getAtt(eips[0]!, 'PublicIp'), Description: EGRESS_IP_DESCRIPTION });
      expect(t.Outputs.EgressIp2).toEqual({ Value: getAtt(eips[1]!, 'PublicIp'), Description: EGRESS_IP_DESCRIPTION });
      expect(EGRESS_IP_DESCRIPTION).toBe("register these two IPs in your broker's API app (primary and secondary)");
      expect(t.Outputs.EgressSetting!.Value).toMatch(new RegExp(`^${setting}: static egress`));
    });

    it('reaches DynamoDB through a gateway endpoint on the private route tables, limited to the calls the functions make on their two tables', () => {
      const endpoints = idsOf(t, 'AWS::EC2::VPCEndpoint').map((id) => t.Resources[id]!.Properties);
      expect(endpoints).toHaveLength(1);
      const [endpoint] = endpoints;
      expect(endpoint!.VpcEndpointType).toBe('Gateway');
      expect(JSON.stringify(endpoint!.ServiceName)).toContain('.dynamodb');
      expect(endpoint!.RouteTableIds).toEqual(privateSubnets.map((s) => routeTableOf(t, s)));
      const statements = (endpoint!.PolicyDocument as { Statement: Statement[] }).Statement;
      const tables = idsOf(t, 'AWS::DynamoDB::Table');
      const idempotencyTable = tables.find((id) => id.startsWith('IdempotencyTable'))!;
      const stateTable = tables.find((id) => id.startsWith('SessionOAuthStateTable'))!;
      const eventsTable = tables.find((id) => id.startsWith('EventsTable'))!;
      const controlTable = tables.find((id) => id.startsWith('ControlTable'))!;
      expect(tables).toHaveLength(4);
      // The order functions' idempotency calls, and the OAuth function's conditional put and delete of a state:
      // without the second, the OAuth login would be denied at the endpoint in every VPC deployment.
      expect(statements.map((s) => [s.Resource, actionsOf(s).sort()])).toEqual([
        [
          getAtt(idempotencyTable, 'Arn'),
          ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
        ],
        [
          getAtt(eventsTable, 'Arn'),
          [
            'dynamodb:BatchGetItem',
            'dynamodb:BatchWriteItem',
            'dynamodb:DeleteItem',
            'dynamodb:GetItem',
            'dynamodb:PutItem',
            'dynamodb:Query',
            'dynamodb:UpdateItem',
          ],
        ],
        // The order-rate governor (and the kill switch's UpdateItem): without it every order write would fail closed in a VPC deployment.
        [getAtt(controlTable, 'Arn'), ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']],
        [getAtt(stateTable, 'Arn'), ['dynamodb:DeleteItem', 'dynamodb:PutItem']],
      ]);
      // Secrets Manager goes through the NAT: no interface endpoint (docs/egress.md).
      expect(endpoints.filter((e) => e.VpcEndpointType === 'Interface')).toEqual([]);
    });

    it('gives each function role the ENI actions inline, with no managed policy', () => {
      const roles = lambdaRoleIds(t);
      expect(roles).toHaveLength(
        OPERATIONS.length + DEFAULT_SESSION_FUNCTIONS + KILL_SWITCH_FUNCTIONS + FORWARDER_FUNCTIONS,
      );
      for (const id of roles) expect(t.Resources[id]!.Properties.ManagedPolicyArns).toBeUndefined();
      const policies = idsOf(t, 'AWS::IAM::Policy').filter((id) =>
        (t.Resources[id]!.Properties.Roles as { Ref: string }[]).some((r) => roles.includes(r.Ref)),
      );
      expect(policies).toHaveLength(
        OPERATIONS.length + DEFAULT_SESSION_FUNCTIONS + KILL_SWITCH_FUNCTIONS + FORWARDER_FUNCTIONS,
      );
      for (const id of policies) {
        const statements = (t.Resources[id]!.Properties.PolicyDocument as { Statement: Statement[] }).Statement;
        const eni = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('ec2:')));
        expect(eni).toHaveLength(1);
        expect(actionsOf(eni[0]!).sort()).toEqual([...LAMBDA_ENI_ACTIONS].sort());
      }
      // Lambda checks the ENI permissions when it creates the function: the policy must exist first.
      for (const id of idsOf(t, 'AWS::Lambda::Function')) {
        const role = (t.Resources[id]!.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
        const policy = policies.find((p) => (t.Resources[p]!.Properties.Roles as { Ref: string }[])[0]!.Ref === role);
        expect(t.Resources[id]!.DependsOn).toContain(policy);
      }
    });

    it('logs the VPC flows to a log group kept 30 days', () => {
      const flowLogs = idsOf(t, 'AWS::EC2::FlowLog').map((id) => t.Resources[id]!.Properties);
      expect(flowLogs).toEqual([
        expect.objectContaining({
          ResourceId: ref(idsOf(t, 'AWS::EC2::VPC')[0]!),
          ResourceType: 'VPC',
          TrafficType: 'ALL',
          LogDestinationType: 'cloud-watch-logs',
        }),
      ]);
      const group = (flowLogs[0]!.LogGroupName as { Ref: string }).Ref;
      expect(t.Resources[group]!.Properties.RetentionInDays).toBe(30);
    });

    if (setting === 'nat-instance') {
      it('runs two t4g.nano NAT instances on the Amazon Linux 2023 arm64 image, found without an account', () => {
        const instances = idsOf(t, 'AWS::EC2::Instance').map((id) => t.Resources[id]!.Properties);
        expect(instances).toHaveLength(2);
        for (const instance of instances) {
          expect(instance).toMatchObject({
            InstanceType: 't4g.nano',
            SourceDestCheck: false,
            CreditSpecification: { CPUCredits: 'standard' },
            MetadataOptions: { HttpTokens: 'required' },
            BlockDeviceMappings: [
              { DeviceName: '/dev/xvda', Ebs: { Encrypted: true, VolumeType: 'gp3', VolumeSize: 8 } },
            ],
          });
          expect(instance.AssociatePublicIpAddress).toBeUndefined();
          // The image is a public SSM parameter resolved by CloudFormation, not a context lookup.
          const parameter = t.Parameters![(instance.ImageId as { Ref: string }).Ref]!;
          expect(parameter.Type).toBe('AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>');
          expect(parameter.Default).toMatch(/^\/aws\/service\/ami-amazon-linux-latest\/al2023-ami-.*arm64$/);
          const userData = JSON.stringify(instance.UserData);
          expect(userData).toContain('MASQUERADE');
          expect(userData).toContain('net.ipv4.ip_forward=1');
        }
        expect(built.app.synth().manifest.missing).toBeUndefined();
      });

      it("accepts at the NAT instances' security group only HTTPS and HTTP from the VPC", () => {
        const groups = new Set(
          idsOf(t, 'AWS::EC2::Instance').flatMap((id) =>
            (t.Resources[id]!.Properties.SecurityGroupIds as { 'Fn::GetAtt': [string] }[]).map(
              (g) => g['Fn::GetAtt'][0],
            ),
          ),
        );
        expect(groups.size).toBe(1);
        const sg = t.Resources[[...groups][0]!]!.Properties;
        expect(sg.SecurityGroupIngress).toEqual([
          expect.objectContaining({ CidrIp: VPC_CIDR, IpProtocol: 'tcp', FromPort: 443, ToPort: 443 }),
          expect.objectContaining({ CidrIp: VPC_CIDR, IpProtocol: 'tcp', FromPort: 80, ToPort: 80 }),
        ]);
        for (const id of idsOf(t, 'AWS::EC2::SecurityGroupIngress'))
          expect(JSON.stringify(t.Resources[id]!.Properties.GroupId)).not.toContain([...groups][0]);
      });

      it('recovers (host failure) or reboots (hung system) a NAT instance, and tells the alarm topic', () => {
        const alarms = idsOf(t, 'AWS::CloudWatch::Alarm')
          .map((id) => t.Resources[id]!.Properties)
          .filter((a) => a.Namespace === 'AWS/EC2');
        expect(alarms.map((a) => a.MetricName).sort()).toEqual([
          'StatusCheckFailed_Instance',
          'StatusCheckFailed_Instance',
          'StatusCheckFailed_System',
          'StatusCheckFailed_System',
        ]);
        for (const alarm of alarms) {
          const actions = JSON.stringify(alarm.AlarmActions);
          expect(actions).toContain(alarm.MetricName === 'StatusCheckFailed_System' ? ':ec2:recover' : ':ec2:reboot');
          expect(actions).toContain('AlarmTopic');
        }
      });
    }

    it('cdk-nag reports no unsuppressed error or warning, and each NAT instance suppression is the expected one', () => {
      expect(nagFindings(built.gateway)).toEqual([]);
      const suppressed = Object.values(t.Resources).flatMap((r) =>
        r.Type.startsWith('AWS::EC2::')
          ? ((r.Metadata as { cdk_nag?: { rules_to_suppress: { id: string; reason: string }[] } } | undefined)?.cdk_nag
              ?.rules_to_suppress ?? [])
          : [],
      );
      expect(suppressed.map((s) => s.id).sort()).toEqual(
        setting === 'nat-instance'
          ? ['AwsSolutions-EC28', 'AwsSolutions-EC28', 'AwsSolutions-EC29', 'AwsSolutions-EC29']
          : [],
      );
      for (const s of suppressed) expect(s.reason.length).toBeGreaterThan(60);
    });

    it('costs at rest what docs/egress.md says', () => {
      const cost = costAtRest(t);
      const expected =
        setting === 'nat-instance' ? { 't4g.nano': 2, eips: 2, gateways: 0 } : { 't4g.nano': 0, eips: 2, gateways: 2 };
      expect(cost.lines.find((l) => l.item.startsWith('t4g.nano'))?.count ?? 0).toBe(expected['t4g.nano']);
      expect(cost.lines.find((l) => l.item.startsWith('Elastic IP'))?.count).toBe(expected.eips);
      expect(cost.lines.find((l) => l.item.startsWith('NAT gateway'))?.count ?? 0).toBe(expected.gateways);
      expect(egressDoc).toMatch(
        new RegExp(`\\| \`${setting}\` \\|.*\\| \\*\\*\\$${cost.monthlyUsd.toFixed(2)}\\*\\* \\|`),
      );
    });
  });
}

describe('egress none', () => {
  let built: ReturnType<typeof synth>;
  let none: TemplateJson;
  let natInstance: TemplateJson;
  const N = OPERATIONS.length;
  /** The session functions of a default deployment (OAuth, health) and their extra parts. */
  const S = DEFAULT_SESSION_FUNCTIONS;
  const K = KILL_SWITCH_FUNCTIONS;
  const F = FORWARDER_FUNCTIONS;

  beforeAll(() => {
    built = synth({ egress: 'none' });
    none = Template.fromStack(built.gateway).toJSON() as TemplateJson;
    natInstance = Template.fromStack(synth().gateway).toJSON() as TemplateJson;
  });

  it('has no VPC, no EC2 resource at all, and functions without VpcConfig or ENI permissions', () => {
    expect(built.gateway.egress).toBe('none');
    expect(Object.values(none.Resources).filter((r) => r.Type.startsWith('AWS::EC2::'))).toEqual([]);
    for (const id of idsOf(none, 'AWS::Lambda::Function'))
      expect(none.Resources[id]!.Properties.VpcConfig).toBeUndefined();
    expect(JSON.stringify(none.Resources)).not.toMatch(/"ec2:|AssociatePublicIpAddress/);
  });

  it("is the template without a VPC: today's resource types and counts", () => {
    const counts: Record<string, number> = {};
    for (const r of Object.values(none.Resources)) counts[r.Type] = (counts[r.Type] ?? 0) + 1;
    expect(counts).toEqual({
      // Session secret + the OAuth app's; idempotency, OAuth state, events and control tables.
      'AWS::SecretsManager::Secret': 2,
      'AWS::DynamoDB::Table': 4,
      // The lifecycle events: the bus, its 30-day archive and the dashboard.
      'AWS::Events::EventBus': 1,
      'AWS::Events::Archive': 1,
      'AWS::CloudWatch::Dashboard': 1,
      // Plus the kill switch's (K) and the EventForwarder's (F).
      'AWS::Logs::LogGroup': N + S + K + F + 1,
      'AWS::ApiGatewayV2::Api': 1,
      'AWS::ApiGatewayV2::Stage': 1,
      // The OAuth function serves two routes, the health check one (GET /session), the kill switch three.
      // ... GET /events one, the plans four, the strategies five, the signal webhook one.
      'AWS::ApiGatewayV2::Integration': N + 3 + 3 + 1 + 4 + 5 + 1,
      'AWS::ApiGatewayV2::Route': N + 3 + 3 + 1 + 4 + 5 + 1,
      'AWS::Lambda::Permission': N + 3 + 3 + 1 + 4 + 5 + 1,
      'AWS::SNS::Topic': 1,
      'AWS::SNS::TopicPolicy': 1,
      // Plus the scheduler roles (health check, watcher) and the audit archive's (Firehose, CloudWatch Logs), with their policies.
      'AWS::IAM::Role': N + S + K + F + 2 + 2,
      'AWS::IAM::Policy': N + S + K + F + 2 + 2,
      // The audit archive: the locked bucket (and its TLS-only policy), the stream, one subscription per log group
      // with audit records (the order functions, the kill switch, the OAuth callback).
      'AWS::S3::Bucket': 1,
      'AWS::S3::BucketPolicy': 1,
      'AWS::KinesisFirehose::DeliveryStream': 1,
      // ... and the signal worker.
      'AWS::Logs::SubscriptionFilter': OPERATIONS.filter((op) => op.kind === 'order').length + K + 1 + 1,
      'AWS::Lambda::Function': N + S + K + F,
      // The EventForwarder's trigger: the idempotency table's stream; the SignalWorker's: the signal queue.
      'AWS::Lambda::EventSourceMapping': 2,
      // The signal queue and its dead letters, each with its TLS-only policy.
      'AWS::SQS::Queue': 2,
      'AWS::SQS::QueuePolicy': 2,
      'AWS::Scheduler::Schedule': 2,
      // Errors and throttles per operation, API 5xx, errors per session function, the watcher, the kill switch and
      // the EventForwarder, SessionAlive.
      // ... and a signal in the dead-letter queue.
      'AWS::CloudWatch::Alarm': 2 * N + 1 + S + K + F + 1 + 1,
    });
  });

  it('a static egress only adds: every resource of none keeps its logical id and, but for the VPC wiring, its properties', () => {
    const strip = (id: string, r: Resource) => {
      const properties = structuredClone(r.Properties);
      if (r.Type === 'AWS::Lambda::Function') delete properties.VpcConfig;
      if (r.Type === 'AWS::IAM::Role') delete properties.Description;
      if (r.Type === 'AWS::IAM::Policy') {
        const document = properties.PolicyDocument as { Statement: Statement[] };
        document.Statement = document.Statement.filter((s) => s.Sid !== 'VpcNetworkInterfaces');
      }
      return { id, Type: r.Type, Properties: properties };
    };
    for (const [id, resource] of Object.entries(none.Resources)) {
      expect(natInstance.Resources[id], id).toBeDefined();
      expect(strip(id, natInstance.Resources[id]!)).toEqual(strip(id, resource));
    }
    // What nat-instance adds lives under the Egress construct.
    const added = Object.keys(natInstance.Resources).filter((id) => !(id in none.Resources));
    expect(added.length).toBeGreaterThan(0);
    for (const id of added) expect(id).toMatch(/^Egress/);
  });

  it('says in an output that there is no static egress, and prints no EgressIp', () => {
    expect(none.Outputs.EgressIp1).toBeUndefined();
    expect(none.Outputs.EgressIp2).toBeUndefined();
    expect(none.Outputs.EgressSetting!.Value).toMatch(/^none: no static egress IP/);
    const today = Object.keys(none.Outputs).filter((o) => o !== 'EgressSetting');
    expect(today).toEqual(Object.keys(natInstance.Outputs).filter((o) => !/^Egress/.test(o)));
  });

  it('cdk-nag reports no unsuppressed error or warning', () => {
    expect(nagFindings(built.gateway)).toEqual([]);
  });

  it('costs nothing at rest for egress, as docs/egress.md says', () => {
    expect(costAtRest(none)).toEqual({ lines: [], monthlyUsd: 0 });
    expect(egressDoc).toMatch(/\| `none` \|.*\| \*\*\$0\.00\*\* \|/);
  });
});
