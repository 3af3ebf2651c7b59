/**
 * The GttWatcher at N pending orders (bench section `watcher`): for each N a fresh local stack (emulator, dynalite,
 * local PutEvents), N orders placed at the broker outside the gateway, the baseline run, steady runs (nothing
 * changed) and a run with changed orders. Every DynamoDB call the watcher makes is counted at its real SDK client
 * (a middleware on the shared client), with the write and read units DynamoDB on-demand would bill for it, computed
 * from the item sizes DynamoDB's rules give (writes: 1 unit per KB per item; strongly consistent Query: 1 unit per
 * 4 KB of the page; eventually consistent BatchGetItem: half a unit per item up to 4 KB).
 *
 *   npx tsx bench/watcher.ts [--sizes 10,1000,10000]
 */
import { parseArgs } from 'node:util';

import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import { dynamoDbClient } from '../functions/base/aws/dynamodb-client.js';
import { buildBrokerRequest } from '../functions/base/broker/jdata.js';
import { LOCAL_SECRET_ID, type LocalStack, startLocalStack } from '../local/run-local.js';

/** On-demand prices, us-east-1 (per million request units, since November 2024); ap-south-1 is within a few % of it. */
export const PRICE_PER_MILLION = { write: 0.625, read: 0.125 };
/** One cycle a minute, 09:00-15:59 India time on weekdays (the default schedule): 420 cycles a day, 22 days. */
export const CYCLES_PER_MONTH = 420 * 22;

type Item = Record<string, AttributeValue>;
const valueBytes = (v: AttributeValue): number =>
  v.S !== undefined
    ? Buffer.byteLength(v.S)
    : v.N !== undefined
      ? Math.ceil(v.N.length / 2) + 1
      : v.BOOL !== undefined
        ? 1
        : v.NULL
          ? 1
          : JSON.stringify(v).length;
const itemBytes = (item: Item) =>
  Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueBytes(value), 0);

interface Counter {
  calls: Record<string, number>;
  bytesWritten: number;
  writeUnits: number;
  readUnits: number;
}
const emptyCounter = (): Counter => ({ calls: {}, bytesWritten: 0, writeUnits: 0, readUnits: 0 });

/** Counts the calls of the (shared, per endpoint) DynamoDB client the watcher uses, and what they would cost. */
const countCalls = (endpoint: string) => {
  let counter = emptyCounter();
  dynamoDbClient(endpoint).middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const name = context.commandName ?? 'unknown';
      counter.calls[name] = (counter.calls[name] ?? 0) + 1;
      const input = args.input as Record<string, unknown>;
      const output = result.output as unknown as Record<string, unknown>;
      if (name === 'BatchWriteItemCommand') {
        for (const requests of Object.values(input.RequestItems as Record<string, { PutRequest?: { Item: Item } }[]>)) {
          for (const r of requests) {
            const bytes = r.PutRequest ? itemBytes(r.PutRequest.Item) : 0;
            counter.bytesWritten += bytes;
            counter.writeUnits += Math.max(1, Math.ceil(bytes / 1024));
          }
        }
      } else if (name === 'UpdateItemCommand' || name === 'PutItemCommand' || name === 'DeleteItemCommand') {
        const attributes = output.Attributes as Item | undefined;
        const bytes = attributes ? itemBytes(attributes) : 100;
        counter.bytesWritten += bytes;
        counter.writeUnits += Math.max(1, Math.ceil(bytes / 1024));
      } else if (name === 'QueryCommand') {
        const bytes = ((output.Items as Item[] | undefined) ?? []).reduce((sum, item) => sum + itemBytes(item), 0);
        counter.readUnits += Math.max(1, Math.ceil(bytes / 4096)) * (input.ConsistentRead ? 1 : 0.5);
      } else if (name === 'BatchGetItemCommand') {
        const keys = Object.values(input.RequestItems as Record<string, { Keys: unknown[] }>).reduce(
          (sum, r) => sum + r.Keys.length,
          0,
        );
        counter.readUnits += keys * 0.5;
      } else if (name === 'GetItemCommand') {
        counter.readUnits += input.ConsistentRead ? 1 : 0.5;
      }
      return result;
    },
    { step: 'initialize', name: 'benchCountCalls' },
  );
  return {
    take: (): Counter => {
      const taken = counter;
      counter = emptyCounter();
      return taken;
    },
    remove: () => dynamoDbClient(endpoint).middlewareStack.remove('benchCountCalls'),
  };
};

