/**
 * What dynalite lacks and the deployment relies on, in a small proxy in front of it on 127.0.0.1:
 *
 * - **DynamoDB Streams** (NEW_IMAGE): after each successful write to a subscribed table, the item's new image goes
 *   to the subscriber as a stream record, in order, in batches, through the subscription's filter (as the event
 *   source mapping's filter criteria), delivered again from the first record the subscriber reports as failed
 *   (ReportBatchItemFailures) with backoff, as Lambda's DynamoDB event source does. The transactional outbox's
 *   EventForwarder runs from it under `npm start` and in the tests.
 * - **`ReturnValuesOnConditionCheckFailure: ALL_OLD`**: a failed conditional write returns the item as it is, as
 *   DynamoDB does (the order-rate governor's permit relies on it).
 * - **`TransactWriteItems`** (local/dynamodb-transactions.ts), run while no other request is on its way to dynalite
 *   (the signal webhook records a signal in one).
 *
 * Everything else is passed to dynalite unchanged. The proxy also counts the calls by action and table, so tests
 * can say how many DynamoDB calls an order cost, and which ran side by side (one round trip).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createTransactionLock, createTransactions } from './dynamodb-transactions.js';
import type { EndpointAuthorizer } from './permissions/gate.js';

type Image = Record<string, Record<string, unknown>>;

export interface StreamRecord {
  eventID: string;
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  eventSource: 'aws:dynamodb';
  dynamodb: { Keys: Image; NewImage?: Image; SequenceNumber: string; StreamViewType: 'NEW_IMAGE' };
}

export interface StreamSubscription {
  table: string;
  /** The event source mapping's filter: records it refuses are never delivered. */
  filter?: (record: StreamRecord) => boolean;
  /** The function: answers the records to deliver again (by SequenceNumber), or throws (the whole batch again). */
  handler: (batch: { Records: StreamRecord[] }) => Promise<{ batchItemFailures?: { itemIdentifier: string }[] } | void>;
  batchSize?: number;
  /** Deliveries of one record before it is given up (Lambda's maximum retry attempts + 1). Default 6. */
  maxAttempts?: number;
  onGiveUp?: (record: StreamRecord, reason: string) => void;
}

export interface DynamoCall {
  action: string;
  tables: string[];
  /** When the proxy had the request, and when it answered (performance.now()): which calls ran side by side. */
  startedAt: number;
  endedAt?: number;
}

