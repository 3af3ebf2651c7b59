/**
 * The operation functions: one GatewayFunction per entry of the operation table (functions/operations.ts), each on
 * its route with its grants (the one secret; the idempotency table, the bus and events table, the control table as
 * the entry asks), its error and throttle alarms and its ARN output. Plain functions on the stack, so the construct
 * ids stay where they were.
 */
import { CfnOutput, Duration, type Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';

import type { AnyOperation } from '../../functions/contract/operation.js';
import { OPERATIONS } from '../../functions/operations.js';
import { environmentOf } from '../../functions/runtime/env.js';
import type { BrokerSetup } from '../settings/broker-setup.js';
import { addFunctionRoute, type GatewayApi, ORDER_ROUTE_THROTTLE } from './api.js';
import type { LifecycleEvents } from './events.js';
import { addErrorsAlarm, GatewayFunction, type GatewayFunctionNetwork, MEMORY_MB } from './gateway-function.js';

/** What the order functions' governor does on the control table: a consistent read and a conditional put. */
export const GOVERNOR_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:PutItem'] as const;

/** What the operation functions and the kill switch are built from. */
export interface OperationFunctionsProps {
  brokerBaseUrl: string;
  /** The functions' environment from the deployment settings, by name (the broker's auth included). */
  settings: Record<string, string>;
  secret: secretsmanager.ISecret;
  idempotencyTable: dynamodb.Table;
  controlTable: dynamodb.Table;
  brokerRateLimits?: BrokerSetup['rateLimits'];
  events: LifecycleEvents;
  /** The static egress's VPC, subnets and security group; undefined with egress `none`. */
  network?: GatewayFunctionNetwork;
  gateway: GatewayApi;
  alarmAction: SnsAction;
}

/** Every operation of the table: its function, route, alarms and output; the functions by operation name. */
export const addOperationFunctions = (stack: Stack, props: OperationFunctionsProps): Map<string, GatewayFunction> => {
  const functions = new Map<string, GatewayFunction>();
  for (const operation of OPERATIONS) {
    const gatewayFunction = addOperation(stack, operation, props);
    functions.set(operation.name, gatewayFunction);
    const fn = gatewayFunction.function;

    addFunctionRoute(
      props.gateway,
      operation.route,
      `${operation.name}Integration`,
      fn,
      operation.kind === 'order' ? ORDER_ROUTE_THROTTLE : undefined,
    );

    addErrorsAlarm(
      stack,
      `${operation.name}Errors`,
      fn,
      {
        description: `${operation.name}: function errors (unhandled failures and direct-invocation errors)`,
        threshold: 1,
      },
      props.alarmAction,
    );
    fn.metricThrottles({ period: Duration.minutes(5) })
      .createAlarm(stack, `${operation.name}Throttles`, {
        alarmDescription: `${operation.name}: invocations throttled by Lambda`,
        threshold: 1,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      })
      .addAlarmAction(props.alarmAction);

    new CfnOutput(stack, `${operation.name}FunctionArn`, {
      value: fn.functionArn,
      exportName: `${stack.stackName}-${operation.name}-Arn`,
      description: `Invoke directly (Step Functions, EventBridge) for ${operation.name}`,
    });
  }
  return functions;
};

/** The broker's own order rate (its preset), unless the deployment sets the order rate (in `settings`). */
export const brokerRateEnvironment = (rateLimits: BrokerSetup['rateLimits']): Record<string, string> =>
  rateLimits
    ? environmentOf({ orderRatePerSecond: rateLimits.perSecond, orderRatePerMinute: rateLimits.perMinute })
    : {};

const addOperation = (stack: Stack, operation: AnyOperation, props: OperationFunctionsProps): GatewayFunction => {
  const { secret, idempotencyTable, controlTable, events } = props;
  const gatewayFunction = new GatewayFunction(stack, operation.name, {
    entry: operation.id,
    description: `gtt-gateway: ${operation.summary} (${operation.route.method} ${operation.route.path})`,
    roleDescription: `gtt-gateway ${operation.name}: its log group, its secret${operation.broker === 'Logout' ? ' (read, and mark it logged out)' : ''}${operation.idempotency ? ', the idempotency table' : ''}${operation.lifecycle ? " (its events' outbox too)" : ''}${operation.kind === 'order' ? ', the control table (order-rate governor)' : ''}`,
    logRetention: logs.RetentionDays.ONE_MONTH,
    memorySize: operation.kind === 'order' ? MEMORY_MB.order : MEMORY_MB.standard,
    environment: {
      ...environmentOf({
        brokerBaseUrl: props.brokerBaseUrl,
        brokerSecretId: secret.secretArn,
        idempotencyTableName: idempotencyTable.tableName,
        controlTableName: operation.kind === 'order' ? controlTable.tableName : undefined,
      }),
      ...(operation.kind === 'order' ? brokerRateEnvironment(props.brokerRateLimits) : {}),
      ...(operation.lifecycle ? events.orderFunctionEnvironment() : {}),
      ...props.settings,
    },
    ...(props.network ? { network: props.network } : {}),
  });
  // Each function may read only the one secret.
  secret.grantRead(gatewayFunction.role);
  if (operation.broker === 'Logout') {
    // Logout marks the secret logged out (a new version without the token), so every function stops at once.
    gatewayFunction.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'MarkSessionLoggedOut',
        actions: ['secretsmanager:PutSecretValue'],
        resources: [secret.secretArn],
      }),
    );
  }
  if (operation.idempotency) {
    // Exactly what Powertools' DynamoDB persistence layer calls (PutItem also writes an outbox item, events/outbox.ts).
    idempotencyTable.grant(
      gatewayFunction.role,
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
    );
  }
  // The governor reads the account's item and writes it back conditionally; nothing else.
  if (operation.kind === 'order') controlTable.grant(gatewayFunction.role, ...GOVERNOR_TABLE_ACTIONS);
  return gatewayFunction;
};