const placeOutside = async (stack: LocalStack, fields: Record<string, string>) => {
  const request = buildBrokerRequest(
    stack.emulator.url,
    'PlaceGTTOrder',
    {
      uid: stack.emulator.uid,
      actid: stack.emulator.actid,
      exch: 'NSE',
      tsym: 'TCS-EQ',
      qty: '3',
      prc: '4000',
      prd: 'C',
      trantype: 'B',
      prctyp: 'LMT',
      ret: 'DAY',
      ai_t: 'LTP_B_O',
      validity: 'GTT',
      d: '3990',
      ...fields,
    },
    stack.emulator.token,
  );
  const body = (await (
    await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body })
  ).json()) as { stat: string; al_id?: string };
  if (body.stat !== 'OI created' || !body.al_id)
    throw new Error(`bench: the emulator refused an order: ${JSON.stringify(body)}`);
  return body.al_id;
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const totalCalls = (c: Counter) => Object.values(c.calls).reduce((a, b) => a + b, 0);
const callList = (c: Counter) =>
  Object.entries(c.calls)
    .map(([k, v]) => `${k.replace(/Command$/, '')} ${v}`)
    .join(', ');

export interface WatcherRow {
  pending: number;
  baselineMs: number;
  baselineCalls: number;
  steadyCycleMs: number;
  steadyCalls: number;
  steadyCallList: string;
  steadyBytesWritten: number;
  steadyWriteUnits: number;
  steadyReadUnits: number;
  changedOrders: number;
  changedCycleMs: number;
  callsPerChangedOrder: number;
  bytesWrittenPerChangedOrder: number;
  writeUnitsPerChangedOrder: number;
  steadyMonthlyUsd: number;
  /** Reads of the session secret per steady cycle (issue 42: at most one). */
  secretReadsPerCycle: number;
}

export const measureWatcher = async (sizes: readonly number[], steadyRuns = 5): Promise<WatcherRow[]> => {
  const rows: WatcherRow[] = [];
  for (const n of sizes) {
    const stack = await startLocalStack();
    const counter = countCalls(stack.watcherEnv.DYNAMODB_ENDPOINT!);
    try {
      for (let i = 0; i < n; i += 25) {
        await Promise.all(
          Array.from({ length: Math.min(25, n - i) }, (_, j) =>
            placeOutside(stack, { qty: String(1 + ((i + j) % 50)) }),
          ),
        );
      }
      counter.take();
      let t = performance.now();
      const baseline = await stack.watch();
      const baselineMs = performance.now() - t;
      if (baseline.status !== 'baseline' || baseline.pending !== n)
        throw new Error(`bench: the baseline run at ${n} went wrong: ${JSON.stringify(baseline).slice(0, 300)}`);
      const baselineCounter = counter.take();

      const steadyTimes: number[] = [];
      let steady = emptyCounter();
      // The session secret's reads by the watcher's steady cycles (the local Secrets Manager counts them).
      const secretReadsBefore = stack.secrets.getCallCount(LOCAL_SECRET_ID);
      for (let r = 0; r < steadyRuns; r++) {
        t = performance.now();
        const run = await stack.watch();
        steadyTimes.push(performance.now() - t);
        if (run.status !== 'ok' || run.published.length)
          throw new Error(`bench: a steady run at ${n} published or failed: ${JSON.stringify(run).slice(0, 300)}`);
        steady = counter.take();
      }

      const secretReadsPerCycle = (stack.secrets.getCallCount(LOCAL_SECRET_ID) - secretReadsBefore) / steadyRuns;
      // Changed: 10 orders placed outside the gateway (each one GTT Placed, one item written).
      const changed = 10;
      for (let i = 0; i < changed; i++) await placeOutside(stack, { tsym: 'WIPRO-EQ' });
      counter.take();
      t = performance.now();
      const run = await stack.watch();
      const changedCycleMs = performance.now() - t;
      const changedCounter = counter.take();
      if (run.published.length !== changed)
        throw new Error(`bench: the changed run at ${n} published ${run.published.length} events, not ${changed}`);

      const steadyMonthly =
        ((steady.writeUnits * PRICE_PER_MILLION.write + steady.readUnits * PRICE_PER_MILLION.read) * CYCLES_PER_MONTH) /
        1e6;
      rows.push({
        pending: n,
        baselineMs: Math.round(baselineMs),
        baselineCalls: totalCalls(baselineCounter),
        steadyCycleMs: round(median(steadyTimes), 1),
        steadyCalls: totalCalls(steady),
        steadyCallList: callList(steady),
        steadyBytesWritten: steady.bytesWritten,
        steadyWriteUnits: steady.writeUnits,
        steadyReadUnits: steady.readUnits,
        changedOrders: changed,
        changedCycleMs: round(changedCycleMs, 1),
        callsPerChangedOrder: round((totalCalls(changedCounter) - totalCalls(steady)) / changed),
        bytesWrittenPerChangedOrder: Math.round((changedCounter.bytesWritten - steady.bytesWritten) / changed),
        writeUnitsPerChangedOrder: round((changedCounter.writeUnits - steady.writeUnits) / changed),
        steadyMonthlyUsd: round(steadyMonthly, 3),
        secretReadsPerCycle: round(secretReadsPerCycle),
      });
    } finally {
      counter.remove();
      await stack.close();
    }
  }
  return rows;
};

if (import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({ options: { sizes: { type: 'string', default: '10,1000,10000' } } });
  const rows = await measureWatcher(values.sizes.split(',').map(Number));
  console.table(rows);
}
