/**
 * The step list's decisions without a database or a broker: the journal, the leases and the trading controls are
 * their memory doubles (the same contract suites hold them to the DynamoDB classes), the instrument's rules come from
 * a copy that answers today's, and the broker's address answers nothing (port 9), so any step that reached it would
 * fail as BROKER_UNAVAILABLE: a test that expects another answer proves nothing was sent.
 */
import { describe, expect, it } from 'vitest';

import type { SessionSource } from '../../../functions/base/broker/session.js';
import type { AnyOperation } from '../../../functions/base/contract/operation.js';
import { parseGatewayConfig } from '../../../functions/base/runtime/config.js';
import { indiaDay } from '../../../functions/base/schemas/india-time.js';
import type { Collaborators } from '../../../functions/orders/gateway/collaborators.js';
import { openRecord } from '../../../functions/orders/gateway/context.js';
import { orderPath } from '../../../functions/orders/gateway/order-path.js';
import type { InstrumentCopy } from '../../../functions/orders/instruments/copy.js';
import { cancelGttOrder, placeGttOrder } from '../../../functions/orders/operations.js';
import { captureLogger } from '../../support/logs.js';
import { MemoryOrderJournal } from '../../support/memory-journal.js';
import { MemoryOrderLeases } from '../../support/memory-leases.js';
import { MemoryTradingControls } from '../../support/memory-trading-controls.js';
import { SAMPLE_MARKET_ORDER, SAMPLE_ORDER } from '../../support/sample-order.js';

const UID = 'U1';
const SESSION = { accessToken: 'a'.repeat(64), uid: UID, actid: UID };

/** A symbol per test, so the container's kept rules of one never answer for another. */
let symbols = 0;
const world = (tick = '0.05') => {
  const tsym = `T${++symbols}-EQ`;
  const config = parseGatewayConfig({
    BROKER_BASE_URL: 'http://127.0.0.1:9/NorenWClientTP',
    BROKER_SECRET_ID: 'gtt-gateway/broker-session',
    BROKER_TIMEOUT_MS: '2000',
    IDEMPOTENCY_TABLE_NAME: 'idempotency',
    CONTROL_TABLE_NAME: 'control',
    INSTRUMENTS_TABLE_NAME: 'instruments',
  });
  const sessions = {
    current: async () => SESSION,
    refresh: async () => SESSION,
    readAt: () => Date.now(),
  } as unknown as SessionSource;
  const day = indiaDay(Date.now());
  const instruments = {
    get: async () => ({
      ...{ exch: 'NSE', tsym, token: '2031', tick, lot: 1, precision: 2, day, from: 'symbol master' as const },
      market: { day, band: { lc: '1000', uc: '2000' }, freeze: undefined, at: new Date().toISOString() },
    }),
    save: async () => undefined,
  } as unknown as InstrumentCopy;
  const controls = new MemoryTradingControls({ limits: { perSecond: 8, perMinute: 120 } });
  const leases = new MemoryOrderLeases({ lateWindowMs: 15_000 });
  const journals = new Map<string, MemoryOrderJournal>();
  const parts = (op: AnyOperation): Collaborators => {
    if (!journals.has(op.name)) journals.set(op.name, new MemoryOrderJournal(op.name, { lateWindowMs: 15_000 }));
    return {
      config,
      sessions,
      journal: journals.get(op.name),
      controls,
      leases,
      instruments,
    };
  };
  const run = async (op: AnyOperation, input: Record<string, unknown>) => {
    const record = openRecord('direct');
    const path = orderPath(op, () => parts(op), captureLogger().logger);
    try {
      return { result: await path(input, Date.now() + 30_000, record), record };
    } catch (error) {
      return { error: error as { code?: string; outcome?: string }, record };
    }
  };
  const journal = (op: AnyOperation): MemoryOrderJournal => (parts(op), journals.get(op.name)!);
  return { tsym, controls, leases, journal, run };
};

describe('the order path, step by step, on memory doubles', () => {
  it('a repeated key is answered from the journal: replayed, nothing sent', async () => {
    const w = world();
    const order = placeGttOrder.input.parse({ ...SAMPLE_ORDER, tsym: w.tsym });
    await w.journal(placeGttOrder).run('k1', order, {
      stamp: undefined,
      deadline: Date.now() + 10_000,
      send: async () => ({ result: { stat: 'OI created', al_id: '26120600000001' } }),
      adopt: async () => undefined,
    });
    const { result, record } = await w.run(placeGttOrder, { ...SAMPLE_ORDER, tsym: w.tsym, idempotencyKey: 'k1' });
    expect(result).toMatchObject({ al_id: '26120600000001', idempotency: { key: 'k1', replayed: true } });
    expect(record.facts.replayed).toBe(true);
    expect(record.facts.brokerAttempts).toBeUndefined();
  });

  it('with the kill switch on a place is TRADING_HALTED, nothing sent, and its key free for a later try', async () => {
    const w = world();
    await w.controls.setHalt(UID, true, 'test');
    const asked = { ...SAMPLE_ORDER, tsym: w.tsym, idempotencyKey: 'k2' };
    const halted = await w.run(placeGttOrder, asked);
    expect(halted.error).toMatchObject({ code: 'TRADING_HALTED', outcome: 'not_executed' });
    await w.controls.setHalt(UID, false, 'test');
    // The key was given back: the next try reaches the send (the broker here answers nothing), not IN_PROGRESS.
    const again = await w.run(placeGttOrder, asked);
    expect(again.error).toMatchObject({ code: 'BROKER_UNAVAILABLE' });
  });

  it("over the governor's rate a place is RATE_LIMITED before it is sent", async () => {
    const w = world();
    for (let i = 0; i < 8; i++) await w.controls.acquire(UID, false);
    const { error } = await w.run(placeGttOrder, { ...SAMPLE_ORDER, tsym: w.tsym, idempotencyKey: 'k3' });
    expect(error).toMatchObject({ code: 'RATE_LIMITED', outcome: 'not_executed' });
  });

  it('a change of an order another change holds is ORDER_BUSY; the lease is not taken from its holder', async () => {
    const w = world();
    const held = await w.leases.acquire(UID, '26120600000009', Date.now() + 30_000, {
      operation: 'ModifyGTTOrder',
      key: 'other',
    });
    const { error } = await w.run(cancelGttOrder, { al_id: '26120600000009', idempotencyKey: 'k4' });
    expect(error).toMatchObject({ code: 'ORDER_BUSY' });
    expect(held.owned).toBe(true);
  });

  it('a dry run shows the request and the rules it checked, takes no lease, claims no key', async () => {
    const w = world();
    const { result } = await w.run(placeGttOrder, { ...SAMPLE_ORDER, tsym: w.tsym, dryRun: true });
    expect(result).toMatchObject({ dryRun: true, operation: 'PlaceGTTOrder', exchangeRules: expect.anything() });
    expect(w.leases.table.size).toBe(0);
    expect(w.journal(placeGttOrder).table.entries.size).toBe(0);
  });

  it("a market order is priced once, on the instrument's tick, and judged as sent", async () => {
    const w = world('1');
    const { result, record } = await w.run(placeGttOrder, { ...SAMPLE_MARKET_ORDER, tsym: w.tsym, dryRun: true });
    const converted = (result as { converted: { tick: string; price: string } }).converted;
    expect(converted.tick).toBe('1');
    expect(Number(converted.price) % 1).toBe(0);
    expect(record.order).toMatchObject({ requested: expect.objectContaining({ prctyp: 'MKT' }) });
  });
});
