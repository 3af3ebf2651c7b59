/**
 * Which call needs which grant: each action a function's role is granted on one of this machine's resources, taken
 * away alone (from every statement that gives it: a role's two grants on one table may both give `GetItem`), and
 * the calls a run recorded (gate.ts, `record`) evaluated again without it. A grant no recorded call needs is one the
 * run never used; a grant a call needs names the step that made it, which would fail if the grant were gone. The
 * same for each action of the DynamoDB endpoint's policy.
 */
import type { PolicyStatementJson, StackPermissions, TemplateValue } from '../../infra/scripts/stack-permissions.js';
import { type CheckedCall, createPermissionGate } from './gate.js';
import { createResolver, type LocalEnvironments } from './resolve.js';

export interface GrantUse {
  /** The function whose role has the grant, or `DynamoDbEndpoint` for the endpoint's policy. */
  holder: string;
  action: string;
  /** The resource as this machine names it. */
  resource: string;
  /** The recorded calls refused without it (distinct by function, action, resource and keys). */
  neededBy: CheckedCall[];
}

/** The services whose local endpoints the gate guards: grants on anything else (logs, X-Ray) are not checked here. */
const GUARDED = /^arn:aws:(dynamodb|secretsmanager|events|sqs|execute-api):/;

const list = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const rawResources = (statement: PolicyStatementJson): TemplateValue[] =>
  statement.Resource === undefined ? [] : Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];

/** The statements without `action` on the resources given (statement index, resource as written there). */
const withoutAll = (statements: PolicyStatementJson[], action: string, givers: readonly [number, TemplateValue][]) =>
  statements.flatMap((statement, i) => {
    const taken = givers.filter(([index]) => index === i).map(([, raw]) => JSON.stringify(raw));
    if (!taken.length) return [statement];
    const actions = list(statement.Action).filter((a) => a !== action);
    const resources = rawResources(statement).filter((r) => !taken.includes(JSON.stringify(r)));
    return [
      ...(actions.length ? [{ ...statement, Action: actions }] : []),
      ...(resources.length ? [{ ...statement, Action: [action], Resource: resources }] : []),
    ];
  });

/** The statements without `action` on `resource` in statement `index` (the rest of each statement kept as it was). */
const without = (statements: PolicyStatementJson[], index: number, action: string, resource: TemplateValue) =>
  withoutAll(statements, action, [[index, resource]]);

/** Every statement without `action`, on any resource (a statement left with no action is dropped). */
const withoutEverywhere = (statements: PolicyStatementJson[], action: string) =>
  withoutAll(
    statements,
    action,
    statements.flatMap((statement, i) =>
      list(statement.Action).includes(action)
        ? rawResources(statement).map((raw) => [i, raw] as [number, TemplateValue])
        : [],
    ),
  );

/**
 * The permissions with `action` taken away from one function's role, or from the DynamoDB endpoint's policy
 * (`DynamoDbEndpoint`), wherever it is granted: what a test shows fails without it.
 */
export const withoutAction = (permissions: StackPermissions, holder: string, action: string): StackPermissions => {
  if (holder === 'DynamoDbEndpoint')
    return {
      ...permissions,
      dynamodbEndpointPolicies: permissions.dynamodbEndpointPolicies.map((endpoint) => ({
        ...endpoint,
        statements: withoutEverywhere(endpoint.statements, action),
      })),
    };
  const fn = permissions.functions[holder];
  if (!fn) throw new Error(`${holder} is not a function of the synthesized stacks`);
  return {
    ...permissions,
    functions: { ...permissions.functions, [holder]: { ...fn, statements: withoutEverywhere(fn.statements, action) } },
  };
};

const distinct = (calls: readonly CheckedCall[]): CheckedCall[] => {
  const seen = new Map<string, CheckedCall>();
  for (const call of calls) {
    const key = JSON.stringify([call.function, call.action, call.resource, call.context ?? {}]);
    if (!seen.has(key)) seen.set(key, call);
  }
  return [...seen.values()];
};

export const grantUses = async (
  permissions: StackPermissions,
  environments: LocalEnvironments,
  recorded: readonly CheckedCall[],
): Promise<GrantUse[]> => {
  const { resolve } = createResolver(permissions, environments);
  const calls = distinct(recorded.filter((c) => c.allowed));
  const uses: GrantUse[] = [];
  const neededBy = async (changed: StackPermissions, affected: CheckedCall[]) => {
    const gate = createPermissionGate(changed, environments);
    const refused: CheckedCall[] = [];
    for (const call of affected) if (await gate.decide(call.function, call)) refused.push(call);
    return refused;
  };
  for (const [name, fn] of Object.entries(permissions.functions)) {
    // Each action on each resource once, with every statement (and the resource as written there) that gives it.
    const grants = new Map<string, { action: string; resource: string; givers: [number, TemplateValue][] }>();
    for (const [index, statement] of fn.statements.entries()) {
      if (statement.Effect !== 'Allow') continue;
      for (const action of list(statement.Action))
        for (const raw of rawResources(statement)) {
          const resource = String(resolve(raw, fn.stack));
          if (!GUARDED.test(resource)) continue;
          const key = JSON.stringify([action, resource]);
          const grant = grants.get(key) ?? { action, resource, givers: [] };
          grant.givers.push([index, raw]);
          grants.set(key, grant);
        }
    }
    for (const { action, resource, givers } of grants.values()) {
      const statements = withoutAll(fn.statements, action, givers);
      const changed = { ...permissions, functions: { ...permissions.functions, [name]: { ...fn, statements } } };
      const affected = calls.filter((c) => c.function === name && c.action === action);
      uses.push({ holder: name, action, resource, neededBy: await neededBy(changed, affected) });
    }
  }
  const inVpc = new Set(
    Object.entries(permissions.functions)
      .filter(([, f]) => f.inVpc)
      .map(([n]) => n),
  );
  for (const [e, endpoint] of permissions.dynamodbEndpointPolicies.entries()) {
    for (const [index, statement] of endpoint.statements.entries()) {
      for (const action of list(statement.Action)) {
        for (const raw of rawResources(statement)) {
          const resource = String(resolve(raw, endpoint.stack));
          const endpoints = permissions.dynamodbEndpointPolicies.map((other, i) =>
            i === e ? { ...other, statements: without(other.statements, index, action, raw) } : other,
          );
          const affected = calls.filter((c) => inVpc.has(c.function) && c.action === action);
          uses.push({
            holder: 'DynamoDbEndpoint',
            action,
            resource,
            neededBy: await neededBy({ ...permissions, dynamodbEndpointPolicies: endpoints }, affected),
          });
        }
      }
    }
  }
  return uses;
};
