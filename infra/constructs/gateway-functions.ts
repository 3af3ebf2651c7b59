/**
 * The functions built on the stack itself (infra/constructs/function-notes.ts: home `stack`): one per entry of the
 * operation table, the kill switch, the events history, the plans and the signals, each from its manifest entry
 * (infra/constructs/manifest-function.ts). What only some have: the signal worker's sweep schedule, the operations'
 * throttle alarms and ARN outputs, the Logout operation's own statement id for its secret write, the kill switch's
 * output. Added to the stack (not a construct of their own), so the construct ids stay where they were.
 */
import { CfnOutput, Duration, type Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';

import { FUNCTIONS, scheduleOf } from '../../functions/manifest/index.js';
import { KILL_SWITCH } from '../../functions/manifest/kill-switch.js';
import { notesOf } from './function-notes.js';
import type { GatewayFunction } from './gateway-function.js';
import { sessionSecretWrite } from './grants.js';
import { addManifestFunction, type FunctionWiring, isDeployed } from './manifest-function.js';

/** The stack's own functions, by manifest name, in the manifest's order. */
export const addGatewayFunctions = (stack: Stack, wiring: FunctionWiring): Map<string, GatewayFunction> => {
  const functions = new Map<string, GatewayFunction>();
  for (const entry of FUNCTIONS) {
    if (notesOf(entry).home !== 'stack' || !isDeployed(entry, wiring)) continue;
    const schedule = scheduleOf(entry);
    const gatewayFunction = addManifestFunction(stack, entry, wiring, {
      // The signal worker's sweep, every minute: a run missed is the next minute's, never sent late.
      ...(schedule
        ? { schedule: { expression: schedule.cron, retry: { retryAttempts: 0, maxEventAge: Duration.minutes(1) } } }
        : {}),
      // Logout marks the secret logged out (a new version without the token), so every function stops at once.
      ...(entry.operation?.broker === 'Logout'
        ? {
            grants: {
              'sessionSecret:write': sessionSecretWrite(wiring.resources.sessionSecret, 'MarkSessionLoggedOut'),
            },
          }
        : {}),
    });
    functions.set(entry.name, gatewayFunction);
    const fn = gatewayFunction.function;
    if (entry.operation) {
      fn.metricThrottles({ period: Duration.minutes(5) })
        .createAlarm(stack, `${entry.name}Throttles`, {
          alarmDescription: `${entry.name}: invocations throttled by Lambda`,
          threshold: 1,
          evaluationPeriods: 1,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        })
        .addAlarmAction(wiring.alarmAction);
      new CfnOutput(stack, `${entry.name}FunctionArn`, {
        value: fn.functionArn,
        exportName: `${stack.stackName}-${entry.name}-Arn`,
        description: `Invoke directly (Step Functions, EventBridge) for ${entry.name}`,
      });
    }
    if (entry.name === KILL_SWITCH.name) {
      new CfnOutput(stack, 'KillSwitchFunctionArn', {
        value: fn.functionArn,
        description: 'Invoke directly with {"action":"on"|"off"|"status"}; or POST/DELETE/GET /kill-switch',
      });
    }
  }
  return functions;
};
