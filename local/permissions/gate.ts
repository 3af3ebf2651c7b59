/**
 * The deployed permissions, enforced on this machine. Each function of the local stack signs its AWS calls with
 * credentials of its own (`LOCAL.<function>`, carried by its endpoints' URLs: functions/base/aws/endpoint.ts); each
 * local endpoint (DynamoDB, Secrets Manager, EventBridge, SQS) hands the gate the request and the IAM calls it
 * stands for (requests.ts). The gate checks the signature, then evaluates each call with @cloud-copilot/iam-simulate
 * against what the synthesized template gives that function: its role's statements, and for a function in the VPC
 * the DynamoDB gateway endpoint's policy, with `dynamodb:LeadingKeys` and the other keys the request carries. A
 * refusal is AWS's own (`AccessDeniedException`, with AWS's message), so the code meets it as it would deployed.
 *
 * Calls signed with any other key are the machine's own (the stack's set-up, a test reading a table, the CLI): the
 * deployment's owner, not a function, and are let through.
 */
import { createHmac } from 'node:crypto';
import { appendFileSync } from 'node:fs';

import { getDenialReasons, runSimulation } from '@cloud-copilot/iam-simulate';

import type { PolicyStatementJson, StackPermissions } from '../../infra/scripts/stack-permissions.js';
import { createResolver, LOCAL_ACCOUNT, localArn, type LocalEnvironments } from './resolve.js';
import { authorizationOf, type CapturedRequest, signatureHolds } from './sigv4.js';

/** One IAM authorization a request needs: what AWS evaluates (a TransactWriteItems is one per item). */
export interface IamCall {
  action: string;
  resource: string;
  context?: Record<string, string | string[]>;
}

/** How a local endpoint answers a refused request. */
export interface Refusal {
  status: number;
  type: 'AccessDeniedException' | 'UnrecognizedClientException' | 'InvalidSignatureException';
  message: string;
}

/**
 * How a local AWS endpoint hands a request to the gate: the request as received, the operation it names (an
 * `X-Amz-Target`'s, or DynamoDB's action), its parsed body; undefined lets it through.
 */
export type EndpointAuthorizer = (
  request: CapturedRequest,
  operation: string,
  input: Record<string, unknown>,
) => Promise<Refusal | undefined>;

export interface CheckedCall extends IamCall {
  function: string;
  allowed: boolean;
  /** What the run was doing (the gate's `label` at the time): a test's step. */
  label?: string;
}

export interface PermissionGate {
  /** The credentials a function of the stack signs with here. */
  credentialsOf(name: string): { accessKeyId: string; secretAccessKey: string };
  /** undefined when every call is allowed (or the request is the machine's own); the refusal otherwise. */
  authorize(request: CapturedRequest, calls: readonly IamCall[]): Promise<Refusal | undefined>;
  /** Every function's call evaluated so far, in order (allowed or not), when the gate records. */
  readonly checked: CheckedCall[];
  /** The calls refused so far (the last 1,000). */
  readonly refused: CheckedCall[];
  /** Set by a test between its steps: recorded calls carry it. */
  label?: string;
  /** Why `name`'s call would be refused, in AWS's words; undefined when it is allowed. Records nothing. */
  decide(name: string, call: IamCall): Promise<string | undefined>;
}

const KEY_PREFIX = 'LOCAL.';
/** Not a secret worth the name: it binds a call to a function here, on loopback, and protects nothing. */
const LOCAL_SECRET = 'gtt-gateway local credentials';

export const localCredentials = (name: string) => ({
  accessKeyId: `${KEY_PREFIX}${name}`,
  secretAccessKey: createHmac('sha256', LOCAL_SECRET).update(name).digest('hex'),
});

const document = (statements: unknown) => ({ Version: '2012-10-17', Statement: statements });

/** `{"AWS": "*"}` is how CDK writes an endpoint policy's principal; AWS takes it as `*`, as the evaluator wants it. */
const anyPrincipal = (statement: PolicyStatementJson): PolicyStatementJson =>
  JSON.stringify(statement.Principal) === JSON.stringify({ AWS: '*' }) ? { ...statement, Principal: '*' } : statement;

export interface GateOptions {
  /** Keep every evaluated call in `checked` (a test of which grant each call needs). Default: refusals only. */
  record?: boolean;
}

