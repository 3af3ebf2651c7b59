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
import { ASSISTANT_PARTITIONS } from '../../functions/assistants/store.js';
import { HISTORY_PK } from '../../functions/events/core/history.js';
import { KNOWN_PREFIX } from '../../functions/events/core/known-orders.js';
import { OUTBOX_ITEM_PREFIX } from '../../functions/events/core/outbox.js';
import { MARKER_PREFIX } from '../../functions/events/core/store.js';
import { COPY_PK, WATCHER_PK } from '../../functions/events/core/watcher-items.js';
import type { Grant } from '../../functions/manifest/index.js';
import { CONFIRMATION_PK } from '../../functions/mcp/confirmations.js';
import { GONE_PREFIX } from '../../functions/orders/gone.js';
import { LEASE_PREFIX } from '../../functions/orders/lease.js';
import { TRADING_PREFIX } from '../../functions/orders/safety/trading-controls.js';
import { PLAN_PK } from '../../functions/plans/store.js';
import { COVERAGE_PK } from '../../functions/risk/coverage-store.js';
import { RISK_PK } from '../../functions/risk/store.js';
import { SIGNAL_PARTITIONS } from '../../functions/signals/store.js';
import { STRATEGY_PARTITIONS } from '../../functions/signals/strategy-store.js';

/** The stack's tables, by their names in `GrantResources` (grants.ts). */
export type GrantedTable = 'oauthStateTable' | 'idempotencyTable' | 'controlTable' | 'instrumentsTable' | 'eventsTable';

/**
 * One IAM statement of a grant: these actions on its table, and with `keys` only on the items whose partition key
 * matches one of them (`ForAllValues:StringLike` on `dynamodb:LeadingKeys`: `*` matches any run of characters). For
 * a Query the leading key is the partition key of its key condition; for a BatchGetItem or BatchWriteItem every
 * partition key of the request on this table; in a transaction each item is its own call. Without `keys`, every item.
 */
export interface TableStatement {
  actions: readonly string[];
  keys?: readonly string[];
}

export interface TableGrant {
  table: GrantedTable;
  statements: readonly TableStatement[];
}

const GET = 'dynamodb:GetItem';
const PUT = 'dynamodb:PutItem';
const UPDATE = 'dynamodb:UpdateItem';
const DELETE = 'dynamodb:DeleteItem';
const QUERY = 'dynamodb:Query';
const CHECK = 'dynamodb:ConditionCheckItem';
const BATCH_GET = 'dynamodb:BatchGetItem';
const BATCH_WRITE = 'dynamodb:BatchWriteItem';

const on = (table: GrantedTable, ...statements: TableStatement[]): TableGrant => ({ table, statements });
/** On every item of the table: where its items are one kind of data shared by every caller (docs/reference/deploying.md). */
const all = (...actions: string[]): TableStatement => ({ actions });
/** Only on the items under these partition keys (exact, or a prefix with `*`). */
const under =
  (...keys: string[]) =>
  (...actions: string[]): TableStatement => ({ actions, keys });

// The partition keys each store writes and reads, as the stores name them (the grant and the code cannot disagree).
const prefix = (p: string) => `${p}*`;
const MARKERS = prefix(MARKER_PREFIX);
const KNOWN = prefix(KNOWN_PREFIX);
const { signal: SIGNAL, pending: SIGNAL_PENDING, rate: SIGNAL_RATE, dedupe: SIGNAL_DEDUPE } = SIGNAL_PARTITIONS;
const { item: STRATEGY, token: STRATEGY_TOKEN } = STRATEGY_PARTITIONS;
const { item: ASSISTANT, token: ASSISTANT_TOKEN, day: ASSISTANT_DAY } = ASSISTANT_PARTITIONS;

/**
 * Every DynamoDB grant of the manifest: its table and statements. The events table is shared by many functions, so
 * each has its own partitions there, and the calls on each; the idempotency, control and instruments tables are
 * whole-table where their items are one kind of data every caller of the order path shares (docs/reference/deploying.md,
 * "What each function may do").
 */
