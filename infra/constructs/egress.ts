/**
 * Static outbound addresses for the functions. Since 1 April 2026 Indian brokers reject API orders that do not come
 * from an IP registered with the broker (a primary and a secondary per API app), and Lambda has no fixed outbound
 * address. With a static setting every function runs in the private subnets of a two-AZ VPC whose only way out is a
 * NAT (an EC2 instance or a managed NAT gateway) with one Elastic IP per AZ: those two addresses are what the broker
 * sees (docs/explanation/egress.md).
 *
 * - `nat-instance` (default): two t4g.nano NAT instances (Amazon Linux 2023, arm64), one Elastic IP each.
 * - `nat-gateway`: two managed NAT gateways, one Elastic IP each.
 * - `none`: no VPC; the functions keep Lambda's shared egress (no static IP), exactly as before this setting existed.
 *
 * DynamoDB is reached through a gateway endpoint (free, stays inside AWS); Secrets Manager and the broker
 * through the NAT. The synth makes no account lookup: the NAT image is the public Amazon Linux 2023 SSM parameter,
 * resolved by CloudFormation at deploy time.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { Ec2Action, Ec2InstanceAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

export const EGRESS_SETTINGS = ['nat-instance', 'nat-gateway', 'none'] as const;
export type EgressSetting = (typeof EGRESS_SETTINGS)[number];
export type StaticEgressSetting = Exclude<EgressSetting, 'none'>;
export const DEFAULT_EGRESS: EgressSetting = 'nat-instance';
/** The CDK context key (`-c egress=nat-gateway`); a GatewayStack prop of the same name wins over it. */
export const EGRESS_CONTEXT_KEY = 'egress';

/** The prop if given, else the context value, else the default; anything else fails the synth with the choices. */
export const resolveEgress = (prop: unknown, context: unknown): EgressSetting => {
  const [value, source] =
    prop !== undefined && prop !== null
      ? [prop, 'the GatewayStack prop `egress`']
      : context !== undefined && context !== null
        ? [context, `the CDK context key \`${EGRESS_CONTEXT_KEY}\` (-c ${EGRESS_CONTEXT_KEY}=... or cdk.json)`]
        : [DEFAULT_EGRESS, 'the default'];
  if (typeof value === 'string' && (EGRESS_SETTINGS as readonly string[]).includes(value))
    return value as EgressSetting;
  throw new Error(
    `Unknown egress setting ${JSON.stringify(value)} from ${source}. ` +
      `Use one of: nat-instance (default: two NAT instances, two static IPs), nat-gateway (two managed NAT gateways, two static IPs), ` +
      `none (no VPC, no static IP). Example: npx cdk deploy -c ${EGRESS_CONTEXT_KEY}=nat-gateway`,
  );
};

/** The VPC's address range; the NAT instances accept traffic only from it. */
export const VPC_CIDR = '10.40.0.0/16';
export const NAT_INSTANCE_TYPE = ec2.InstanceType.of(ec2.InstanceClass.T4G, ec2.InstanceSize.NANO);
/** Root volume of a NAT instance: the size of the Amazon Linux 2023 image, gp3, encrypted. */
export const NAT_ROOT_VOLUME_GIB = 8;
/**
 * What the functions may open, and so what the NAT instances accept from the VPC: HTTPS (broker, Secrets Manager,
 * DynamoDB) and HTTP (BrokerBaseUrl may be http://, e.g. a broker sandbox; drop 80 if yours is https).
 */
export const FUNCTION_EGRESS_PORTS = [443, 80] as const;
/** The ENI actions of AWSLambdaVPCAccessExecutionRole, granted inline (the roles carry no managed policy). */
export const LAMBDA_ENI_ACTIONS = [
  'ec2:CreateNetworkInterface',
  'ec2:DescribeNetworkInterfaces',
  'ec2:DescribeSubnets',
  'ec2:DeleteNetworkInterface',
  'ec2:AssignPrivateIpAddresses',
  'ec2:UnassignPrivateIpAddresses',
];
export const EGRESS_IP_DESCRIPTION = "register these two IPs in your broker's API app (primary and secondary)";

/**
 * The NAT set-up of Amazon Linux 2023 (as CDK's NatInstanceProviderV2 does it), with two changes: the package
 * install is retried, because the Elastic IP replaces the launch-time public IP while the first boot may still be
 * downloading; and the outbound interface comes from `ip route` (iproute2 is always installed, net-tools is not).
 */
export const NAT_USER_DATA_COMMANDS = [
  'for attempt in $(seq 1 20); do dnf install -y iptables-services && break; echo "dnf install failed (attempt $attempt), retrying"; sleep 15; done',
  'systemctl enable --now iptables',
  'echo "net.ipv4.ip_forward=1" > /etc/sysctl.d/90-nat.conf',
  'sysctl -p /etc/sysctl.d/90-nat.conf',
  'iptables -t nat -A POSTROUTING -o "$(ip route show default | awk \'{print $5; exit}\')" -j MASQUERADE',
  'iptables -F FORWARD',
  'service iptables save',
];

