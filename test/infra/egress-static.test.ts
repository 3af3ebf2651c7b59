/**
 * The egress setting (infra/constructs/egress.ts, docs/explanation/egress.md) and its static choices: how the setting is chosen,
 * and with nat-instance (the default) and nat-gateway every function runs in the private subnets of a two-AZ VPC
 * whose only way out is the NAT of its AZ, behind one of two Elastic IPs the stack allocates and prints. Each
 * setting's template is synthesized once per describe block (bundling skipped, as in stacks-*.test.ts).
 */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';

import { FUNCTIONS, OPERATIONS } from '../../functions/manifest/index.js';
import {
  EGRESS_IP_DESCRIPTION,
  type EgressSetting,
  LAMBDA_ENI_ACTIONS,
  resolveEgress,
  VPC_CIDR,
} from '../../infra/constructs/egress.js';
import { costAtRest } from '../../infra/constructs/egress-cost.js';
import { tableActionsOf } from '../../infra/constructs/table-grants.js';
import { GatewayStack } from '../../infra/stacks/gateway-stack.js';
import {
  actionsOf,
  DEFAULT_SESSION_FUNCTIONS,
  egressDoc,
  FORWARDER_FUNCTIONS,
  functionIds,
  getAtt,
  idsOf,
  KILL_SWITCH_FUNCTIONS,
  lambdaRoleIds,
  nagFindings,
  ref,
  routesOf,
  routeTableOf,
  SKIP_BUNDLING,
  type Statement,
  subnetsOfType,
  synth,
  type TemplateJson,
} from '../support/egress-template.js';
import { gatewayTemplate } from '../support/gateway-template.js';

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
      t = gatewayTemplate(built).toJSON() as TemplateJson;
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
      const functions = functionIds(t);
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

    it('reaches DynamoDB through a gateway endpoint on the private route tables, limited to the calls the functions make on their tables', () => {
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
      const instrumentsTable = tables.find((id) => id.startsWith('InstrumentsTable'))!;
      expect(tables).toHaveLength(5);
      // On each table, the union of what the functions (all in the VPC) are granted there (table-grants.ts), one
      // statement a table; test/infra/endpoint-grants.test.ts checks it against each role of the template.
      const granted = tableActionsOf(FUNCTIONS.map((f) => f.grants));
      const ids = {
        idempotencyTable,
        eventsTable,
        controlTable,
        instrumentsTable,
        oauthStateTable: stateTable,
      };
      expect(statements.map((s) => [s.Resource, actionsOf(s).sort()])).toEqual(
        [...granted].map(([table, actions]) => [getAtt(ids[table], 'Arn'), actions]),
      );
      const on = (table: string) => actionsOf(statements.find((s) => JSON.stringify(s.Resource).includes(table))!);
      // The journal of broker writes (the idempotency records, the outbox items).
      expect(on(idempotencyTable).sort()).toEqual([
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
      ]);
      // The control table: the order-rate governor, the kill switch, the session's end and the order leases, and one
      // order by id's read of a lease (BatchGetItem). Without it every order write would fail closed in a VPC.
      expect(on(controlTable).sort()).toEqual([
        'dynamodb:BatchGetItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
      ]);
      // The instruments' copy: the order path's read and write-back, the refresh's bulk load and updates.
      expect(on(instrumentsTable).sort()).toEqual([
        'dynamodb:BatchWriteItem',
        'dynamodb:GetItem',
        'dynamodb:UpdateItem',
      ]);
      // The OAuth function's state table: a code-only callback's attempt is an UpdateItem (without it the daily login
      // fails deployed), beside the conditional puts and deletes.
      expect(on(stateTable).sort()).toEqual(['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
      // The events table: the signal webhook's transaction starts with a ConditionCheck (without it every alert is
      // refused deployed), besides the forwarder's, watcher's, plans', strategies', assistants' and MCP's calls.
      expect(on(eventsTable)).toEqual(
        expect.arrayContaining(['dynamodb:ConditionCheckItem', 'dynamodb:BatchWriteItem']),
      );
      // Secrets Manager goes through the NAT: no interface endpoint (docs/explanation/egress.md).
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
      for (const id of functionIds(t)) {
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
      expect(nagFindings(built)).toEqual([]);
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

    it('costs at rest what docs/explanation/egress.md says', () => {
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
