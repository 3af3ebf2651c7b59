/**
 * The functions built on the stack itself (their definitions' `notes.home`: `stack`): one per entry of the operation
 * table, the kill switch, the events history, the plans, the signals, the instrument refresh, and any other
 * definition given (infra/constructs/manifest-function.ts builds each: schedule, alarms, routes). What only some have:
 * the operations' ARN outputs, the Logout operation's own statement id for its secret write, the kill switch's
 * output. Added to their stack (not a construct of their own), so the construct ids stay what they were: the order
 * functions to the orders stack, the others to the automation stack (infra/stacks/gateway-stack.ts).
 */
import { CfnOutput, type Stack } from 'aws-cdk-lib';

import { KILL_SWITCH } from '../../functions/controls/definition.js';
import { type FunctionDefinition, FUNCTIONS } from '../../functions/manifest/index.js';
import type { GatewayFunction } from './gateway-function.js';
import { sessionSecretWrite } from './grants.js';
import { addManifestFunction, type FunctionWiring, isDeployed } from './manifest-function.js';

/** The order functions' stack: the operations and the kill switch; every other `stack` function goes to the other. */
export const isOrderFunction = (entry: FunctionDefinition): boolean =>
  entry.operation !== undefined || entry.name === KILL_SWITCH.name;

/**
 * The stack functions of `functions` (default: the manifest's), by name, in their order, each built in the stack
 * `stackFor` names. The operations' ARN exports are named after `exportPrefix` (the gateway stack's name).
 */
export const addGatewayFunctions = (
  stackFor: (entry: FunctionDefinition) => Stack,
  exportPrefix: string,
  wiring: FunctionWiring,
  functions: readonly FunctionDefinition[] = FUNCTIONS,
): Map<string, GatewayFunction> => {
  const built = new Map<string, GatewayFunction>();
  for (const entry of functions) {
    if (entry.notes.home !== 'stack' || !isDeployed(entry, wiring)) continue;
    const stack = stackFor(entry);
    const gatewayFunction = addManifestFunction(stack, entry, wiring, {
      // Logout marks the secret logged out (a new version without the token), so every function stops at once.
      ...(entry.operation?.broker === 'Logout'
        ? {
            grants: {
              'sessionSecret:write': sessionSecretWrite(wiring.resources.sessionSecret, 'MarkSessionLoggedOut'),
            },
          }
        : {}),
    });
    built.set(entry.name, gatewayFunction);
    const fn = gatewayFunction.function;
    if (entry.operation) {
      new CfnOutput(stack, `${entry.name}FunctionArn`, {
        value: fn.functionArn,
        exportName: `${exportPrefix}-${entry.name}-Arn`,
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
  return built;
};