export interface StaticEgressProps {
  setting: StaticEgressSetting;
  /** Where NAT instance status alarms go (the stack's alarm topic). */
  alarmAction: cloudwatch.IAlarmAction;
}

export class StaticEgress extends Construct {
  readonly setting: StaticEgressSetting;
  readonly vpc: ec2.Vpc;
  /** Where the functions run: the private subnets, whose default route is the NAT of their AZ. */
  readonly functionSubnets: ec2.SubnetSelection = { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS };
  /** The functions' security group: no inbound rule, outbound TCP 443 and 80 only. */
  readonly functionSecurityGroup: ec2.SecurityGroup;
  /** The two static addresses, AZ 1 then AZ 2 (primary, secondary). */
  readonly addresses: ec2.CfnEIP[];
  /** The NAT instances (nat-instance only), AZ 1 then AZ 2. */
  readonly natInstances: ec2.Instance[] = [];
  readonly dynamoDbEndpoint: ec2.GatewayVpcEndpoint;
  readonly flowLogGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: StaticEgressProps) {
    super(scope, id);
    this.setting = props.setting;

    let natGatewayProvider: ec2.NatProvider;
    let natInstanceProvider: ec2.NatInstanceProviderV2 | undefined;
    if (props.setting === 'nat-gateway') {
      // Allocated here (not by the provider) so the addresses are this stack's resources and its outputs.
      this.addresses = [1, 2].map((n) => this.elasticIp(`NatGatewayIp${n}`, n));
      natGatewayProvider = ec2.NatProvider.gateway({
        eipAllocationIds: this.addresses.map((eip) => eip.attrAllocationId),
      });
    } else {
      const userData = ec2.UserData.forLinux();
      userData.addCommands(...NAT_USER_DATA_COMMANDS);
      natInstanceProvider = ec2.NatProvider.instanceV2({
        instanceType: NAT_INSTANCE_TYPE,
        // An SSM parameter of the template (AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>), not a context
        // lookup: synth needs no account. Each deploy takes the newest image (see docs/explanation/egress.md, ops notes).
        machineImage: ec2.MachineImage.latestAmazonLinux2023({ cpuType: ec2.AmazonLinuxCpuType.ARM_64 }),
        // Inbound is opened below to the VPC only; the provider would otherwise allow all traffic from anywhere.
        defaultAllowedTraffic: ec2.NatTrafficDirection.OUTBOUND_ONLY,
        // Standard credits: an idle NAT stays far below the baseline, and no surplus-credit charge can appear.
        creditSpecification: ec2.CpuCredits.STANDARD,
        userData,
      });
      natGatewayProvider = natInstanceProvider;
      this.addresses = [];
    }

    this.flowLogGroup = new logs.LogGroup(this, 'FlowLogs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.vpc = new ec2.Vpc(this, 'Vpc', {
      ipAddresses: ec2.IpAddresses.cidr(VPC_CIDR),
      maxAzs: 2,
      natGateways: 2,
      natGatewayProvider,
      subnetConfiguration: [
        { name: 'Public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 },
        { name: 'Private', subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 24 },
      ],
      // Nothing uses the default security group; closing it would need a custom-resource Lambda of its own.
      restrictDefaultSecurityGroup: false,
      flowLogs: {
        All: {
          destination: ec2.FlowLogDestination.toCloudWatchLogs(this.flowLogGroup),
          trafficType: ec2.FlowLogTrafficType.ALL,
        },
      },
    });

    if (natInstanceProvider) {
      // Only what the functions may send, only from this VPC.
      for (const port of FUNCTION_EGRESS_PORTS) {
        natInstanceProvider.securityGroup.addIngressRule(
          ec2.Peer.ipv4(VPC_CIDR),
          ec2.Port.tcp(port),
          `TCP ${port} from the functions in this VPC`,
        );
      }
      this.natInstances.push(...natInstanceProvider.gatewayInstances);
      // The public subnets' routes to the internet gateway (which wait for its attachment): the first boot downloads
      // iptables-services, and an Elastic IP of a VPC must wait for the gateway attachment.
      const publicInternet = this.vpc.selectSubnets({
        subnetType: ec2.SubnetType.PUBLIC,
      }).internetConnectivityEstablished;
      this.addresses = this.natInstances.map((instance, i) => {
        this.hardenNatInstance(instance);
        instance.node.addDependency(publicInternet);
        // InstanceId on the EIP itself: when CloudFormation replaces the instance it re-associates this same
        // address with the new one (an update of the EIP, not a new allocation), so the registered IP survives.
        const eip = this.elasticIp(`NatInstanceIp${i + 1}`, i + 1, instance.instanceId);
        eip.node.addDependency(publicInternet);
        this.addStatusAlarms(instance, i + 1, props.alarmAction);
        return eip;
      });
      // The private subnets' default routes move to a (replacement) instance only after its address did, so the
      // functions never leave from an instance's temporary launch-time IP, which the broker does not know.
      for (const subnet of this.vpc.privateSubnets)
        subnet.node.findChild('DefaultRoute').node.addDependency(...this.addresses);
    }

    this.functionSecurityGroup = new ec2.SecurityGroup(this, 'FunctionSecurityGroup', {
      vpc: this.vpc,
      description: `gtt-gateway functions: no inbound; outbound TCP ${FUNCTION_EGRESS_PORTS.join(' and ')} only (broker, AWS APIs through the NAT or the DynamoDB endpoint)`,
      allowAllOutbound: false,
    });
    for (const port of FUNCTION_EGRESS_PORTS) {
      this.functionSecurityGroup.addEgressRule(
        ec2.Peer.anyIpv4(),
        ec2.Port.tcp(port),
        `TCP ${port} out (through the NAT of the AZ)`,
      );
    }

    this.dynamoDbEndpoint = this.vpc.addGatewayEndpoint('DynamoDb', {
      service: ec2.GatewayVpcEndpointAwsService.DYNAMODB,
      subnets: [this.functionSubnets],
    });
    // Its policy is the stack's: `allowTableCalls` for each table, with what the functions in the VPC are granted there.

    this.suppressNagFindings();
  }

  /**
   * Let the functions make these calls on a table of the stack through the DynamoDB endpoint. A gateway endpoint
   * carries every DynamoDB call from the private subnets, so a table or an action missing from its policy is denied
   * whatever the role allows: the stack passes the union of the grants of the functions in the VPC
   * (table-grants.ts `tableActionsOf`), never a list of its own.
   */
  allowTableCalls(table: dynamodb.ITable, actions: readonly string[]): void {
    this.dynamoDbEndpoint.addToPolicy(
      new iam.PolicyStatement({
        principals: [new iam.AnyPrincipal()],
        actions: [...actions],
        resources: [table.tableArn],
      }),
    );
  }

  private elasticIp(id: string, n: number, instanceId?: string): ec2.CfnEIP {
    return new ec2.CfnEIP(this, id, {
      domain: 'vpc',
      ...(instanceId ? { instanceId } : {}),
      tags: [{ key: 'Name', value: `gtt-gateway egress ${n} (${n === 1 ? 'primary' : 'secondary'} broker IP)` }],
    });
  }

  /** An encrypted gp3 root volume and IMDSv2 only; the provider exposes neither, so they are set on the L1. */
  private hardenNatInstance(instance: ec2.Instance): void {
    instance.instance.blockDeviceMappings = [
      {
        deviceName: '/dev/xvda',
        ebs: { volumeSize: NAT_ROOT_VOLUME_GIB, volumeType: 'gp3', encrypted: true, deleteOnTermination: true },
      },
    ];
    instance.instance.metadataOptions = { httpTokens: 'required', httpEndpoint: 'enabled', httpPutResponseHopLimit: 1 };
  }

  /** Host failure: EC2 recovers the instance (same id, private IP and Elastic IP). Hung OS: reboot. Both notify. */
  private addStatusAlarms(instance: ec2.Instance, n: number, alarmAction: cloudwatch.IAlarmAction): void {
    const metric = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/EC2',
        metricName,
        dimensionsMap: { InstanceId: instance.instanceId },
        statistic: cloudwatch.Stats.MAXIMUM,
        period: Duration.minutes(1),
      });
    const system = metric('StatusCheckFailed_System').createAlarm(this, `NatInstance${n}SystemStatus`, {
      alarmDescription: `gtt-gateway NAT instance ${n}: system status check failed; EC2 recovers it onto new hardware (same Elastic IP). Functions in its AZ cannot reach the broker meanwhile.`,
      threshold: 1,
      evaluationPeriods: 2,
      treatMissingData: cloudwatch.TreatMissingData.MISSING,
    });
    system.addAlarmAction(new Ec2Action(Ec2InstanceAction.RECOVER), alarmAction);
    const own = metric('StatusCheckFailed_Instance').createAlarm(this, `NatInstance${n}InstanceStatus`, {
      alarmDescription: `gtt-gateway NAT instance ${n}: instance status check failed; EC2 reboots it. Functions in its AZ cannot reach the broker meanwhile.`,
      threshold: 1,
      evaluationPeriods: 3,
      treatMissingData: cloudwatch.TreatMissingData.MISSING,
    });
    own.addAlarmAction(new Ec2Action(Ec2InstanceAction.REBOOT), alarmAction);
  }

  private suppressNagFindings(): void {
    for (const instance of this.natInstances) {
      NagSuppressions.addResourceSuppressions(instance, [
        {
          id: 'AwsSolutions-EC28',
          reason:
            'Detailed (1-minute) monitoring costs about $2/month per instance, more than the t4g.nano itself; the status-check metrics the recover/reboot alarms use are 1-minute without it, and 5-minute CPU/network is enough for a NAT of a few requests a minute.',
        },
        {
          id: 'AwsSolutions-EC29',
          reason:
            'Termination protection would stop CloudFormation from replacing the NAT instance (a new Amazon Linux image, an instance type change) and `cdk destroy`; the Elastic IP, not the instance, is what must survive, and it is re-associated on replacement.',
        },
      ]);
    }
  }
}
