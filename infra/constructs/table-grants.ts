/**
 * The manifest's DynamoDB grants as one table (functions/base/definition/types.ts `Grant`): for each grant, the table
 * it is on and its statements, each the exact calls its function makes there. `grantAll` (grants.ts) turns each
 * statement into one IAM statement of the function's role; the static egress's DynamoDB endpoint policy
 * (egress.ts) allows on each table the union of what the functions in the VPC are granted there (`tableActionsOf`),
 * so the endpoint cannot drift from the roles.
 *
 * A transaction (TransactWriteItems) needs the action of each of its items (PutItem, UpdateItem, DeleteItem,
 * ConditionCheckItem); BatchWriteItem and BatchGetItem are actions of their own.
 */
import type { Grant } from '../../functions/manifest/index.js';

/** The stack's tables, by their names in `GrantResources` (grants.ts). */
export type GrantedTable = 'oauthStateTable' | 'idempotencyTable' | 'controlTable' | 'instrumentsTable' | 'eventsTable';

/** One IAM statement of a grant: these actions on its table. */
export interface TableStatement {
  actions: readonly string[];
}

export interface TableGrant {
  table: GrantedTable;
  statements: readonly TableStatement[];
}

/** Exactly what the journal of broker writes calls (orders/journal.ts, moves.ts, gone.ts; PutItem also writes an outbox item). */
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
/** The plan records (plans/store.ts): GetItem, conditional PutItem, the outbox emptied (UpdateItem), a refused plan's record removed (DeleteItem), Query. */
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
/**
 * What the OAuth function does with its state table (functions/session/oauth-state.ts): the conditional puts of a
 * state, the pending login and a code's claim (PutItem); a code-only callback's attempt on the pending login and on
 * its source's count (UpdateItem); a state or the pending login consumed (DeleteItem).
 */
export const OAUTH_STATE_TABLE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'];
/** The remote MCP function: the token item and day counter (GetItem, UpdateItem), the previews (PutItem, UpdateItem). */
export const MCP_EVENTS_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'] as const;

const on = (table: GrantedTable, ...statements: TableStatement[]): TableGrant => ({ table, statements });
const all = (actions: readonly string[]): TableStatement => ({ actions });

/** Every DynamoDB grant of the manifest: its table and statements. */
export const TABLE_GRANTS = {
  oauthStateTable: on('oauthStateTable', all(OAUTH_STATE_TABLE_ACTIONS)),
  idempotencyTable: on('idempotencyTable', all(IDEMPOTENCY_TABLE_ACTIONS)),
  'idempotencyTable:outbox': on('idempotencyTable', all(OUTBOX_TABLE_ACTIONS)),
  'controlTable:governor': on('controlTable', all(GOVERNOR_TABLE_ACTIONS)),
  'controlTable:switch': on('controlTable', all(KILL_SWITCH_TABLE_ACTIONS)),
  // The one-order read asks the order's lease when its last change through the gateway ended.
  'controlTable:leases': on('controlTable', all(LEASE_READ_ACTIONS)),
  'instrumentsTable:copy': on('instrumentsTable', all(INSTRUMENTS_COPY_TABLE_ACTIONS)),
  'instrumentsTable:refresh': on('instrumentsTable', all(INSTRUMENTS_REFRESH_TABLE_ACTIONS)),
  'eventsTable:history': on('eventsTable', all(EVENTS_HISTORY_TABLE_ACTIONS)),
  // Only where the stack has the table (grants.ts): without it (no watcher) GetGTTOrder reads the broker's list.
  'eventsTable:copy': on('eventsTable', all(COPY_EVENTS_TABLE_ACTIONS)),
  'eventsTable:plans': on('eventsTable', all(PLANS_EVENTS_TABLE_ACTIONS)),
  'eventsTable:watcher': on('eventsTable', all(WATCHER_EVENTS_TABLE_ACTIONS)),
  'eventsTable:forwarder': on('eventsTable', all(FORWARDER_EVENTS_TABLE_ACTIONS)),
  'eventsTable:strategies': on('eventsTable', all(STRATEGIES_EVENTS_TABLE_ACTIONS)),
  'eventsTable:assistants': on('eventsTable', all(ASSISTANTS_EVENTS_TABLE_ACTIONS)),
  'eventsTable:signals': on('eventsTable', all(SIGNALS_EVENTS_TABLE_ACTIONS)),
  'eventsTable:signalSweep': on('eventsTable', all(SIGNAL_SWEEP_EVENTS_TABLE_ACTIONS)),
  'eventsTable:mcp': on('eventsTable', all(MCP_EVENTS_TABLE_ACTIONS)),
} as const satisfies Partial<Record<Grant, TableGrant>>;

export type TableGrantName = keyof typeof TABLE_GRANTS;

export const isTableGrant = (grant: Grant): grant is TableGrantName => Object.hasOwn(TABLE_GRANTS, grant);

/**
 * What the functions with these grant lists may do on each table, whatever the items: the union of their statements'
 * actions per table (sorted), for the DynamoDB endpoint's policy. Only the tables some grant names are present.
 */
export const tableActionsOf = (grantLists: readonly (readonly Grant[])[]): Map<GrantedTable, string[]> => {
  const byTable = new Map<GrantedTable, Set<string>>();
  for (const grant of grantLists.flat()) {
    if (!isTableGrant(grant)) continue;
    const { table, statements } = TABLE_GRANTS[grant];
    const actions = byTable.get(table) ?? new Set<string>();
    for (const statement of statements) for (const action of statement.actions) actions.add(action);
    byTable.set(table, actions);
  }
  return new Map([...byTable].map(([table, actions]) => [table, [...actions].sort()]));
};
