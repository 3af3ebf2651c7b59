/**
 * Item-level grants on the shared tables, read from the default template: every statement on the events table names
 * the partitions it may touch (`dynamodb:LeadingKeys`), each partition is written only by the functions that own it
 * (so the role behind the unsigned `/mcp` route cannot rewrite an assistant or a strategy), and the template's
 * statements are exactly the grant table's (infra/constructs/table-grants.ts).
 */
import { describe, expect, it } from 'vitest';

import { FUNCTIONS } from '../../functions/manifest/index.js';
import { isTableGrant, TABLE_GRANTS } from '../../infra/constructs/table-grants.js';
import { statementsByFunction } from '../support/events-template.js';
import { gateway, useDefaultStacks } from '../support/stacks-template.js';

useDefaultStacks();

type Statement = {
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, string | string[]>>;
};
const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

const tableId = (prefix: string) =>
  Object.keys(gateway.findResources('AWS::DynamoDB::Table')).find((id) => id.startsWith(prefix))!;
/** The statements on the table's items (its ARN; the stream's, read by Lambda's poller, is not an item). */
const on = (statements: Statement[], table: string) =>
  statements.filter(
    (s) =>
      list(s.Resource).some((r) => JSON.stringify(r) === JSON.stringify({ 'Fn::GetAtt': [table, 'Arn'] })) &&
      list(s.Action).some((a) => a.startsWith('dynamodb:')),
  );
const keysOf = (s: Statement): string[] | undefined => {
  const keys = s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
  return keys === undefined ? undefined : list(keys);
};
const byFunction = () => statementsByFunction(gateway) as Map<string, Statement[]>;

/** The functions (by their names in the template) that may write each partition of a table. */
const writersOf = (table: string) => {
  const writers = new Map<string, string[]>();
  for (const [fn, statements] of byFunction())
    for (const s of on(statements, table))
      if (list(s.Action).some((a) => WRITES.includes(a)))
        for (const key of keysOf(s) ?? ['(every item)'])
          writers.set(key, [...new Set([...(writers.get(key) ?? []), fn])].sort());
  return Object.fromEntries([...writers].sort(([a], [b]) => a.localeCompare(b)));
};

