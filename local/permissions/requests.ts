/**
 * The IAM authorizations a request to a local endpoint stands for, as AWS evaluates them: the action and the
 * resource's ARN, and the condition keys the request carries. For DynamoDB, `dynamodb:LeadingKeys` is the partition
 * key values the request touches; a TransactWriteItems is one authorization per item (its Put, Update, Delete or
 * ConditionCheck: there is no TransactWriteItems action), a BatchWriteItem or BatchGetItem one per table.
 */
import type { IamCall } from './gate.js';
import { localArn } from './resolve.js';

type Body = Record<string, unknown>;
type AttributeValue = Record<string, unknown>;
type Item = Record<string, AttributeValue>;

/** A partition key's value as the condition key has it (strings and numbers as text). */
const keyText = (value: AttributeValue | undefined): string | undefined => {
  if (!value) return undefined;
  const scalar = value.S ?? value.N ?? value.B;
  return scalar === undefined ? undefined : String(scalar);
};

/** The partition key's value a Query's key condition names (`pk = :pk`, `#pk = :v`). */
const queriedKey = (body: Body, partitionKey: string): string | undefined => {
  const expression = String(body.KeyConditionExpression ?? '');
  const names = (body.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (body.ExpressionAttributeValues ?? {}) as Item;
  for (const match of expression.matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    const [, left = '', placeholder = ''] = match;
    if ((names[left] ?? left) === partitionKey) return keyText(values[placeholder]);
  }
  return undefined;
};

const leading = (keys: (string | undefined)[]): Record<string, string[]> => ({
  'dynamodb:LeadingKeys': [...new Set(keys.filter((k): k is string => k !== undefined))],
});

/** What a DynamoDB request needs; `partitionKeyOf` names each table's partition key. */
export const dynamoDbCalls = (action: string, body: Body, partitionKeyOf: (table: string) => string): IamCall[] => {
  const one = (name: string, table: string, keys: (string | undefined)[], index?: unknown): IamCall => ({
    action: `dynamodb:${name}`,
    resource: `${localArn.table(table)}${typeof index === 'string' ? `/index/${index}` : ''}`,
    context: leading(keys),
  });
  const table = typeof body.TableName === 'string' ? body.TableName : undefined;
  const pk = (t: string, item: Item | undefined) => keyText(item?.[partitionKeyOf(t)]);
  switch (action) {
    case 'GetItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return table ? [one(action, table, [pk(table, body.Key as Item)])] : [];
    case 'PutItem':
      return table ? [one(action, table, [pk(table, body.Item as Item)])] : [];
    case 'Query':
      return table ? [one(action, table, [queriedKey(body, partitionKeyOf(table))], body.IndexName)] : [];
    case 'BatchGetItem':
      return Object.entries((body.RequestItems ?? {}) as Record<string, { Keys?: Item[] }>).map(([t, request]) =>
        one(
          action,
          t,
          (request.Keys ?? []).map((key) => pk(t, key)),
        ),
      );
    case 'BatchWriteItem':
      return Object.entries((body.RequestItems ?? {}) as Record<string, Body[]>).map(([t, requests]) =>
        one(
          action,
          t,
          requests.map((r) =>
            pk(
              t,
              (r.PutRequest as { Item?: Item } | undefined)?.Item ??
                (r.DeleteRequest as { Key?: Item } | undefined)?.Key,
            ),
          ),
        ),
      );
    case 'TransactWriteItems':
    case 'TransactGetItems':
      return ((body.TransactItems ?? []) as Body[]).flatMap((entry) => {
        const [kind, operation] = Object.entries(entry)[0] ?? [];
        const op = (operation ?? {}) as { TableName?: string; Key?: Item; Item?: Item };
        const name = {
          Put: 'PutItem',
          Update: 'UpdateItem',
          Delete: 'DeleteItem',
          ConditionCheck: 'ConditionCheckItem',
          Get: 'GetItem',
        }[kind ?? ''];
        return name && op.TableName ? [one(name, op.TableName, [pk(op.TableName, op.Key ?? op.Item)])] : [];
      });
    default:
      // Scan, DescribeTable and the rest: the action on the table, no key.
      return [
        {
          action: `dynamodb:${action}`,
          resource: table ? localArn.table(table) : `arn:aws:dynamodb:us-east-1:000000000000:table/*`,
        },
      ];
  }
};

/** Secrets Manager: the action on the secret the request names. */
export const secretsManagerCalls = (target: string, body: Body): IamCall[] => [
  { action: `secretsmanager:${target.split('.').pop()}`, resource: localArn.secret(String(body.SecretId ?? '')) },
];

/** EventBridge PutEvents: one authorization per bus, with the entries' sources and detail types. */
export const eventBridgeCalls = (target: string, body: Body): IamCall[] => {
  const entries = (body.Entries ?? []) as { EventBusName?: string; Source?: string; DetailType?: string }[];
  const buses = [...new Set(entries.map((e) => e.EventBusName ?? 'default'))];
  return buses.map((bus) => {
    const mine = entries.filter((e) => (e.EventBusName ?? 'default') === bus);
    return {
      action: `events:${target.split('.').pop()}`,
      resource: bus.startsWith('arn:') ? bus : localArn.bus(bus),
      context: {
        'events:source': [...new Set(mine.map((e) => String(e.Source)))],
        'events:detail-type': [...new Set(mine.map((e) => String(e.DetailType)))],
      },
    };
  });
};

/** SQS: the action on the queue the request names by URL. */
export const sqsCalls = (target: string, body: Body): IamCall[] => [
  { action: `sqs:${target.split('.').pop()}`, resource: localArn.queue(String(body.QueueUrl ?? '')) },
];
