/**
 * The gate installed on the local stack's AWS endpoints: each request a function signs is held to what the
 * synthesized stacks give that function (gate.ts), by the calls it stands for (requests.ts).
 */
import type { StackPermissions } from '../../infra/scripts/stack-permissions.js';
import type { LocalDynamo } from '../dynamodb.js';
import type { LocalEventBridge } from '../eventbridge.js';
import type { LocalSecretsManager } from '../secrets-manager.js';
import type { LocalQueue } from '../sqs.js';
import { createPermissionGate, type GateOptions, type PermissionGate, type Refusal } from './gate.js';
import { dynamoDbCalls, eventBridgeCalls, secretsManagerCalls, sqsCalls } from './requests.js';
import { localArn, type LocalEnvironments } from './resolve.js';
import type { CapturedRequest } from './sigv4.js';
import { stackPolicies } from './stack-policies.js';

export interface GuardedEndpoints {
  dynamo: LocalDynamo;
  secrets: LocalSecretsManager;
  eventBridge: LocalEventBridge;
  signalQueue: LocalQueue;
}

/**
 * Off with `GTT_LOCAL_PERMISSIONS=off` (or the stack's `permissions: false`): every call let through, as before. Any
 * value but `on`, `off` or none is a mistake (a typo would leave the check on unseen): it fails, naming the two.
 */
export const permissionsWanted = (
  option: boolean | undefined,
  setting: string | undefined = process.env.GTT_LOCAL_PERMISSIONS,
): boolean => {
  if (option !== undefined) return option;
  const value = setting?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'on') return true;
  if (value === 'off') return false;
  throw new Error(`GTT_LOCAL_PERMISSIONS must be on or off (or unset: on); got ${JSON.stringify(setting)}`);
};

export const enforcePermissions = async (
  endpoints: GuardedEndpoints,
  environments: LocalEnvironments,
  options: GateOptions & { adjust?: (permissions: StackPermissions) => StackPermissions } = {},
): Promise<PermissionGate> => {
  const synthesized = await stackPolicies();
  const gate = createPermissionGate(options.adjust ? options.adjust(synthesized) : synthesized, environments, options);
  const { dynamo } = endpoints;
  dynamo.streams.guard((request, action, body) =>
    gate.authorize(request, dynamoDbCalls(action, body, dynamo.partitionKeyOf)),
  );
  endpoints.secrets.guard((request, target, body) => gate.authorize(request, secretsManagerCalls(target, body)));
  endpoints.eventBridge.guard((request, target, body) => gate.authorize(request, eventBridgeCalls(target, body)));
  endpoints.signalQueue.guard((request, target, body) => gate.authorize(request, sqsCalls(target, body)));
  return gate;
};

/** The local API's check of a signed route request: `execute-api:Invoke` on the route's ARN. */
export const apiAuthorizer =
  (gate: PermissionGate) =>
  (request: CapturedRequest, methodPath: string): Promise<Refusal | undefined> =>
    gate.authorize(request, [{ action: 'execute-api:Invoke', resource: localArn.route(methodPath) }]);