export const TABLE_GRANTS = {
  // The OAuth function's own table (functions/session/oauth-state.ts): the conditional puts of a state, the pending
  // login and a code's claim; a code-only callback's attempt on the pending login and on its source's count
  // (UpdateItem); a state or the pending login consumed.
  oauthStateTable: on('oauthStateTable', all(PUT, UPDATE, DELETE)),
  // The journal of broker writes (orders/journal.ts, moves.ts, gone.ts; a completed record carries its events, the
  // outbox): the order path of every operation, in the order functions and in-process (plans, watcher, worker).
  idempotencyTable: on('idempotencyTable', all(GET, PUT, UPDATE, DELETE)),
  // An outbox item of its own (events/core/outbox.ts): the kill switch's cancels, the signal webhook's events.
  'idempotencyTable:outbox': on('idempotencyTable', under(prefix(OUTBOX_ITEM_PREFIX))(PUT)),
  // The kill switch's record of a swept order that a journaled write placed (orders/gone.ts).
  'idempotencyTable:gone': on('idempotencyTable', under(prefix(GONE_PREFIX))(PUT)),
  // The order-rate governor's read and conditional put of the account's item, the order leases (a conditional put,
  // an update while an unknown outcome holds one, an update that gives it back: orders/lease.ts). Nothing deletes.
  'controlTable:governor': on('controlTable', under(prefix(TRADING_PREFIX), prefix(LEASE_PREFIX))(GET, PUT, UPDATE)),
  // The governor's calls, and the switch turned (or the session's end written): an UpdateItem of the account's item.
  'controlTable:switch': on('controlTable', under(prefix(TRADING_PREFIX), prefix(LEASE_PREFIX))(GET, PUT, UPDATE)),
  // A logout (Logout, SessionLogout) writes when the session ended on the account's item, nothing else.
  'controlTable:sessionEnd': on('controlTable', under(prefix(TRADING_PREFIX))(UPDATE)),
  // GetGTTOrder: the order's lease (when its last change ended), in its copy read's one BatchGetItem.
  'controlTable:leases': on('controlTable', under(prefix(LEASE_PREFIX))(BATCH_GET)),
  // The instruments' copy (orders/instruments/copy.ts): one item per instrument (`EXCH|TSYM`), read by the order path
  // and its rules written back (UpdateItem); the InstrumentRefresh's bulk load (BatchWriteItem) and symbols in use.
  'instrumentsTable:copy': on('instrumentsTable', all(GET, UPDATE)),
  'instrumentsTable:refresh': on('instrumentsTable', all(BATCH_WRITE, UPDATE)),
  // GET /events: a Query of the history (events/core/history.ts).
  'eventsTable:history': on('eventsTable', under(HISTORY_PK)(QUERY)),
  // The InstrumentRefresh: a Query of the plans, for the live ones' symbols (plans/store.ts).
  'eventsTable:planList': on('eventsTable', under(PLAN_PK)(QUERY)),
  // GetGTTOrder: the watcher's lease item (`copyAt`) and the order's copy, in one BatchGetItem (orders/gateway/order-copy.ts).
  // Only where the stack has the table (grants.ts): without it (no watcher) GetGTTOrder reads the broker's list.
  'eventsTable:copy': on('eventsTable', under(WATCHER_PK, COPY_PK)(BATCH_GET)),
  // The plan records (plans/store.ts): read, conditional put, the outbox emptied (UpdateItem), a refused plan's
  // record removed, listed (Query). Their events go to the outbox (the idempotency table).
  'eventsTable:plans': on('eventsTable', under(PLAN_PK)(GET, PUT, UPDATE, DELETE, QUERY)),
  // The day's limits (risk/store.ts): the settings, the day's state (a conditional put over its version) and a
  // PUT's key item (in one transaction with the settings: PutItem each); read by GetItem. The Risk function and the
  // watcher's check.
  'eventsTable:risk': on('eventsTable', under(RISK_PK)(GET, PUT)),
  // The coverage settings (risk/coverage-store.ts): read and written whole by the Coverage function, read by the watcher.
  'eventsTable:coverage': on('eventsTable', under(COVERAGE_PK)(GET, PUT)),
  'eventsTable:coverageRead': on('eventsTable', under(COVERAGE_PK)(GET)),
  // The watcher (events/core/store.ts): its lease taken and given back (UpdateItem) and its items read (Query),
  // markers and the views of the orders gone from the list read (BatchGetItem), an event's marker, history and known
  // order in one transaction (PutItem each: events/core/published.ts), its order items, the copy and the markers
  // of a first run's settled ids written (BatchWriteItem).
  'eventsTable:watcher': on(
    'eventsTable',
    under(WATCHER_PK)(UPDATE, QUERY),
    under(MARKERS, WATCHER_PK)(BATCH_GET),
    under(MARKERS, HISTORY_PK, KNOWN)(PUT),
    under(MARKERS, WATCHER_PK, COPY_PK)(BATCH_WRITE),
  ),
  // The EventForwarder: markers read (BatchGetItem); a cancelled order as last known (Query of its `known#` items,
  // else GetItem of the watcher's view); an event's marker, history and known order in one transaction (PutItem
  // each: events/core/published.ts).
  'eventsTable:forwarder': on(
    'eventsTable',
    under(MARKERS)(BATCH_GET),
    under(KNOWN)(QUERY),
    under(WATCHER_PK)(GET),
    under(MARKERS, HISTORY_PK, KNOWN)(PUT),
  ),
  // Strategies (signals/strategy-store.ts): the records and token items put, moved (a PATCH's transaction updates
  // both), deleted; the records read and listed; the signals read back (signals/signal-list.ts).
  'eventsTable:strategies': on(
    'eventsTable',
    under(STRATEGY, STRATEGY_TOKEN)(PUT, UPDATE, DELETE),
    under(STRATEGY, SIGNAL)(GET, QUERY),
  ),
  // Assistants (assistants/store.ts): the records and token items put, moved, deleted; the records read and listed.
  'eventsTable:assistants': on(
    'eventsTable',
    under(ASSISTANT, ASSISTANT_TOKEN)(PUT, UPDATE, DELETE),
    under(ASSISTANT)(GET, QUERY),
  ),
  // The signal webhook (signals/strategy-cache.ts, intake.ts): the token item read, then one transaction: the
  // ConditionCheck on the token item, the rate counter (a conditional UpdateItem), the duplicate claim, the signal
  // and its pending marker (PutItem); the claim read when a duplicate's cancellation did not carry it.
  'eventsTable:signals': on(
    'eventsTable',
    under(STRATEGY_TOKEN, SIGNAL_DEDUPE)(GET),
    under(STRATEGY_TOKEN)(CHECK),
    under(SIGNAL_RATE)(UPDATE),
    under(SIGNAL, SIGNAL_PENDING, SIGNAL_DEDUPE)(PUT),
  ),
  // The signal worker (signals/store.ts, worker.ts): the signal and its strategy read; the signal's strategy
  // recorded, its completion (a transaction with its marker's delete) and its pending event cleared (UpdateItem);
  // the marker removed.
  'eventsTable:signalWorker': on(
    'eventsTable',
    under(SIGNAL, STRATEGY)(GET),
    under(SIGNAL)(UPDATE),
    under(SIGNAL_PENDING)(DELETE),
  ),
  // The worker's sweep (signals/sweep.ts): a Query of the pending markers, oldest first.
  'eventsTable:signalSweep': on('eventsTable', under(SIGNAL_PENDING)(QUERY)),
  // The remote MCP function: an assistant's token item, its day counter (read, counted by a conditional
  // UpdateItem: assistants/store.ts) and the previews awaiting a confirm (put, taken and settled: mcp/confirmations.ts).
  'eventsTable:mcp': on(
    'eventsTable',
    under(ASSISTANT_TOKEN, ASSISTANT_DAY, CONFIRMATION_PK)(GET),
    under(ASSISTANT_DAY, CONFIRMATION_PK)(UPDATE),
    under(CONFIRMATION_PK)(PUT),
  ),
} as const satisfies Partial<Record<Grant, TableGrant>>;

