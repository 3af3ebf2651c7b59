/**
 * The kill switch in the stack (functions/control-functions.ts): one function on its three routes (IAM auth), its
 * grants, its error alarm and its ARN output. A plain function on the stack, so the construct ids stay where they
 * were.
 */
import { CfnOutput, Duration, type Stack } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';

import { KILL_SWITCH } from '../../functions/control-functions.js';
import { environmentOf } from '../../functions/runtime/env.js';
import { addFunctionRoute } from './api.js';
import { addErrorsAlarm, GatewayFunction, MEMORY_MB } from './gateway-function.js';
import { brokerRateEnvironment, GOVERNOR_TABLE_ACTIONS, type OperationFunctionsProps } from './operation-functions.js';

/** The kill switch also turns the switch (an UpdateItem of the account's item). */
export const KILL_SWITCH_TABLE_ACTIONS = [...GOVERNOR_TABLE_ACTIONS, 'dynamodb:UpdateItem'] as const;
/** The kill switch's own routes: a sweep takes a while, and nobody needs to turn it twice a second. */
export const KILL_SWITCH_ROUTE_THROTTLE = { rateLimit: 1, burstLimit: 2 };
/** Long enough to sweep a few hundred orders at 8 a second (an HTTP caller's answer ends at API Gateway's 30 s). */
export const KILL_SWITCH_TIMEOUT = Duration.seconds(90);

/**
 * The kill switch: one function on its three routes (IAM auth). It runs the operation table's own list and cancel
 * entries in-process, so it gets what an order function gets (the secret, the control table, the outbox in the
 * idempotency table) and may also turn the switch (UpdateItem).
 */
export const addKillSwitch = (stack: Stack, props: OperationFunctionsProps): GatewayFunction => {
  const { secret, controlTable, events } = props;
  const fn = new GatewayFunction(stack, KILL_SWITCH.name, {
    entry: KILL_SWITCH.id,
    description: `gtt-gateway: ${KILL_SWITCH.summary}`,
    roleDescription:
      'gtt-gateway KillSwitch: its log group, its secret, the control table (turn the switch, governor permits), the outbox items of its cancels in the idempotency table, publish Kill Switch on the gateway bus',
    logRetention: logs.RetentionDays.ONE_MONTH,
    timeout: KILL_SWITCH_TIMEOUT,
    memorySize: MEMORY_MB.order,
    environment: {
      ...environmentOf({
        brokerBaseUrl: props.brokerBaseUrl,
        brokerSecretId: secret.secretArn,
        // The sweep's cancels carry no idempotency key: each puts its event's outbox item here (PutItem only).
        idempotencyTableName: props.idempotencyTable.tableName,
        controlTableName: controlTable.tableName,
      }),
      ...brokerRateEnvironment(props.brokerRateLimits),
      ...events.orderFunctionEnvironment(),
      ...props.settings,
    },
    ...(props.network ? { network: props.network } : {}),
  });
  secret.grantRead(fn.role);
  controlTable.grant(fn.role, ...KILL_SWITCH_TABLE_ACTIONS);
  props.idempotencyTable.grant(fn.role, 'dynamodb:PutItem');
  // The switch's own `Kill Switch` event goes straight to the bus (it is not an order's outbox event).
  events.bus.grantPutEventsTo(fn.role);
  for (const route of KILL_SWITCH.routes) {
    addFunctionRoute(
      props.gateway,
      route,
      `${KILL_SWITCH.name}${route.method}Integration`,
      fn.function,
      route.method !== 'GET' ? KILL_SWITCH_ROUTE_THROTTLE : undefined,
    );
  }
  addErrorsAlarm(
    stack,
    'KillSwitchErrors',
    fn.function,
    { description: 'KillSwitch: function errors (the switch could not be turned, or the sweep failed)', threshold: 1 },
    props.alarmAction,
  );
  new CfnOutput(stack, 'KillSwitchFunctionArn', {
    value: fn.function.functionArn,
    description: 'Invoke directly with {"action":"on"|"off"|"status"}; or POST/DELETE/GET /kill-switch',
  });
  return fn;
};
