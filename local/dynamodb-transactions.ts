/**
 * DynamoDB's `TransactWriteItems`, which dynalite lacks, for the local proxy (local/dynamodb-streams.ts): up to 100
 * ConditionCheck, Put, Update and Delete items applied all or none. The proxy runs it while no other request is
 * on its way to dynalite (its lock), so nothing reads or writes in between; here:
 *
 * 1. the request's shape as DynamoDB checks it (one operation per item, at most 100, no item twice: a
 *    ValidationException otherwise);
 * 2. each item as it is now (a consistent GetItem), kept to undo with;
 * 3. every condition evaluated by dynalite itself, with a write that changes nothing (the item put back as it is,
 *    or an absent one deleted), so expressions mean exactly what they mean on a plain write. Any failure cancels
 *    the whole: `TransactionCanceledException` with one `CancellationReasons` entry per item (`None` or
 *    `ConditionalCheckFailed`, with the item when the entry asked for `ReturnValuesOnConditionCheckFailure:
 *    ALL_OLD`), as DynamoDB answers;
 * 4. the writes, one by one; a write dynalite refuses (a bad expression) undoes those before it and is answered.
 *
 * `ClientRequestToken` is honoured as DynamoDB does for 10 minutes: the same token and request again answers the
 * first success without writing again; the same token with another request is `IdempotentParameterMismatch`.
 * DynamoDB's `TransactionConflict` (two transactions on one item at once) cannot happen here: they run one at a
 * time.
 */
type Image = Record<string, Record<string, unknown>>;
type Body = Record<string, unknown>;

export interface Upstream {
  /** One call to dynalite. */
  send(action: string, body: Body): Promise<{ status: number; body: Body }>;
  /** The key attributes of an item of `table`. */
  keyOf(table: string, item: Image): Promise<Image>;
}

export interface TransactionReply {
  status: number;
  body: Body;
}

const MAX_ITEMS = 100;
const TOKEN_WINDOW_MS = 10 * 60_000;
const OPERATIONS = ['ConditionCheck', 'Put', 'Update', 'Delete'] as const;
type Operation = (typeof OPERATIONS)[number];

interface Step {
  op: Operation;
  spec: Body & { TableName: string };
  table: string;
  key: Image;
}

const error = (type: string, message: string, extra: Body = {}): TransactionReply => ({
  status: 400,
  body: { __type: `com.amazonaws.dynamodb.v20120810#${type}`, message, ...extra },
});

