/**
 * DynamoDB's `TransactWriteItems`, which dynalite lacks, for the local proxy (local/dynamodb-streams.ts): up to 100
 * ConditionCheck, Put, Update and Delete items applied all or none. The proxy runs it while no other request is
 * on its way to dynalite (its lock), so nothing reads or writes in between; here:
 *
 * 1. the request's shape as DynamoDB checks it (one operation per item, at most 100, no item twice: a
 *    ValidationException otherwise);
 * 2. every item's write sent to dynalite at once, with its condition (so an expression means exactly what it means
 *    on a plain write) and `ReturnValues: ALL_OLD` (the item as it was, to undo with); a ConditionCheck is an
 *    UpdateItem that updates nothing;
 * 3. any failure undoes the writes that went through and cancels the whole: `TransactionCanceledException` with
 *    one `CancellationReasons` entry per item (`None` or `ConditionalCheckFailed`, with the item when the entry
 *    asked for `ReturnValuesOnConditionCheckFailure: ALL_OLD`), as DynamoDB answers; a write dynalite refuses
 *    otherwise (a bad expression) is answered as it is.
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

  /**
   * The write an item stands for, its condition included, answering the item as it was (ALL_OLD). A ConditionCheck
   * is an UpdateItem that updates nothing: it leaves an item that exists as it is, and creates a bare one that did
   * not (removed again below).
   */
  const writeOf = (step: Step): [string, Body] => {
    if (step.op === 'ConditionCheck')
      return [
        'UpdateItem',
        { TableName: step.table, Key: step.key, ...conditionOnly(step.spec), ReturnValues: 'ALL_OLD' },
      ];
    const rest = Object.fromEntries(
      Object.entries(step.spec).filter(([name]) => name !== 'ReturnValuesOnConditionCheckFailure'),
    );
    const action = step.op === 'Put' ? 'PutItem' : step.op === 'Update' ? 'UpdateItem' : 'DeleteItem';
    return [action, { ...rest, ReturnValues: 'ALL_OLD' }];
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
    // Every item at once (they are distinct items, and nothing else runs meanwhile), each with its condition.
    const replies = await Promise.all(parsed.map((step) => upstream.send(...writeOf(step))));
    const before = replies.map((reply) => reply.body.Attributes as Image | undefined);
    const passed = replies.map((reply) => reply.status === 200);
    // What a ConditionCheck created, and, when anything failed, every write that went through, put back.
    const ok = passed.every(Boolean);
    await Promise.all(
      parsed.map(async (step, i) => {
        const checkCreated = step.op === 'ConditionCheck' && !before[i];
        if (passed[i] && (checkCreated || (!ok && step.op !== 'ConditionCheck'))) {
          const [undo, item] = restore(step, before[i]);
          await upstream.send(undo, item);
        }
      }),
    );
    if (ok) {
      if (token) tokens.set(token, { request, at: now });
      return { status: 200, body: {} };
    }
    const other = replies.find((reply) => reply.status !== 200 && !isConditionFailure(reply));
    if (other) return other;
    const reasons: Body[] = await Promise.all(
      parsed.map(async (step, i) => {
        if (passed[i]) return { Code: 'None' };
        // Nothing changed it: it is as it was.
        const item =
          step.spec.ReturnValuesOnConditionCheckFailure === 'ALL_OLD'
            ? ((await upstream.send('GetItem', { TableName: step.table, Key: step.key, ConsistentRead: true })).body
                .Item as Image | undefined)
            : undefined;
        return {
          Code: 'ConditionalCheckFailed',
          Message: 'The conditional request failed',
          ...(item ? { Item: item } : {}),
        };
      }),
    );
    return error(
      'TransactionCanceledException',
      `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => String(r.Code)).join(', ')}]`,
      { CancellationReasons: reasons },
    );
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
