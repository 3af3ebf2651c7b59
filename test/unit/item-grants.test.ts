/**
 * Every item a store reads or writes is within its function's grant (infra/constructs/table-grants.ts): each call
 * below is a function's DynamoDB call with the key its store builds (the stores' own key functions and partition
 * names, never a copy), checked against the function's manifest grants as IAM would check them: the action, and the
 * partition key against the statement's `dynamodb:LeadingKeys` patterns (StringLike). A batch is allowed only when
 * one statement covers every partition key of it.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';

import { assistantItemKey, dayItemKey, tokenItemKey as assistantTokenKey } from '../../functions/assistants/store.js';
import type { SignalRecord } from '../../functions/base/schemas/signals.js';
import { HISTORY_PK } from '../../functions/events/core/history.js';
import { KNOWN_PREFIX } from '../../functions/events/core/known-orders.js';
import { OUTBOX_ITEM_PREFIX } from '../../functions/events/core/outbox.js';
import { MARKER_PREFIX } from '../../functions/events/core/store.js';
import { copyItemKey, LEASE_SK, ORDER_PREFIX, watcherKey } from '../../functions/events/core/watcher-items.js';
import { FUNCTIONS } from '../../functions/manifest/index.js';
import { CONFIRMATION_PK } from '../../functions/mcp/confirmations.js';
import { GONE_PREFIX } from '../../functions/orders/gone.js';
import { leaseKey } from '../../functions/orders/lease.js';
import { TRADING_PREFIX } from '../../functions/orders/safety/trading-controls.js';
import { PLAN_PK } from '../../functions/plans/store.js';
import {
  dedupeItemKey,
  pendingKey,
  rateItemKey,
  SIGNAL_PARTITIONS,
  signalItem,
} from '../../functions/signals/store.js';
import { StrategyStore, tokenItemKey as strategyTokenKey } from '../../functions/signals/strategy-store.js';
import { type GrantedTable, isTableGrant, TABLE_GRANTS } from '../../infra/constructs/table-grants.js';

const pk = (key: Record<string, AttributeValue>): string => key.pk!.S!;
const d = (action: string) => `dynamodb:${action}`;
/** A call: its table, action and the partition keys it names there (one, or a batch's). */
type Call = [GrantedTable, string, string[]];
const events = (action: string, ...keys: string[]): Call => ['eventsTable', d(action), keys];

const strategyItem = pk(new StrategyStore({ tableName: 'events' }).itemKey('st0123456789abcdef'));
const strategyToken = pk(strategyTokenKey('0'.repeat(64)));
const signal = { signalId: 'sg0123456789abcdef01234567', receivedAt: '2026-01-05T09:15:00.000Z' } as SignalRecord;
const signalKey = pk(signalItem({ ...signal, strategyId: 'st0123456789abcdef', state: 'received' } as SignalRecord));
const pending = pk(pendingKey(signal));
const marker = `${MARKER_PREFIX}ev-1`;
const known = `${KNOWN_PREFIX}24010500001`;
const watcher = pk(watcherKey(LEASE_SK));
const watcherOrder = pk(watcherKey(`${ORDER_PREFIX}24010500001`));
const copy = pk(copyItemKey('24010500001'));

