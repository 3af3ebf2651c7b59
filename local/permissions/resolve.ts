/**
 * The synthesized policies with this machine's names in them. A template names its resources by logical id
 * (`{"Fn::GetAtt": ["EventsTable4B7491D3", "Arn"]}`); here the same table is `gtt-gateway-events`. Which local name
 * stands for which logical id is read from the functions' environments: the template gives a variable a reference
 * (`EVENTS_TABLE_NAME: {"Ref": "EventsTable4B7491D3"}`), the local stack gives the same variable its local value. A
 * resource no function's environment names resolves to a name that matches nothing (`unresolved:<id>`): a grant on
 * it allows no local call, which is what the check wants to see.
 */
import type { FunctionPermissions, StackPermissions, TemplateValue } from '../../infra/scripts/stack-permissions.js';

export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = 'us-east-1';
export const LOCAL_API_ID = 'local';

/** ARNs of this machine's resources, as the local endpoints name the resource of a call. */
export const localArn = {
  table: (name: string) => `arn:aws:dynamodb:${LOCAL_REGION}:${LOCAL_ACCOUNT}:table/${name}`,
  secret: (id: string) =>
    id.startsWith('arn:') ? id : `arn:aws:secretsmanager:${LOCAL_REGION}:${LOCAL_ACCOUNT}:secret:${id}`,
  bus: (name: string) => `arn:aws:events:${LOCAL_REGION}:${LOCAL_ACCOUNT}:event-bus/${name}`,
  /** A queue by its URL (its name is the URL's last segment). */
  queue: (url: string) => `arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${url.split('/').filter(Boolean).pop() ?? url}`,
  /** A route of the local API (its id is `local`), as `execute-api:Invoke` names it: `<METHOD>/<path>`. */
  route: (methodPath: string) =>
    `arn:aws:execute-api:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${LOCAL_API_ID}/$default/${methodPath}`,
  role: (logicalId: string) => `arn:aws:iam::${LOCAL_ACCOUNT}:role/${logicalId}`,
};

const PSEUDO: Record<string, string> = {
  'AWS::Partition': 'aws',
  'AWS::Region': LOCAL_REGION,
  'AWS::AccountId': LOCAL_ACCOUNT,
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::NoValue': '',
};

type Intrinsic = Record<string, unknown>;

export interface Resolver {
  /** A template value with every reference it can resolve replaced by this machine's name or ARN. */
  resolve(value: TemplateValue, stack: string): unknown;
}

/** The local value each variable of each function has (the env the local stack gives it), by manifest name. */
export type LocalEnvironments = Readonly<Record<string, Readonly<Record<string, string>>>>;

export const createResolver = (permissions: StackPermissions, environments: LocalEnvironments): Resolver => {
  /** `stack/logicalId` → its local name (a table's, a secret's id, a bus's, a queue's URL). */
  const names = new Map<string, string>();
  const key = (stack: string, id: string) => `${stack}/${id}`;
  const typeOf = (stack: string, id: string) => permissions.resources[stack]?.[id];

  /** A Ref's or an export's own resource: `{stack, id}` when the value is one (through Fn::ImportValue). */
  const referenced = (value: unknown, stack: string): { stack: string; id: string } | undefined => {
    if (!value || typeof value !== 'object') return undefined;
    const v = value as Intrinsic;
    if (typeof v.Ref === 'string') return { stack, id: v.Ref };
    if (typeof v['Fn::ImportValue'] === 'string') {
      const exported = permissions.exports[v['Fn::ImportValue']];
      return exported ? referenced(exported.value, exported.stack) : undefined;
    }
    return undefined;
  };
  const learn = (fn: FunctionPermissions, local: Readonly<Record<string, string>>) => {
    for (const [variable, value] of Object.entries(fn.environment)) {
      const target = referenced(value, fn.stack);
      const localValue = local[variable];
      if (target && localValue !== undefined) names.set(key(target.stack, target.id), localValue);
    }
  };
  for (const [name, fn] of Object.entries(permissions.functions)) {
    const local = environments[name];
    if (local) learn(fn, local);
  }

  const ref = (stack: string, id: string): string => {
    // One API here: every route's ARN names it by the local id.
    if (typeOf(stack, id) === 'AWS::ApiGatewayV2::Api') return LOCAL_API_ID;
    const name = names.get(key(stack, id));
    if (name === undefined) return `unresolved:${id}`;
    // A secret's Ref is its ARN; the local stack names it by id.
    return typeOf(stack, id) === 'AWS::SecretsManager::Secret' ? localArn.secret(name) : name;
  };
  const attribute = (stack: string, id: string, attr: string): string => {
    const name = names.get(key(stack, id));
    const type = typeOf(stack, id);
    if (name === undefined) return `unresolved:${id}.${attr}`;
    if (type === 'AWS::DynamoDB::Table' && attr === 'Arn') return localArn.table(name);
    if (type === 'AWS::DynamoDB::Table' && attr === 'StreamArn') return `${localArn.table(name)}/stream/local`;
    if (type === 'AWS::Events::EventBus' && attr === 'Arn') return localArn.bus(name);
    if (type === 'AWS::Events::EventBus' && attr === 'Name') return name;
    if (type === 'AWS::SQS::Queue' && attr === 'Arn') return localArn.queue(name);
    if (type === 'AWS::SQS::Queue' && attr === 'QueueName') return localArn.queue(name).split(':').pop()!;
    return `unresolved:${id}.${attr}`;
  };

  const resolve = (value: unknown, stack: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => resolve(v, stack));
    if (!value || typeof value !== 'object') return value;
    const v = value as Intrinsic;
    const keys = Object.keys(v);
    if (keys.length === 1) {
      const [fn] = keys as [string];
      const arg = v[fn];
      if (fn === 'Ref' && typeof arg === 'string') return PSEUDO[arg] ?? ref(stack, arg);
      if (fn === 'Fn::GetAtt') {
        const [id, attr] = (Array.isArray(arg) ? arg : String(arg).split('.')) as [string, string];
        return attribute(stack, id, attr);
      }
      if (fn === 'Fn::Join') {
        const [separator, parts] = arg as [string, unknown[]];
        return parts.map((part) => String(resolve(part, stack))).join(separator);
      }
      if (fn === 'Fn::ImportValue' && typeof arg === 'string') {
        const exported = permissions.exports[arg];
        return exported ? resolve(exported.value, exported.stack) : `unresolved:import:${arg}`;
      }
      if (fn === 'Fn::Select') {
        const [index, list] = arg as [number, unknown];
        const items = resolve(list, stack);
        return Array.isArray(items) ? items[Number(index)] : `unresolved:select`;
      }
      if (fn === 'Fn::Split') {
        const [separator, text] = arg as [string, unknown];
        return String(resolve(text, stack)).split(separator);
      }
      if (fn === 'Fn::Sub' && typeof arg === 'string')
        return arg.replace(/\$\{([^}]+)\}/g, (_, name: string) => {
          const [id, attr] = name.split('.') as [string, string | undefined];
          return attr ? attribute(stack, id, attr) : (PSEUDO[id] ?? ref(stack, id));
        });
    }
    return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, resolve(inner, stack)]));
  };
  return { resolve };
};