export interface DynamoProxy {
  url: string;
  /** From now on every request is first held to `authorize`. */
  guard(authorize: EndpointAuthorizer): void;
  /** Every call received, in order. */
  calls: DynamoCall[];
  subscribe(subscription: StreamSubscription): void;
  /** Resolves once every record written so far was delivered (or given up). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

type Body = Record<string, unknown>;

/** The tables a request names, and the keys a successful write touched (per table). */
const writtenKeys = (action: string, body: Body, keyOf: (table: string, item: Image) => Promise<Image>) => {
  const out: Promise<{ table: string; key: Image }>[] = [];
  const table = body.TableName as string | undefined;
  if (action === 'PutItem' && table) out.push(keyOf(table, body.Item as Image).then((key) => ({ table, key })));
  if ((action === 'UpdateItem' || action === 'DeleteItem') && table)
    out.push(Promise.resolve({ table, key: body.Key as Image }));
  if (action === 'BatchWriteItem') {
    for (const [name, requests] of Object.entries((body.RequestItems ?? {}) as Record<string, Body[]>)) {
      for (const request of requests) {
        const put = (request.PutRequest as { Item?: Image } | undefined)?.Item;
        const del = (request.DeleteRequest as { Key?: Image } | undefined)?.Key;
        if (put) out.push(keyOf(name, put).then((key) => ({ table: name, key })));
        if (del) out.push(Promise.resolve({ table: name, key: del }));
      }
    }
  }
  if (action === 'TransactWriteItems') {
    for (const item of (body.TransactItems ?? []) as Body[]) {
      const put = item.Put as { TableName: string; Item: Image } | undefined;
      const other = (item.Update ?? item.Delete) as { TableName: string; Key: Image } | undefined;
      if (put) out.push(keyOf(put.TableName, put.Item).then((key) => ({ table: put.TableName, key })));
      if (other) out.push(Promise.resolve({ table: other.TableName, key: other.Key }));
    }
  }
  return Promise.all(out);
};

export const startDynamoProxy = async (target: string): Promise<DynamoProxy> => {
  const calls: DynamoCall[] = [];
  const subscriptions: (StreamSubscription & { queue: StreamRecord[]; running?: Promise<void> })[] = [];
  const keySchemas = new Map<string, string[]>();
  const transactions = createTransactions();
  const lock = createTransactionLock();
  let sequence = 0;
  let authorize: EndpointAuthorizer | undefined;
  /** New images being read after a write, not yet in a subscription's queue. */
  const imaging = new Set<Promise<void>>();

  const send = async (action: string, body: unknown, headers: Record<string, string>) => {
    const res = await fetch(target, {
      method: 'POST',
      headers: { ...headers, 'x-amz-target': `DynamoDB_20120810.${action}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Body };
  };

  const deliver = async (sub: (typeof subscriptions)[number]) => {
    const attempts = new Map<StreamRecord, number>();
    while (sub.queue.length) {
      const batch = sub.queue.slice(0, sub.batchSize ?? 10);
      let failedFrom = -1;
      let reason = '';
      try {
        const reply = await sub.handler({ Records: batch });
        const failed = new Set((reply?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        failedFrom = batch.findIndex((r) => failed.has(r.dynamodb.SequenceNumber));
        reason = 'reported as a batch item failure';
      } catch (error) {
        failedFrom = 0;
        reason = error instanceof Error ? error.message : String(error);
      }
      if (failedFrom < 0) {
        sub.queue.splice(0, batch.length);
        continue;
      }
      // Done up to the first failure; that one (and the rest) again, after a pause, as Lambda retries.
      sub.queue.splice(0, failedFrom);
      const first = sub.queue[0]!;
      const tries = (attempts.get(first) ?? 0) + 1;
      attempts.set(first, tries);
      if (tries >= (sub.maxAttempts ?? 6)) {
        sub.queue.shift();
        sub.onGiveUp?.(first, reason);
        continue;
      }
      await sleep(Math.min(2_000, 50 * 2 ** tries));
    }
  };

  const publish = (table: string, key: Image, image: Image | undefined, existed: boolean) => {
    for (const sub of subscriptions.filter((s) => s.table === table)) {
      const record: StreamRecord = {
        eventID: String(++sequence),
        eventName: image ? (existed ? 'MODIFY' : 'INSERT') : 'REMOVE',
        eventSource: 'aws:dynamodb',
        dynamodb: {
          Keys: key,
          ...(image ? { NewImage: image } : {}),
          SequenceNumber: String(sequence).padStart(21, '0'),
          StreamViewType: 'NEW_IMAGE',
        },
      };
      if (sub.filter && !sub.filter(record)) continue;
      sub.queue.push(record);
      sub.running ??= deliver(sub).finally(() => (sub.running = undefined));
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const text = await readBody(req);
    const action = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    const headers: Record<string, string> = { 'content-type': String(req.headers['content-type'] ?? '') };
    for (const name of ['authorization', 'x-amz-date', 'x-amz-security-token']) {
      if (req.headers[name]) headers[name] = String(req.headers[name]);
    }
    const body = (text ? JSON.parse(text) : {}) as Body;
    const refusal = await authorize?.(
      { method: req.method ?? 'POST', url: req.url ?? '/', headers: req.headers, body: text },
      action,
      body,
    );
    if (refusal) {
      res.writeHead(refusal.status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-errortype': refusal.type });
      res.end(JSON.stringify({ __type: `com.amazon.coral.service#${refusal.type}`, message: refusal.message }));
      return;
    }
    const transactTables = ((body.TransactItems ?? []) as Body[]).map((item) =>
      String((Object.values(item)[0] as Body | undefined)?.TableName),
    );
    const call: DynamoCall = {
      action,
      tables: body.TableName
        ? [String(body.TableName)]
        : body.TransactItems
          ? [...new Set(transactTables)]
          : Object.keys((body.RequestItems ?? {}) as Body),
      startedAt: performance.now(),
    };
    calls.push(call);
    const keyOf = async (table: string, item: Image): Promise<Image> => {
      let names = keySchemas.get(table);
      if (!names) {
        const described = await send('DescribeTable', { TableName: table }, headers);
        const schema = (described.body.Table as { KeySchema?: { AttributeName: string }[] } | undefined)?.KeySchema;
        names = (schema ?? []).map((k) => k.AttributeName);
        keySchemas.set(table, names);
      }
      return Object.fromEntries(names.map((name) => [name, item[name]!]));
    };
    const current = async (table: string, key: Image) =>
      (await send('GetItem', { TableName: table, Key: key, ConsistentRead: true }, headers)).body.Item as
        Image | undefined;
    const watched = WRITES.has(action) && subscriptions.length > 0;
    // The items of subscribed tables this write touches (their new images are read once it succeeded).
    const touched = watched
      ? (await writtenKeys(action, body, keyOf)).filter((t) => subscriptions.some((s) => s.table === t.table))
      : [];
    // dynalite has no TransactWriteItems: it is run here (local/dynamodb-transactions.ts), alone.
    const upstream =
      action === 'TransactWriteItems'
        ? await lock.exclusive(async () => {
            const reply = await transactions.run(body, { send: (a, b) => send(a, b, headers), keyOf });
            return { status: reply.status, text: () => Promise.resolve(JSON.stringify(reply.body)), headers: null };
          })
        : await lock.shared(() =>
            fetch(target, {
              method: 'POST',
              headers: { ...headers, 'x-amz-target': String(req.headers['x-amz-target']) },
              body: text,
            }),
          );
    let reply = await upstream.text();
    if (
      upstream.status === 400 &&
      reply.includes('ConditionalCheckFailedException') &&
      body.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' &&
      body.TableName
    ) {
      const table = String(body.TableName);
      const item = await current(table, (body.Key as Image | undefined) ?? (await keyOf(table, body.Item as Image)));
      if (item) reply = JSON.stringify({ ...(JSON.parse(reply) as Body), Item: item });
    }
    res.writeHead(upstream.status, {
      'content-type': upstream.headers?.get('content-type') ?? 'application/x-amz-json-1.0',
    });
    call.endedAt = performance.now();
    res.end(reply);
    if (upstream.status === 200 && touched.length) {
      const reading = Promise.all(touched.map((t) => current(t.table, t.key))).then((after) => {
        // INSERT or MODIFY as a put or an update says (the stream's consumers here read the new image only).
        touched.forEach((t, i) => publish(t.table, t.key, after[i], action !== 'PutItem'));
      });
      imaging.add(reading);
      await reading.finally(() => imaging.delete(reading));
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ __type: 'InternalFailure', message: String(error) }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    guard: (authorizer) => (authorize = authorizer),
    subscribe: (subscription) => subscriptions.push({ ...subscription, queue: [] }),
    idle: async () => {
      for (let round = 0; round < 1_000; round++) {
        const running: Promise<void>[] = [...imaging];
        for (const sub of subscriptions) if (sub.running) running.push(sub.running);
        if (!running.length) return;
        await Promise.allSettled(running);
      }
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
