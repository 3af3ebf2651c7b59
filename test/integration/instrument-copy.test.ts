/**
 * The exchange's rules without round trips (functions/instruments/), end to end over HTTP against the emulator and
 * dynalite: the broker calls of a first place with the account's copy absent (one read, written to the copy, then
 * none from a second container) and present (the scheduled refresh loaded the symbol master and the symbols in use:
 * no instrument call at all); a previous day's copy is not used; when neither the copy nor the broker gives today's
 * rules the order is refused, saying what to do, and nothing is sent.
 */
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';

import { clearInstrumentCache } from '../../functions/base/broker/instruments.js';
import { clearMarketCache } from '../../functions/base/broker/market.js';
import { indiaDay } from '../../functions/base/schemas/india-time.js';
import { InstrumentCopy } from '../../functions/orders/instruments/copy.js';
import { clearDayRules } from '../../functions/orders/instruments/rules.js';
import { LOCAL_INSTRUMENTS_TABLE } from '../../local/dynamodb.js';
import type { LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let keys = 0;

const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${stack.api.url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      'Idempotency-Key': `copy-${Date.now()}-${++keys}`,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions on arbitrary JSON
};

const INSTRUMENT_READS = ['SearchScrip', 'GetQuotes', 'GetSecurityInfo'];
/** The broker calls since the log was cleared, by operation (the instrument reads and the place). */
const brokerCalls = async () => {
  const counts: Record<string, number> = {};
  for (const r of await control.requests())
    if (r.operation && [...INSTRUMENT_READS, 'PlaceGTTOrder'].includes(r.operation))
      counts[r.operation] = (counts[r.operation] ?? 0) + 1;
  return counts;
};

/** Another container: nothing in this process's memory (the copy in DynamoDB stays). */
const newContainer = () => {
  clearDayRules();
  clearInstrumentCache();
  clearMarketCache();
};

const copy = () => new InstrumentCopy({ tableName: LOCAL_INSTRUMENTS_TABLE, endpoint: stack.dynamo.url });

useLocalStack(
  () => ({ settings: HIGH_ORDER_RATE }),
  (s, c) => {
    stack = s;
    control = c;
  },
);

const order = (tsym: string) => ({ ...SAMPLE_ORDER, tsym });

describe("the account's copy of the instruments' rules", () => {
  it('absent: the first place reads the broker once and writes the copy; a second container makes no read', async () => {
    newContainer();
    await control.ltp('NSE', 'TCS-EQ', 1500, 1500);
    await control.clearRequests();
    expect((await call('POST', '/gtt-orders', order('TCS-EQ'))).status).toBe(201);
    expect(await brokerCalls()).toEqual({ SearchScrip: 1, GetQuotes: 1, GetSecurityInfo: 1, PlaceGTTOrder: 1 });
    const item = await copy().get('NSE', 'TCS-EQ');
    expect(item).toMatchObject({
      day: indiaDay(Date.now()),
      from: 'SearchScrip',
      tick: '0.05',
      lot: 1,
      market: { day: indiaDay(Date.now()), band: { lc: '1350.00', uc: '1650.00' } },
    });
    // The item holds the instrument's rules (`token` is the instrument's) and nothing of the session or account.
    const raw = await new DynamoDBClient({ endpoint: stack.dynamo.url }).send(
      new GetItemCommand({ TableName: LOCAL_INSTRUMENTS_TABLE, Key: { pk: { S: 'NSE|TCS-EQ' } } }),
    );
    expect(Object.keys(raw.Item ?? {}).sort()).toEqual([
      'day',
      'expiresAt',
      'from',
      'lc',
      'lot',
      'marketAt',
      'marketDay',
      'pk',
      'precision',
      'tick',
      'token',
      'uc',
    ]);

    newContainer();
    await control.clearRequests();
    const dry = await call('POST', '/gtt-orders?dryRun=true', order('TCS-EQ'));
    expect(dry.body.exchangeRules.source).toMatchObject({ instrument: 'SearchScrip', via: 'copy' });
    expect((await call('POST', '/gtt-orders', order('TCS-EQ'))).status).toBe(201);
    expect(await brokerCalls()).toEqual({ PlaceGTTOrder: 1 });
  });

  it('the refresh loads the symbol master and the symbols in use: their first place makes no instrument call', async () => {
    await control.ltp('NSE', 'HDFCBANK-EQ', 1500, 1500);
    // HDFCBANK-EQ is in use: a pending GTT (placed before the refresh, as yesterday's would be).
    expect((await call('POST', '/gtt-orders', order('HDFCBANK-EQ'))).status).toBe(201);
    const res = await fetch(`${stack.api.url}/_local/run/InstrumentRefresh`, { method: 'POST' });
    expect(res.status).toBe(200);
    const run = (await res.json()) as { masters: { exch: string; rows?: number }[]; inUse: { refreshed: string[] } };
    expect(run.masters.map((m) => m.exch)).toEqual(['NSE', 'BSE', 'NFO', 'BFO']);
    expect(run.masters.find((m) => m.exch === 'NSE')?.rows).toBe(37); // 33 equities and ETFs, 4 indices
    expect(run.inUse.refreshed).toContain('NSE:HDFCBANK-EQ');

    newContainer();
    await control.clearRequests();
    const dry = await call('POST', '/gtt-orders?dryRun=true', order('HDFCBANK-EQ'));
    expect(dry.body.exchangeRules).toMatchObject({
      band: { lc: '1350.00', uc: '1650.00' },
      source: { instrument: 'symbol master', via: 'copy', day: indiaDay(Date.now()) },
    });
    expect((await call('POST', '/gtt-orders', order('HDFCBANK-EQ'))).status).toBe(201);
    expect(await brokerCalls()).toEqual({ PlaceGTTOrder: 1 });

    // A symbol the master lists but nobody uses: no SearchScrip, today's market read once (one round trip).
    newContainer();
    await control.clearRequests();
    expect((await call('POST', '/gtt-orders', order('SBIN-EQ'))).status).toBe(201);
    expect(await brokerCalls()).toEqual({ GetQuotes: 1, GetSecurityInfo: 1, PlaceGTTOrder: 1 });
  });

  it("a previous day's copy is not used: its band would allow what today's refuses", async () => {
    const yesterday = indiaDay(Date.now() - 86_400_000);
    await copy().save({
      exch: 'NSE',
      tsym: 'WIPRO-EQ',
      token: '1',
      tick: '0.05',
      lot: 1,
      precision: 2,
      day: yesterday,
      from: 'symbol master',
      market: { day: yesterday, band: { lc: '1.00', uc: '100000.00' }, at: new Date().toISOString() },
    });
    await control.ltp('NSE', 'WIPRO-EQ', 1500, 1500);
    newContainer();
    await control.clearRequests();
    const refused = await call('POST', '/gtt-orders', { ...order('WIPRO-EQ'), d: '1500', prc: '1800' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('band today is ±10%');
    expect(await brokerCalls()).toEqual({ SearchScrip: 1, GetQuotes: 1, GetSecurityInfo: 1 });
    expect((await copy().get('NSE', 'WIPRO-EQ'))?.day).toBe(indiaDay(Date.now()));
  });

  it('neither a copy for today nor the broker: refused, saying what to do, nothing sent', async () => {
    newContainer();
    await control.clearRequests();
    await control.fault({ operation: 'GetQuotes', kind: 'http5xx' });
    try {
      const refused = await call('POST', '/gtt-orders', order('ITC-EQ'));
      expect(refused.status).toBe(502);
      expect(refused.body.error).toMatchObject({ code: 'BROKER_UNAVAILABLE', outcome: 'not_executed' });
      expect(refused.body.error.message).toContain(`the account's copy holds none for today (${indiaDay(Date.now())})`);
      expect(refused.body.error.message).toContain('run the InstrumentRefresh function');
      expect(await brokerCalls()).not.toHaveProperty('PlaceGTTOrder');
      // Nothing half-read was kept: the copy has the master's instrument, and still no market for today.
      expect((await copy().get('NSE', 'ITC-EQ'))?.market).toBeUndefined();
    } finally {
      await control.clearFaults();
    }
  });
});