/** The expression's own names and values only (dynalite, as DynamoDB, refuses unused ones). */
const conditionOnly = (spec: Body): Body => {
  const condition = String(spec.ConditionExpression);
  const pick = (map: unknown, pattern: RegExp) => {
    const used = new Set(condition.match(pattern) ?? []);
    const entries = Object.entries((map ?? {}) as Body).filter(([name]) => used.has(name));
    return entries.length ? Object.fromEntries(entries) : undefined;
  };
  const names = pick(spec.ExpressionAttributeNames, /#[A-Za-z0-9_]+/g);
  const values = pick(spec.ExpressionAttributeValues, /:[A-Za-z0-9_]+/g);
  return {
    ConditionExpression: condition,
    ...(names ? { ExpressionAttributeNames: names } : {}),
    ...(values ? { ExpressionAttributeValues: values } : {}),
  };
};

/** The item put back as it was (or deleted when it was absent). */
const restore = (step: Step, before: Image | undefined, extra: Body = {}) =>
  before
    ? (['PutItem', { TableName: step.table, Item: before, ...extra }] as const)
    : (['DeleteItem', { TableName: step.table, Key: step.key, ...extra }] as const);

const isConditionFailure = (reply: { status: number; body: Body }) =>
  reply.status === 400 && String(reply.body.__type).endsWith('ConditionalCheckFailedException');

export const createTransactions = () => {
  const tokens = new Map<string, { request: string; at: number }>();

  const steps = async (body: Body, upstream: Upstream): Promise<Step[] | TransactionReply> => {
    const items = body.TransactItems;
    if (!Array.isArray(items) || items.length === 0 || items.length > MAX_ITEMS)
      return error('ValidationException', `TransactItems must hold 1 to ${MAX_ITEMS} items`);
    const out: Step[] = [];
    const seen = new Set<string>();
    for (const item of items as Body[]) {
      const ops = OPERATIONS.filter((op) => item[op] !== undefined);
      if (ops.length !== 1) return error('ValidationException', 'Each TransactItem holds exactly one operation');
      const op = ops[0]!;
      const spec = item[op] as Body & { TableName: string };
      if (typeof spec.TableName !== 'string') return error('ValidationException', 'Each operation names its table');
      if (op === 'ConditionCheck' && typeof spec.ConditionExpression !== 'string')
        return error('ValidationException', 'A ConditionCheck needs a ConditionExpression');
      const key = op === 'Put' ? await upstream.keyOf(spec.TableName, spec.Item as Image) : (spec.Key as Image);
      const id = `${spec.TableName}\u0000${JSON.stringify(key)}`;
      if (seen.has(id))
        return error('ValidationException', 'Transaction request cannot include multiple operations on one item');
      seen.add(id);
      out.push({ op, spec, table: spec.TableName, key });
    }
    return out;
  };

  /** The write an item stands for, its condition included. */
  const writeOf = (step: Step): [string, Body] => {
    const rest = Object.fromEntries(
      Object.entries(step.spec).filter(([name]) => name !== 'ReturnValuesOnConditionCheckFailure'),
    );
    return [step.op === 'Put' ? 'PutItem' : step.op === 'Update' ? 'UpdateItem' : 'DeleteItem', rest];
  };

  const run = async (body: Body, upstream: Upstream, now = Date.now()): Promise<TransactionReply> => {
    const request = JSON.stringify(body.TransactItems);
    const token = typeof body.ClientRequestToken === 'string' ? body.ClientRequestToken : undefined;
    for (const [name, seen] of tokens) if (now - seen.at > TOKEN_WINDOW_MS) tokens.delete(name);
    const known = token ? tokens.get(token) : undefined;
    if (known)
      return known.request === request
        ? { status: 200, body: {} }
        : error('IdempotentParameterMismatchException', 'The same ClientRequestToken was used with another request');

    const parsed = await steps(body, upstream);
    if (!Array.isArray(parsed)) return parsed;
    const before = await Promise.all(
      parsed.map(async (step) => {
        const got = await upstream.send('GetItem', { TableName: step.table, Key: step.key, ConsistentRead: true });
        return got.body.Item as Image | undefined;
      }),
    );

    // Every condition, on the items as they are, by writes that leave them as they are.
    const reasons: Body[] = [];
    for (const [i, step] of parsed.entries()) {
      if (typeof step.spec.ConditionExpression !== 'string') {
        reasons.push({ Code: 'None' });
        continue;
      }
      const [action, check] = restore(step, before[i], conditionOnly(step.spec));
      const reply = await upstream.send(action, check);
      if (reply.status === 200) reasons.push({ Code: 'None' });
      else if (isConditionFailure(reply))
        reasons.push({
          Code: 'ConditionalCheckFailed',
          Message: 'The conditional request failed',
          ...(step.spec.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' && before[i] ? { Item: before[i] } : {}),
        });
      else return reply;
    }
    if (reasons.some((r) => r.Code !== 'None'))
      return error(
        'TransactionCanceledException',
        `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => String(r.Code)).join(', ')}]`,
        { CancellationReasons: reasons },
      );

    // The writes; one refused undoes those before it.
    for (const [i, step] of parsed.entries()) {
      if (step.op === 'ConditionCheck') continue;
      const [action, write] = writeOf(step);
      const reply = await upstream.send(action, write);
      if (reply.status === 200) continue;
      for (let j = i - 1; j >= 0; j--)
        if (parsed[j]!.op !== 'ConditionCheck') {
          const [undo, item] = restore(parsed[j]!, before[j]);
          await upstream.send(undo, item);
        }
      return reply;
    }
    if (token) tokens.set(token, { request, at: now });
    return { status: 200, body: {} };
  };

  return { run };
};

/**
 * One transaction at a time, alone: other requests wait while one runs, and it waits for those already on their
 * way (a readers-writer lock, the writer first).
 */
export const createTransactionLock = () => {
  let writer: Promise<void> = Promise.resolve();
  let readers = 0;
  let idle: (() => void) | undefined;
  return {
    async shared<T>(fn: () => Promise<T>): Promise<T> {
      for (;;) {
        const current = writer;
        await current;
        if (current === writer) break;
      }
      readers++;
      try {
        return await fn();
      } finally {
        readers--;
        if (readers === 0) idle?.();
      }
    },
    async exclusive<T>(fn: () => Promise<T>): Promise<T> {
      const previous = writer;
      let release!: () => void;
      writer = new Promise<void>((resolve) => (release = resolve));
      await previous;
      if (readers > 0) await new Promise<void>((resolve) => (idle = resolve));
      idle = undefined;
      try {
        return await fn();
      } finally {
        release();
      }
    },
  };
};
