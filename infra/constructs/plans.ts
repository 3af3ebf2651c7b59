/**
 * Plans in the stack (functions/control-functions.ts PLANS, docs/plans.md): one function on the four plan routes
 * (IAM auth), acting through the operation table's entries in-process, so it gets what an order function gets (the
 * secret, the idempotency table, the governor's control table) plus the plan records and its events (the events
 * table, the bus). The watcher carries the plans out with the same grants (infra/events.ts).
 */
import type { Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';

import { PLANS } from '../../functions/control-functions.js';
import { environmentOf } from '../../functions/runtime/env.js';
import { addFunctionRoute, ORDER_ROUTE_THROTTLE } from './api.js';
import { addErrorsAlarm, GatewayFunction, MEMORY_MB } from './gateway-function.js';
import { brokerRateEnvironment, GOVERNOR_TABLE_ACTIONS, type OperationFunctionsProps } from './operation-functions.js';

/** The plan records (GetItem, conditional PutItem, Query) and the markers and history of its events (BatchWriteItem). */
export const PLANS_EVENTS_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  // The plan's outbox emptied once handed on; the record of a plan whose first GTT the broker refused removed.
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:Query',
  'dynamodb:BatchWriteItem',
] as const;
/** What Powertools' idempotency layer calls (the plan's own order actions carry keys). */
export const IDEMPOTENCY_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
] as const;

/** The environment and grants of a function that acts on plans: the Plans function and the watcher. */
export const planActorEnvironment = (props: OperationFunctionsProps): Record<string, string> => ({
  ...environmentOf({
    brokerBaseUrl: props.brokerBaseUrl,
    brokerSecretId: props.secret.secretArn,
    idempotencyTableName: props.idempotencyTable.tableName,
    controlTableName: props.controlTable.tableName,
  }),
  ...brokerRateEnvironment(props.brokerRateLimits),
  ...props.events.publisherEnvironment(),
  ...props.settings,
});

export const grantPlanActor = (
  role: iam.IRole,
  props: { idempotencyTable: dynamodb.ITable; controlTable: dynamodb.ITable; eventsTable: dynamodb.ITable },
): void => {
  props.idempotencyTable.grant(role, ...IDEMPOTENCY_TABLE_ACTIONS);
  props.controlTable.grant(role, ...GOVERNOR_TABLE_ACTIONS);
  props.eventsTable.grant(role, ...PLANS_EVENTS_TABLE_ACTIONS);
};

export const addPlans = (stack: Stack, props: OperationFunctionsProps): GatewayFunction => {
  const fn = new GatewayFunction(stack, PLANS.name, {
    entry: PLANS.id,
    description: `gtt-gateway: ${PLANS.summary}`,
    roleDescription:
      'gtt-gateway Plans: its log group, its secret, the idempotency and control tables (order actions, the plan events outbox), the plan records in the events table, publish on the gateway bus',
    logRetention: logs.RetentionDays.ONE_MONTH,
    memorySize: MEMORY_MB.order,
    environment: planActorEnvironment(props),
    ...(props.network ? { network: props.network } : {}),
  });
  props.secret.grantRead(fn.role);
  grantPlanActor(fn.role, {
    idempotencyTable: props.idempotencyTable,
    controlTable: props.controlTable,
    eventsTable: props.events.table,
  });
  props.events.bus.grantPutEventsTo(fn.role);
  for (const route of PLANS.routes) {
    addFunctionRoute(
      props.gateway,
      route,
      `${PLANS.name}${route.method}${route.pathParams ? 'One' : ''}Integration`,
      fn.function,
      route.kind === 'order' ? ORDER_ROUTE_THROTTLE : undefined,
    );
  }
  addErrorsAlarm(
    stack,
    'PlansErrors',
    fn.function,
    { description: 'Plans: function errors (a plan could not be created, read or cancelled)', threshold: 1 },
    props.alarmAction,
  );
  return fn;
};
