/**
 * The manifest's grants as IAM (functions/base/definition/types.ts `Grant`): each grant is the exact calls its function
 * makes on one resource of the stack, and nothing is granted any other way. The DynamoDB grants are the table of
 * table-grants.ts, from which the static egress's DynamoDB endpoint policy (egress.ts) is derived too.
 */
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';

import type { Grant } from '../../functions/manifest/index.js';
import { type GrantedTable, isTableGrant, leadingKeysCondition, TABLE_GRANTS } from './table-grants.js';

export {
  FORWARDER_EVENTS_TABLE_ACTIONS,
  OAUTH_STATE_TABLE_ACTIONS,
  PLANS_EVENTS_TABLE_ACTIONS,
  WATCHER_EVENTS_TABLE_ACTIONS,
} from './table-grants.js';

/** The resources the grants name; a grant whose resource the stack has not made fails the synth. */
export interface GrantResources {
  sessionSecret: secretsmanager.ISecret;
  oauthAppSecret?: secretsmanager.ISecret;
  loginSecret?: secretsmanager.ISecret;
  oauthStateTable?: dynamodb.ITable;
  idempotencyTable: dynamodb.ITable;
  controlTable: dynamodb.ITable;
  instrumentsTable?: dynamodb.ITable;
  eventsTable?: dynamodb.ITable;
  bus?: events.IEventBus;
  signalQueue?: sqs.IQueue;
  /** The execute-api ARNs of the signed routes of these operations (`api:invoke`). */
  apiRoutes?: (operationIds: readonly string[]) => string[];
}

/** A function's own form of a grant (the formatter's PutEvents of its own source only). */
export type GrantOverrides = Partial<Record<Grant, (role: iam.IRole) => void>>;

const needed = <T>(value: T | undefined, grant: Grant, name: string): T => {
  if (value === undefined) throw new Error(`${name} has the grant ${grant}, but the stack has no resource for it`);
  return value;
};

/**
 * The session secret's write: exactly the call functions/session/secrets.ts makes (a new version); grantWrite would
 * add UpdateSecret (description, KMS key) and UpdateSecretVersionStage, which nothing here needs.
 */
export const sessionSecretWrite =
  (secret: secretsmanager.ISecret, sid: string) =>
  (role: iam.IRole): void => {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ sid, actions: ['secretsmanager:PutSecretValue'], resources: [secret.secretArn] }),
    );
  };

/**
 * Grants a function's role its manifest grants, in the manifest's order (the order of the role's statements).
 * `sessionSecret:write` includes the read, which is granted once.
 */
export const grantAll = (
  name: string,
  role: iam.IRole,
  grants: readonly Grant[],
  r: GrantResources,
  overrides: GrantOverrides = {},
  invokes?: readonly string[],
): void => {
  const tables: Record<GrantedTable, dynamodb.ITable | undefined> = {
    oauthStateTable: r.oauthStateTable,
    idempotencyTable: r.idempotencyTable,
    controlTable: r.controlTable,
    instrumentsTable: r.instrumentsTable,
    eventsTable: r.eventsTable,
  };
  let secretRead = false;
  const readSessionSecret = () => {
    if (!secretRead) r.sessionSecret.grantRead(role);
    secretRead = true;
  };
  for (const grant of grants) {
    const own = overrides[grant];
    if (grant === 'sessionSecret:write') readSessionSecret();
    if (own) {
      own(role);
      continue;
    }
    if (isTableGrant(grant)) {
      const { table, statements } = TABLE_GRANTS[grant];
      // Only where the stack has the table: without it (no watcher) GetGTTOrder reads the broker's list.
      if (grant === 'eventsTable:copy' && !tables[table]) continue;
      const arn = needed(tables[table], grant, name).tableArn;
      for (const statement of statements) {
        const conditions = leadingKeysCondition(statement);
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            actions: [...statement.actions],
            resources: [arn],
            ...(conditions ? { conditions } : {}),
          }),
        );
      }
      continue;
    }
    switch (grant) {
      case 'sessionSecret:read':
        readSessionSecret();
        break;
      case 'sessionSecret:write':
        sessionSecretWrite(r.sessionSecret, 'WriteSessionSecret')(role);
        break;
      case 'oauthAppSecret:read':
        needed(r.oauthAppSecret, grant, name).grantRead(role);
        break;
      case 'loginSecret:read':
        needed(r.loginSecret, grant, name).grantRead(role);
        break;
      case 'signalQueue:send':
        needed(r.signalQueue, grant, name).grantSendMessages(role);
        break;
      case 'api:invoke':
        if (!invokes?.length) throw new Error(`${name} has the grant api:invoke, but its definition invokes nothing`);
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            actions: ['execute-api:Invoke'],
            resources: needed(r.apiRoutes, grant, name)(invokes),
          }),
        );
        NagSuppressions.addResourceSuppressions(
          role,
          [
            {
              id: 'AwsSolutions-IAM5',
              reason:
                "Each route's own ARN on the $default stage: a path parameter ({alId}, {planId}) is one `*` segment, as execute-api ARNs name it; only the routes of the operations the function's definition invokes.",
              appliesTo: [
                { regex: '/^Resource::arn:<AWS::Partition>:execute-api:.*\\/\\$default\\/[A-Z]+\\/.*\\*.*$/g' },
              ],
            },
          ],
          true,
        );
        break;
      case 'bus:publish':
        needed(r.bus, grant, name).grantPutEventsTo(role);
        break;
      default: {
        const unknown: never = grant;
        throw new Error(`${name}: unknown grant ${String(unknown)}`);
      }
    }
  }
};