describe('item-level grants on the events table', () => {
  it('every statement of every function there names the partitions it may touch', () => {
    const events = tableId('EventsTable');
    let statements = 0;
    for (const [fn, all] of byFunction())
      for (const s of on(all, events)) {
        statements++;
        expect(Object.keys(s.Condition ?? {}), fn).toEqual(['ForAllValues:StringLike']);
        expect(keysOf(s)!.length, fn).toBeGreaterThan(0);
      }
    expect(statements).toBeGreaterThan(20);
  });

  it('each partition is written only by the functions that own it', () => {
    expect(writersOf(tableId('EventsTable'))).toEqual({
      // An assistant's record (its scopes and limits) and token item: the Assistants function only.
      assistant: ['Assistants'],
      // The coverage settings: written by PUT /positions/coverage only (the watcher reads them).
      coverage: ['Coverage'],
      'assistant-token': ['Assistants'],
      // The day's order counter and the previews: the remote MCP function only.
      'assistant-day': ['McpServer'],
      'mcp-confirmation': ['McpServer'],
      // The lifecycle events' markers, history and known orders: their two producers.
      history: ['EventsEventForwarder', 'EventsGttWatcher'],
      'known#*': ['EventsEventForwarder', 'EventsGttWatcher'],
      'published#*': ['EventsEventForwarder', 'EventsGttWatcher'],
      // The day's limits: set by the Risk function, the day's state by the watcher's check.
      risk: ['EventsGttWatcher', 'Risk'],
      // The plans: the Plans function, and the two that carry them out.
      plan: ['EventsGttWatcher', 'Plans', 'SignalWorker'],
      // The signals: received by the webhook, completed by the worker.
      signal: ['SignalWebhook', 'SignalWorker'],
      'signal-dedupe': ['SignalWebhook'],
      'signal-pending': ['SignalWebhook', 'SignalWorker'],
      'signal-rate': ['SignalWebhook'],
      // A strategy and its token item: the Strategies function only.
      strategy: ['Strategies'],
      'strategy-token': ['Strategies'],
      // The watcher's state and its copy of the pending list.
      watcher: ['EventsGttWatcher'],
      'watcher-copy': ['EventsGttWatcher'],
    });
  });

  it('the unsigned /mcp route’s role reads a token, counts its day and keeps its previews, and nothing else', () => {
    const mcp = on(byFunction().get('McpServer')!, tableId('EventsTable'));
    expect(mcp.map((s) => [list(s.Action).sort(), keysOf(s)])).toEqual([
      [['dynamodb:GetItem'], ['assistant-token', 'assistant-day', 'mcp-confirmation']],
      [['dynamodb:UpdateItem'], ['assistant-day', 'mcp-confirmation']],
      [['dynamodb:PutItem'], ['mcp-confirmation']],
    ]);
  });

  it('the Assistants function is granted exactly the assistants’ records and token items (docs/reference/assistants.md)', () => {
    const assistants = on(byFunction().get('Assistants')!, tableId('EventsTable'));
    expect(assistants.map((s) => [list(s.Action).sort(), keysOf(s)])).toEqual([
      [
        ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
        ['assistant', 'assistant-token'],
      ],
      [['dynamodb:GetItem', 'dynamodb:Query'], ['assistant']],
    ]);
  });

  it('the template’s statements on every table are the grant table’s, function by function', () => {
    const tables = {
      eventsTable: tableId('EventsTable'),
      idempotencyTable: tableId('IdempotencyTable'),
      controlTable: tableId('ControlTable'),
      instrumentsTable: tableId('InstrumentsTable'),
      oauthStateTable: tableId('SessionOAuthStateTable'),
    };
    const shape = (actions: readonly string[], keys?: readonly string[]) =>
      JSON.stringify([[...actions].sort(), keys ? [...keys] : null]);
    let checked = 0;
    for (const [fn, statements] of byFunction()) {
      const definition = FUNCTIONS.find((f) => [f.name, `Events${f.name}`, `Session${f.name}`].includes(fn));
      if (!definition) continue;
      for (const [name, id] of Object.entries(tables)) {
        const granted = definition.grants
          .filter(isTableGrant)
          .filter((g) => TABLE_GRANTS[g].table === name)
          .flatMap((g) => TABLE_GRANTS[g].statements.map((s) => shape(s.actions, s.keys)));
        const inTemplate = on(statements, id).map((s) => shape(list(s.Action), keysOf(s)));
        // Statements with the same condition may be merged by CDK (minimizePolicies): compare what they allow.
        const allows = (shapes: string[]) =>
          new Set(
            shapes.flatMap((text) => {
              const [actions, keys] = JSON.parse(text) as [string[], string[] | null];
              return actions.map((a) => `${a} ${JSON.stringify(keys)}`);
            }),
          );
        expect(allows(inTemplate), `${fn} on ${name}`).toEqual(allows(granted));
        checked += inTemplate.length;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});

describe('item-level grants on the idempotency and control tables', () => {
  it('the signal webhook (unsigned) may put only outbox items in the journal’s table; the kill switch outbox and swept-order items', () => {
    const idempotency = tableId('IdempotencyTable');
    const shapes = (fn: string) => on(byFunction().get(fn)!, idempotency).map((s) => [list(s.Action), keysOf(s)]);
    expect(shapes('SignalWebhook')).toEqual([[['dynamodb:PutItem'], ['outbox#*']]]);
    expect(shapes('KillSwitch')).toEqual([
      [['dynamodb:PutItem'], ['outbox#*']],
      [['dynamodb:PutItem'], ['gone#*']],
    ]);
  });

  it('GetGTTOrder reads only order leases of the control table; the order path only the trading and lease items', () => {
    const control = tableId('ControlTable');
    expect(on(byFunction().get('GetGTTOrder')!, control).map((s) => [list(s.Action), keysOf(s)])).toEqual([
      [['dynamodb:BatchGetItem'], ['lease#*']],
    ]);
    for (const [fn, statements] of byFunction())
      for (const s of on(statements, control))
        expect(
          keysOf(s)?.every((k) => ['trading#*', 'lease#*'].includes(k)),
          fn,
        ).toBe(true);
  });
});