export type TableGrantName = keyof typeof TABLE_GRANTS;

export const isTableGrant = (grant: Grant): grant is TableGrantName => Object.hasOwn(TABLE_GRANTS, grant);

/** Every action of a grant, whatever the items (sorted). */
export const grantActions = (grant: TableGrantName): string[] =>
  [...new Set(TABLE_GRANTS[grant].statements.flatMap((s) => s.actions))].sort();

/** The IAM condition of a statement: its partition keys, or none. */
export const leadingKeysCondition = (statement: TableStatement) =>
  statement.keys ? { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...statement.keys] } } : undefined;

export const FORWARDER_EVENTS_TABLE_ACTIONS = grantActions('eventsTable:forwarder');
export const WATCHER_EVENTS_TABLE_ACTIONS = grantActions('eventsTable:watcher');
export const PLANS_EVENTS_TABLE_ACTIONS = grantActions('eventsTable:plans');
export const OAUTH_STATE_TABLE_ACTIONS = grantActions('oauthStateTable');

/**
 * What the functions with these grant lists may do on each table, whatever the items: the union of their statements'
 * actions per table (sorted), for the DynamoDB endpoint's policy. Only the tables some grant names are present.
 */
export const tableActionsOf = (grantLists: readonly (readonly Grant[])[]): Map<GrantedTable, string[]> => {
  const byTable = new Map<GrantedTable, Set<string>>();
  for (const grant of grantLists.flat()) {
    if (!isTableGrant(grant)) continue;
    const { table } = TABLE_GRANTS[grant];
    const actions = byTable.get(table) ?? new Set<string>();
    for (const action of grantActions(grant)) actions.add(action);
    byTable.set(table, actions);
  }
  return new Map([...byTable].map(([table, actions]) => [table, [...actions].sort()]));
};
