/**
 * One Lambda of the function set (an operation of the table or a session function) with the settings every function
 * shares: nodejs22.x on arm64, an ESM bundle made
 * by the local esbuild (never Docker) with the SDK clients bundled, source map files, X-Ray, a log group with retention, and a role that starts
 * empty (no managed policy) so every permission is granted explicitly and visibly. With a network (static egress,
 * infra/constructs/egress.ts) the function runs in the given private subnets and security group, and its role gets the ENI
 * permissions of AWSLambdaVPCAccessExecutionRole as an inline statement.
 */
import { join } from 'node:path';

import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

import { environmentOf } from '../../functions/base/runtime/env.js';
import { SERVICE_NAME } from '../../functions/base/schemas/names.js';
import { accountOf, metricNamespaceOf } from '../settings/accounts.js';
import { LAMBDA_ENI_ACTIONS } from './egress.js';

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');
/** The broker request timeout; the Lambda timeout stays above it so our own timeout fires first. */
export const BROKER_TIMEOUT = 8_000;
export const LAMBDA_TIMEOUT = Duration.seconds(12);
/** What the deployed bundles take `@aws-sdk/credential-provider-node` to be: the environment's credentials only. */
export const ENV_CREDENTIALS = join(PROJECT_ROOT, 'functions', 'base', 'runtime', 'env-credentials.ts');

/** Where a function runs when the stack has a static egress: private subnets whose only way out is the NAT. */
export interface GatewayFunctionNetwork {
  vpc: ec2.IVpc;
  subnets: ec2.SubnetSelection;
  securityGroup: ec2.ISecurityGroup;
}

/**
 * Memory sizes, chosen from measurement (docs/explanation/benchmarks.md#memory): Lambda gives CPU in proportion to memory
 * (about 0.29 vCPU at 512 MB, 0.58 at 1024), and no function needs more than about 75 MB of it.
 * - `order`: the order functions and the kill switch. A warm place is about 7 ms of CPU at a full core, so 25 ms
 *   at 512 MB and 13 ms at 1024: the trader waits for it, so the order path buys the CPU (cost per million warm
 *   places in docs/explanation/benchmarks.md).
 * - `standard`: reads, the watcher, the session functions: nobody waits on a few milliseconds.
 * - `background`: the EventForwarder and the notification formatter: well under a millisecond of CPU a call.
 */
export const MEMORY_MB = { order: 1024, standard: 512, background: 256 } as const;

export interface GatewayFunctionProps {
  /** The entry file, relative to the repository (`functions/handlers/<id>.ts`). */
  entry: string;
  /** The function's description, and what its role may do (for the role's description). */
  description: string;
  roleDescription: string;
  environment: Record<string, string>;
  logRetention: logs.RetentionDays;
  /** Absent: no VPC (Lambda's shared egress). */
  network?: GatewayFunctionNetwork;
  /** Default LAMBDA_TIMEOUT (one broker call); the kill switch's sweep takes longer. */
  timeout?: Duration;
  /** Default MEMORY_MB.standard. */
  memorySize?: number;
}

export class GatewayFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: GatewayFunctionProps) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.roleDescription}${props.network ? ', its VPC network interfaces' : ''}`,
    });
    this.logGroup.grant(this.role, 'logs:CreateLogStream', 'logs:PutLogEvents');
    if (props.network) {
      // Lambda creates and deletes the function's ENIs with the role. DescribeNetworkInterfaces only works on "*"
      // and Lambda checks these at CreateFunction, so they stay unscoped, as in the AWS managed policy.
      this.role.addToPrincipalPolicy(
        new iam.PolicyStatement({ sid: 'VpcNetworkInterfaces', actions: LAMBDA_ENI_ACTIONS, resources: ['*'] }),
      );
    }

    this.function = new NodejsFunction(this, 'Function', {
      description: props.description,
      entry: join(PROJECT_ROOT, props.entry),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? MEMORY_MB.standard,
      timeout: props.timeout ?? LAMBDA_TIMEOUT,
      tracing: lambda.Tracing.ACTIVE,
      role: this.role,
      logGroup: this.logGroup,
      ...(props.network
        ? {
            vpc: props.network.vpc,
            vpcSubnets: props.network.subnets,
            securityGroups: [props.network.securityGroup],
            allowPublicSubnet: false,
          }
        : {}),
      environment: {
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...environmentOf({ brokerTimeoutMs: BROKER_TIMEOUT }),
        // A deployment per broker account writes its metrics to a namespace of its own (infra/settings/accounts.ts).
        ...(accountOf(this.node.tryGetContext('account'))
          ? { METRIC_NAMESPACE: metricNamespaceOf(accountOf(this.node.tryGetContext('account'))) }
          : {}),
        ...(this.node.tryGetContext('enableSourceMaps') === 'true' ||
        this.node.tryGetContext('enableSourceMaps') === true
          ? { NODE_OPTIONS: '--enable-source-maps' }
          : {}),
        ...props.environment,
      },
      bundling: {
        forceDockerBundling: false,
        // esbuild's size summary of each bundle would be a block per function in every synth: errors only.
        logLevel: LogLevel.ERROR,
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        // The .map files ship beside each bundle for decoding a stack trace offline; Node's --enable-source-maps is
        // left off because loading the maps at start-up costs more than the rest of the import (docs/explanation/benchmarks.md).
        // `-c enableSourceMaps=true` turns it on for a debugging deploy.
        sourceMap: true,
        mainFields: ['module', 'main'],
        // The SDK clients we use are bundled, tree-shaken and minified, rather than imported from the runtime's copy:
        // one file loads faster than hundreds of modules resolved at cold start (docs/explanation/benchmarks.md: cold start).
        externalModules: [],
        // Lambda gives every function its role's credentials in the environment: the bundles take them from there
        // (functions/base/runtime/env-credentials.ts) instead of the SDK's default chain, whose SSO, STS, INI, process and
        // instance-metadata providers are about 130 KB that every cold start would compile and never run.
        esbuildArgs: { '--alias': [`@aws-sdk/credential-provider-node=${ENV_CREDENTIALS}`] },
        // Some dependencies still call require(); give the ESM bundle one.
        banner:
          "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
    });
  }
}

/**
 * The alarm every function of the set has: its Lambda `Errors` over 5 minutes at `threshold` or more, to the
 * stack's alarm topic (missing data is not breaching: no invocations, no alarm).
 */
export const addErrorsAlarm = (
  scope: Construct,
  id: string,
  fn: lambda.IFunction,
  props: { description: string; threshold: number },
  action: cloudwatch.IAlarmAction,
): cloudwatch.Alarm => {
  const alarm = fn.metricErrors({ period: Duration.minutes(5) }).createAlarm(scope, id, {
    alarmDescription: props.description,
    threshold: props.threshold,
    evaluationPeriods: 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
  alarm.addAlarmAction(action);
  return alarm;
};
