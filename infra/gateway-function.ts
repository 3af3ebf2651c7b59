/**
 * One Lambda of the function set with the settings every function shares: nodejs22.x on arm64, an ESM bundle made
 * by the local esbuild (never Docker), source maps, X-Ray, a log group with retention, and a role that starts
 * empty (no managed policy) so every permission is granted explicitly and visibly.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { join } from 'node:path';
import type { AnyOperation } from '../functions/contract/operation.js';

export const PROJECT_ROOT = join(import.meta.dirname, '..');
/** The broker request timeout; the Lambda timeout stays above it so our own timeout fires first. */
export const BROKER_TIMEOUT_MS = 8_000;
export const LAMBDA_TIMEOUT = Duration.seconds(12);

export interface GatewayFunctionProps {
  operation: AnyOperation;
  environment: Record<string, string>;
  logRetention: logs.RetentionDays;
}

export class GatewayFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: GatewayFunctionProps) {
    super(scope, id);
    const { operation } = props;
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `gtt-gateway ${operation.name}: its log group, its secret${operation.idempotency ? ', the idempotency table' : ''}`,
    });
    this.logGroup.grant(this.role, 'logs:CreateLogStream', 'logs:PutLogEvents');

    this.function = new NodejsFunction(this, 'Function', {
      description: `gtt-gateway: ${operation.summary} (${operation.route.method} ${operation.route.path})`,
      entry: join(PROJECT_ROOT, 'functions', 'handlers', `${operation.id}.ts`),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 512,
      timeout: LAMBDA_TIMEOUT,
      tracing: lambda.Tracing.ACTIVE,
      role: this.role,
      logGroup: this.logGroup,
      environment: {
        POWERTOOLS_SERVICE_NAME: 'gtt-gateway',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        NODE_OPTIONS: '--enable-source-maps',
        BROKER_TIMEOUT_MS: String(BROKER_TIMEOUT_MS),
        ...props.environment,
      },
      bundling: {
        forceDockerBundling: false,
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        mainFields: ['module', 'main'],
        // The nodejs22.x runtime ships AWS SDK v3: keeping it out of the bundle keeps bundles small.
        externalModules: ['@aws-sdk/*'],
        // Some dependencies still call require(); give the ESM bundle one.
        banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
    });
  }
}
