/**
 * The manifest's grants as IAM (functions/base/definition/types.ts `Grant`): each grant is the exact calls its function
 * makes on one resource of the stack, and nothing is granted any other way. The table actions are exported for the
 * static egress's DynamoDB endpoint policy (infra/constructs/egress.ts), which allows the same calls.
 */
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';

import type { Grant } from '../../functions/manifest/index.js';

/** Exactly what Powertools' DynamoDB persistence layer calls (PutItem also writes an outbox item, orders/events/outbox.ts). */
export const IDEMPOTENCY_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
] as const;
/** The kill switch's cancels carry no idempotency key: each puts its event's outbox item (PutItem only). */
export const OUTBOX_TABLE_ACTIONS = ['dynamodb:PutItem'] as const;
/**
 * What the order functions do on the control table: the governor's consistent read and conditional put, and the
 * order leases of modify, PATCH and cancel (a conditional put, an update while an unknown outcome holds it, a delete).
 */
export const GOVERNOR_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
] as const;
/** GetGTTOrder reads an order's lease (when its last change ended) in its copy read's one BatchGetItem. */
export const LEASE_READ_ACTIONS = ['dynamodb:BatchGetItem'] as const;
/** The kill switch also turns the switch (an UpdateItem of the account's item, already among the governor's). */
export const KILL_SWITCH_TABLE_ACTIONS = GOVERNOR_TABLE_ACTIONS;
/** The events history only reads: a Query of the account's events. */
export const EVENTS_HISTORY_TABLE_ACTIONS = ['dynamodb:Query'] as const;
/** The watcher's copy of the pending list, one order at a time (GetGTTOrder). */
export const COPY_EVENTS_TABLE_ACTIONS = ['dynamodb:BatchGetItem'] as const;
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
/**
 * What the EventForwarder does in the events table: read markers (BatchGetItem), read a cancelled order as it was
 * last known (Query of its `known#` items, else GetItem of the watcher's view), write markers, history and known
 * orders (BatchWriteItem). The order functions have nothing there any more: their events go to the outbox (the
 * idempotency table) and the forwarder publishes them.
 */
export const FORWARDER_EVENTS_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:Query',
  'dynamodb:BatchGetItem',
  'dynamodb:BatchWriteItem',
];
/**
 * What the watcher does there: take and give back its lease (UpdateItem), read its order items (Query), read
 * markers (BatchGetItem), write markers and the order items that changed (BatchWriteItem).
 */
export const WATCHER_EVENTS_TABLE_ACTIONS = [
  'dynamodb:UpdateItem',
  'dynamodb:Query',
  'dynamodb:BatchGetItem',
  'dynamodb:BatchWriteItem',
];
/** Strategies (functions/signals/strategy-store.ts): records and token items read, put, moved and deleted, listed. */
export const STRATEGIES_EVENTS_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:Query',
] as const;
/** Assistants (functions/assistants/store.ts): records and token items read, put, moved and deleted, listed. */
export const ASSISTANTS_EVENTS_TABLE_ACTIONS = STRATEGIES_EVENTS_TABLE_ACTIONS;
/**
 * The webhook and the worker (functions/signals/intake.ts, store.ts): the token look-up, then each one
 * TransactWriteItems, which needs the action of each of its items: the webhook's ConditionCheck on the token item,
 * the rate counter (a conditional UpdateItem), the duplicate claim (a conditional PutItem), the signal and its
 * pending marker put; the worker's signal completed (UpdateItem) and its marker deleted.
 */
export const SIGNALS_EVENTS_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:ConditionCheckItem',
] as const;
/** The signal worker's sweep (functions/signals/sweep.ts): a Query of the pending signals' markers, oldest first. */
export const SIGNAL_SWEEP_EVENTS_TABLE_ACTIONS = ['dynamodb:Query'] as const;
/** The order path on the instruments' copy: its GetItem, and the UpdateItem of rules it had to read from the broker. */
export const INSTRUMENTS_COPY_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:UpdateItem'] as const;
/** The InstrumentRefresh: the masters' rows (BatchWriteItem of puts) and the symbols in use (UpdateItem). */
export const INSTRUMENTS_REFRESH_TABLE_ACTIONS = ['dynamodb:BatchWriteItem', 'dynamodb:UpdateItem'] as const;
/** What the OAuth function does with its state table (functions/session/oauth-state.ts): conditional put and delete. */
export const OAUTH_STATE_TABLE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:DeleteItem'];

/** The remote MCP function: the token item and day counter (GetItem, UpdateItem), the previews (PutItem, UpdateItem). */
export const MCP_EVENTS_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'] as const;

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
  const table = (t: dynamodb.ITable | undefined, grant: Grant, actions: readonly string[]) =>
    needed(t, grant, name).grant(role, ...actions);
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
      case 'oauthStateTable':
        table(r.oauthStateTable, grant, OAUTH_STATE_TABLE_ACTIONS);
        break;
      case 'idempotencyTable':
        table(r.idempotencyTable, grant, IDEMPOTENCY_TABLE_ACTIONS);
        break;
      case 'idempotencyTable:outbox':
        table(r.idempotencyTable, grant, OUTBOX_TABLE_ACTIONS);
        break;
      case 'controlTable:governor':
        table(r.controlTable, grant, GOVERNOR_TABLE_ACTIONS);
        break;
      case 'controlTable:switch':
        table(r.controlTable, grant, KILL_SWITCH_TABLE_ACTIONS);
        break;
      case 'instrumentsTable:copy':
        table(r.instrumentsTable, grant, INSTRUMENTS_COPY_TABLE_ACTIONS);
        break;
      case 'instrumentsTable:refresh':
        table(r.instrumentsTable, grant, INSTRUMENTS_REFRESH_TABLE_ACTIONS);
        break;
      case 'eventsTable:history':
        table(r.eventsTable, grant, EVENTS_HISTORY_TABLE_ACTIONS);
        break;
      case 'controlTable:leases':
        // The one-order read asks the order's lease when its last change through the gateway ended.
        table(r.controlTable, grant, LEASE_READ_ACTIONS);
        break;
      case 'eventsTable:copy':
        // Only where the stack has the table: without it (no watcher) GetGTTOrder reads the broker's list.
        if (r.eventsTable) table(r.eventsTable, grant, COPY_EVENTS_TABLE_ACTIONS);
        break;
      case 'eventsTable:plans':
        table(r.eventsTable, grant, PLANS_EVENTS_TABLE_ACTIONS);
        break;
      case 'eventsTable:watcher':
        table(r.eventsTable, grant, WATCHER_EVENTS_TABLE_ACTIONS);
        break;
      case 'eventsTable:forwarder':
        table(r.eventsTable, grant, FORWARDER_EVENTS_TABLE_ACTIONS);
        break;
      case 'eventsTable:strategies':
        table(r.eventsTable, grant, STRATEGIES_EVENTS_TABLE_ACTIONS);
        break;
      case 'eventsTable:assistants':
        table(r.eventsTable, grant, ASSISTANTS_EVENTS_TABLE_ACTIONS);
        break;
      case 'eventsTable:signals':
        table(r.eventsTable, grant, SIGNALS_EVENTS_TABLE_ACTIONS);
        break;
      case 'eventsTable:signalSweep':
        table(r.eventsTable, grant, SIGNAL_SWEEP_EVENTS_TABLE_ACTIONS);
        break;
      case 'signalQueue:send':
        needed(r.signalQueue, grant, name).grantSendMessages(role);
        break;
      case 'eventsTable:mcp':
        table(r.eventsTable, grant, MCP_EVENTS_TABLE_ACTIONS);
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