export const createPermissionGate = (
  permissions: StackPermissions,
  environments: LocalEnvironments,
  options: GateOptions = {},
): PermissionGate => {
  const { resolve } = createResolver(permissions, environments);
  const policies = new Map(
    Object.entries(permissions.functions).map(([name, fn]) => [
      name,
      {
        principal: localArn.role(fn.role),
        identity: document(resolve(fn.statements, fn.stack)),
        endpoints: fn.inVpc
          ? permissions.dynamodbEndpointPolicies.map((endpoint, i) => ({
              name: `DynamoDbEndpoint${i + 1}`,
              policy: document(
                (resolve(endpoint.statements, endpoint.stack) as PolicyStatementJson[]).map(anyPrincipal),
              ),
            }))
          : [],
      },
    ]),
  );
  /** The condition keys each function's statements (and its endpoint's) read. */
  const conditionKeysOf = new Map(
    [...policies].map(([name, policy]) => [
      name,
      new Set(
        [...JSON.stringify([policy.identity, policy.endpoints]).matchAll(/"([a-z0-9-]+:[A-Za-z0-9-]+)":/g)].map(
          (match) => match[1]!,
        ),
      ),
    ]),
  );
  const decisions = new Map<string, Promise<string | undefined>>();
  const checked: CheckedCall[] = [];
  const refused: CheckedCall[] = [];

  /** undefined when allowed; else why not, in AWS's words. */
  const evaluate = (name: string, asked: IamCall): Promise<string | undefined> => {
    // Condition keys no statement of the function's reads cannot change the answer: left out, the decision is cached
    // per action and resource (an order's idempotency record has a key of its own each time).
    const read = conditionKeysOf.get(name);
    const context = Object.fromEntries(Object.entries(asked.context ?? {}).filter(([key]) => read?.has(key)));
    const call = { ...asked, context };
    const cacheKey = JSON.stringify([name, call.action, call.resource, context]);
    let decision = decisions.get(cacheKey);
    if (!decision) {
      decision = (async () => {
        const policy = policies.get(name);
        const who = `User: arn:aws:sts::${LOCAL_ACCOUNT}:assumed-role/${policy?.principal.split('/').pop() ?? name}/${name}`;
        const what = `is not authorized to perform: ${call.action} on resource: ${call.resource}`;
        if (!policy) return `${who} ${what} because ${name} is not a function of the synthesized stacks`;
        const result = await runSimulation(
          {
            request: {
              principal: policy.principal,
              action: call.action,
              resource: { resource: call.resource, accountId: LOCAL_ACCOUNT },
              // Deployed, every call is over TLS.
              contextVariables: { 'aws:SecureTransport': 'true', ...call.context },
            },
            identityPolicies: [{ name: 'role', policy: policy.identity }],
            serviceControlPolicies: [],
            resourceControlPolicies: [],
            ...(call.action.startsWith('dynamodb:') && policy.endpoints.length
              ? { vpcEndpointPolicies: policy.endpoints }
              : {}),
          },
          {},
        );
        if (result.resultType === 'error')
          return `${who} ${what}: the policy could not be evaluated (${result.errors.message})`;
        if (result.overallResult === 'Allowed') return undefined;
        const analysis = result.resultType === 'single' ? result.result.analysis : result.results[0]?.analysis;
        const reasons = analysis ? getDenialReasons(analysis) : [];
        const byEndpoint = reasons.some((r) => r.policyType === 'vpce');
        const explicit = reasons.some((r) => r.denialType === 'Explicit');
        const because = explicit
          ? `with an explicit deny in a ${byEndpoint ? 'VPC endpoint' : 'identity-based'} policy`
          : byEndpoint && reasons.every((r) => r.policyType === 'vpce')
            ? `because no VPC endpoint policy allows the ${call.action} action`
            : `because no identity-based policy allows the ${call.action} action`;
        return `${who} ${what} ${because}`;
      })();
      // Bounded: a long `npm start` sees a key of its own per order where a condition reads the keys.
      if (decisions.size >= 10_000) decisions.clear();
      decisions.set(cacheKey, decision);
    }
    return decision;
  };

  const gate: PermissionGate = {
    credentialsOf: localCredentials,
    checked,
    refused,
    decide: evaluate,
    async authorize(request, calls) {
      let accessKeyId: string;
      try {
        accessKeyId = authorizationOf(request).accessKeyId;
      } catch {
        return {
          status: 400,
          type: 'InvalidSignatureException',
          message: 'The request carries no valid SigV4 Authorization header.',
        };
      }
      if (!accessKeyId.startsWith(KEY_PREFIX)) return undefined;
      const name = accessKeyId.slice(KEY_PREFIX.length);
      if (!(await signatureHolds(request, localCredentials(name))))
        return {
          status: 403,
          type: 'InvalidSignatureException',
          message:
            'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
        };
      for (const call of calls) {
        const denied = await evaluate(name, call);
        const seen: CheckedCall = {
          ...call,
          function: name,
          allowed: denied === undefined,
          ...(gate.label ? { label: gate.label } : {}),
        };
        if (options.record) checked.push(seen);
        if (denied) {
          refused.push(seen);
          // Every refusal of a run in one file, whichever process made it (a test run's workers).
          const log = process.env.GTT_LOCAL_PERMISSIONS_LOG;
          if (log) appendFileSync(log, `${JSON.stringify({ ...seen, message: denied })}\n`);
        }
        if (refused.length > 1_000) refused.shift();
        if (denied) return { status: 400, type: 'AccessDeniedException', message: denied };
      }
      return undefined;
    },
  };
  return gate;
};
