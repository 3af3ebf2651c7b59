/**
 * The events history in the stack (functions/control-functions.ts EVENTS_HISTORY): one read-only function on
 * `GET /events` (IAM auth) that may only Query the events table, an error alarm. It never calls the broker, so it
 * gets no secret and no broker settings.
 */
import type { Stack } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';

import { EVENTS_HISTORY } from '../../functions/control-functions.js';
import { environmentOf } from '../../functions/runtime/env.js';
import { addFunctionRoute } from './api.js';
import { addErrorsAlarm, GatewayFunction, MEMORY_MB } from './gateway-function.js';
import type { OperationFunctionsProps } from './operation-functions.js';

export const EVENTS_HISTORY_TABLE_ACTIONS = ['dynamodb:Query'] as const;

export const addEventsHistory = (stack: Stack, props: OperationFunctionsProps): GatewayFunction => {
  const fn = new GatewayFunction(stack, EVENTS_HISTORY.name, {
    entry: EVENTS_HISTORY.id,
    description: `gtt-gateway: ${EVENTS_HISTORY.summary}`,
    roleDescription: 'gtt-gateway EventsHistory: its log group, Query the events table (read only)',
    logRetention: logs.RetentionDays.ONE_MONTH,
    memorySize: MEMORY_MB.standard,
    environment: environmentOf({ eventsTableName: props.events.table.tableName }),
    ...(props.network ? { network: props.network } : {}),
  });
  props.events.table.grant(fn.role, ...EVENTS_HISTORY_TABLE_ACTIONS);
  for (const route of EVENTS_HISTORY.routes)
    addFunctionRoute(props.gateway, route, `${EVENTS_HISTORY.name}${route.method}Integration`, fn.function);
  addErrorsAlarm(
    stack,
    'EventsHistoryErrors',
    fn.function,
    { description: 'EventsHistory: function errors (the events table could not be read)', threshold: 3 },
    props.alarmAction,
  );
  return fn;
};