/** Each function's table calls, by its manifest name. */
const CALLS: Record<string, Call[]> = {
  SignalWebhook: [
    events('GetItem', strategyToken),
    events('ConditionCheckItem', strategyToken),
    events('UpdateItem', pk(rateItemKey('st0123456789abcdef', 29_000_000))),
    events('PutItem', pk(dedupeItemKey('st0123456789abcdef', 'alert-1'))),
    events('PutItem', pending),
    events('PutItem', signalKey),
    events('GetItem', pk(dedupeItemKey('st0123456789abcdef', 'alert-1'))),
    ['idempotencyTable', d('PutItem'), [`${OUTBOX_ITEM_PREFIX}ev-1`]],
  ],
  SignalWorker: [
    events('GetItem', signalKey),
    events('GetItem', strategyItem),
    events('UpdateItem', signalKey),
    events('DeleteItem', pending),
    events('Query', SIGNAL_PARTITIONS.pending),
    events('PutItem', PLAN_PK),
    events('Query', PLAN_PK),
  ],
  Strategies: [
    events('PutItem', strategyItem),
    events('PutItem', strategyToken),
    events('UpdateItem', strategyItem),
    events('UpdateItem', strategyToken),
    events('DeleteItem', strategyToken),
    events('DeleteItem', strategyItem),
    events('GetItem', strategyItem),
    events('Query', strategyItem),
    events('GetItem', signalKey),
    events('Query', SIGNAL_PARTITIONS.signal),
  ],
  Assistants: [
    ...['PutItem', 'UpdateItem', 'DeleteItem', 'GetItem', 'Query'].map((a) => events(a, pk(assistantItemKey('as1')))),
    ...['PutItem', 'DeleteItem'].map((a) => events(a, pk(assistantTokenKey('0'.repeat(64))))),
  ],
  McpServer: [
    events('GetItem', pk(assistantTokenKey('0'.repeat(64)))),
    events('GetItem', pk(dayItemKey('as1', '2026-01-05'))),
    events('UpdateItem', pk(dayItemKey('as1', '2026-01-05'))),
    events('PutItem', CONFIRMATION_PK),
    events('GetItem', CONFIRMATION_PK),
    events('UpdateItem', CONFIRMATION_PK),
  ],
  GttWatcher: [
    events('UpdateItem', watcher),
    events('Query', watcher),
    events('BatchGetItem', marker, `${MARKER_PREFIX}ev-2`),
    // An event recorded: its marker, history item and known order, each a PutItem of one transaction.
    events('PutItem', marker),
    events('PutItem', HISTORY_PK),
    events('PutItem', known),
    // A first run's settled ids: their markers alone.
    events('BatchWriteItem', marker, `${MARKER_PREFIX}ev-2`),
    events('BatchWriteItem', watcherOrder, watcher),
    events('BatchWriteItem', copy),
    events('PutItem', PLAN_PK),
  ],
  EventForwarder: [
    events('BatchGetItem', marker),
    events('Query', known),
    events('GetItem', watcherOrder),
    events('PutItem', marker),
    events('PutItem', HISTORY_PK),
    events('PutItem', known),
  ],
  EventsHistory: [events('Query', HISTORY_PK)],
  InstrumentRefresh: [events('Query', PLAN_PK)],
  GetGTTOrder: [
    events('BatchGetItem', watcher, copy),
    ['controlTable', d('BatchGetItem'), [pk(leaseKey('FA0001', '24010500001'))]],
  ],
  Plans: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query'].map((a) => events(a, PLAN_PK)),
  KillSwitch: [
    ['idempotencyTable', d('PutItem'), [`${OUTBOX_ITEM_PREFIX}ev-1`]],
    ['idempotencyTable', d('PutItem'), [`${GONE_PREFIX}stamp`]],
    ['controlTable', d('UpdateItem'), [`${TRADING_PREFIX}FA0001`]],
    ['controlTable', d('PutItem'), [pk(leaseKey('FA0001', '24010500001'))]],
  ],
  PlaceGTTOrder: [
    ['controlTable', d('GetItem'), [`${TRADING_PREFIX}FA0001`]],
    ['controlTable', d('PutItem'), [`${TRADING_PREFIX}FA0001`]],
  ],
  ModifyGTTOrder: ['PutItem', 'UpdateItem'].map((a) => ['controlTable', d(a), [pk(leaseKey('FA0001', '24010500001'))]]),
};

/** A StringLike pattern (`*` any run, `?` one character) as a regular expression. */
const like = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );

const allowed = (name: string, [table, action, keys]: Call): boolean => {
  const definition = FUNCTIONS.find((f) => f.name === name)!;
  return definition.grants
    .filter(isTableGrant)
    .map((g) => TABLE_GRANTS[g])
    .filter((g) => g.table === table)
    .some((g) =>
      g.statements.some(
        (s) =>
          s.actions.includes(action) &&
          (s.keys === undefined || keys.every((key) => s.keys!.some((pattern) => like(pattern).test(key)))),
      ),
    );
};

describe('every item a store reads or writes is within its function’s grant', () => {
  it.each(Object.entries(CALLS))('%s', (name, calls) => {
    expect(FUNCTIONS.some((f) => f.name === name)).toBe(true);
    expect(calls.filter((call) => !allowed(name, call))).toEqual([]);
  });

  it('and not beyond: a function is refused the partitions of another', () => {
    // The unsigned routes' roles: the MCP function cannot touch an assistant's record or a strategy, the webhook
    // cannot change a strategy or write the journal's records.
    expect(allowed('McpServer', events('UpdateItem', pk(assistantItemKey('as1'))))).toBe(false);
    expect(allowed('McpServer', events('PutItem', strategyItem))).toBe(false);
    expect(allowed('SignalWebhook', events('UpdateItem', strategyToken))).toBe(false);
    expect(allowed('SignalWebhook', ['idempotencyTable', d('PutItem'), ['gtt-gateway.PlaceGTTOrder#abc']])).toBe(false);
    // A batch is one call: every key of it must be the function's.
    expect(allowed('EventForwarder', events('BatchWriteItem', marker, watcher))).toBe(false);
    expect(allowed('Assistants', events('Query', SIGNAL_PARTITIONS.signal))).toBe(false);
  });
});
