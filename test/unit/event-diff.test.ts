/** The watcher's diff rules and the stable event ids, without a network (functions/events/watcher/diff.ts, events/core/views.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { allDetailJsonSchemas } from '../../functions/base/schemas/event-json-schemas.js';
import { placeOcoInput, placeOrderInput } from '../../functions/base/schemas/input.js';
import type { GttOrder } from '../../functions/base/schemas/reply.js';
import {
  contentHash,
  orderEventIds,
  viewOfOcoInput,
  viewOfOrderInput,
  viewOfRecord,
} from '../../functions/events/core/views.js';
import { EMPTY_STATE, type WatcherState } from '../../functions/events/core/watcher-items.js';
import { diffSnapshot, endOf, type HistoryOrder } from '../../functions/events/watcher/diff.js';
import { getPendingGttOrders } from '../../functions/orders/operations.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

const record = (alId: string, fields: Partial<Record<string, unknown>> = {}): GttOrder =>
  getPendingGttOrders.toResult(
    [
      {
        stat: 'Ok',
        al_id: alId,
        ai_t: 'LTP_B_O',
        tsym: 'M&M-EQ',
        exch: 'NSE',
        trantype: 'B',
        prctyp: 'LMT',
        qty: 1,
        prc: '1500.00',
        prd: 'C',
        d: '1490',
        ...fields,
      },
    ] as never,
    { limit: 1_000 },
  ).orders[0]!;
const fired = (alId: string, status = 'TRIGGERED'): HistoryOrder => ({
  ...record(alId),
  status,
  triggeredAt: '2026-11-23T04:00:00.000Z',
});
const SCOPE = { deployment: 'gtt-gateway-bus', uid: 'DEMO01', actid: 'DEMO01' };
const eventIds = orderEventIds(SCOPE);
const base = {
  published: new Set<string>(),
  observedAt: '2026-11-23T04:00:00.000Z',
  removedAfterRuns: 2,
  ids: eventIds,
};
const state = (orders: GttOrder[], extra: Partial<WatcherState> = {}): WatcherState => ({
  ...structuredClone(EMPTY_STATE),
  initialized: true,
  orders: Object.fromEntries(
    orders.map((o) => [o.al_id, { view: viewOfRecord(o), hash: contentHash(viewOfRecord(o)) }]),
  ),
  ...extra,
});
const types = (r: { toPublish: { detailType: string }[] }) => r.toPublish.map((e) => e.detailType);

describe('event ids', () => {
  it("the caller's input and the broker's record of one order hash alike (1500 and 1500.00 are one price)", () => {
    const input = placeOrderInput.parse(SAMPLE_ORDER);
    expect(contentHash(viewOfOrderInput('7', input))).toBe(contentHash(viewOfRecord(record('7'))));
    expect(contentHash(viewOfRecord(record('7', { d: '1480' })))).not.toBe(contentHash(viewOfRecord(record('7'))));
  });

  it('an OCO input and its record hash alike', () => {
    const oco = placeOcoInput.parse({
      exch: 'NSE',
      tsym: 'INFY-EQ',
      validity: 'GTT',
      target: { trigger: '1700', order: { trantype: 'S', prctyp: 'LMT', prd: 'C', ret: 'DAY', qty: 2, prc: '1700' } },
      stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', prd: 'C', ret: 'DAY', qty: 2, prc: '1400' } },
    });
    const leg = (trigger: string, prc: string) => ({
      trigger,
      order: { trantype: 'S', prctyp: 'LMT', prd: 'C', qty: 2, prc },
    });
    const rec = {
      ...record('9', { tsym: 'INFY-EQ' }),
      type: 'oco' as const,
      target: leg('1700', '1700'),
      stopLoss: leg('1400.0', '1400'),
    };
    expect(contentHash(viewOfOcoInput('9', oco))).toBe(contentHash(viewOfRecord(rec)));
  });

  it('one id per change: placed and ended hang on al_id, a modification on its content', () => {
    expect(eventIds.placed('1')).toBe(eventIds.placed('1'));
    expect(eventIds.placed('1')).not.toBe(eventIds.placed('2'));
    expect(eventIds.placed('1')).not.toBe(eventIds.ended('1'));
    expect(eventIds.modified('1', 'a')).not.toBe(eventIds.modified('1', 'b'));
    expect(eventIds.ended('1')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('the same al_id of another account or another deployment is another order: other ids', () => {
    const otherAccount = orderEventIds({ ...SCOPE, uid: 'DEMO02', actid: 'DEMO02' });
    const otherDeployment = orderEventIds({ ...SCOPE, deployment: 'sandbox-bus' });
    for (const other of [otherAccount, otherDeployment]) {
      expect(other.placed('1')).not.toBe(eventIds.placed('1'));
      expect(other.ended('1')).not.toBe(eventIds.ended('1'));
      expect(other.modified('1', 'a')).not.toBe(eventIds.modified('1', 'a'));
    }
    expect(orderEventIds({ ...SCOPE }).placed('1')).toBe(eventIds.placed('1'));
  });

  it('product and trigger price are part of what an order is (a product-only change is a modification)', () => {
    const input = (fields: Record<string, unknown> = {}) =>
      placeOrderInput.parse({ ...SAMPLE_ORDER, prd: 'C', ...fields });
    expect(viewOfOrderInput('7', input())).toMatchObject({ product: 'C' });
    expect(contentHash(viewOfOrderInput('7', input({ prd: 'M' })))).not.toBe(
      contentHash(viewOfOrderInput('7', input())),
    );
    expect(contentHash(viewOfOrderInput('7', input({ prd: 'M' })))).toBe(
      contentHash(viewOfRecord(record('7', { prd: 'M' }))),
    );
    const oco = (stopLoss: Record<string, unknown>) =>
      placeOcoInput.parse({
        exch: 'NSE',
        tsym: 'INFY-EQ',
        target: { trigger: '1700', order: { trantype: 'S', prctyp: 'LMT', prd: 'C', qty: 2, prc: '1700' } },
        stopLoss: {
          trigger: '1400',
          order: { trantype: 'S', prctyp: 'SL-LMT', prd: 'C', qty: 2, prc: '1395', trgprc: '1400', ...stopLoss },
        },
      });
    expect(viewOfOcoInput('9', oco({})).stopLoss).toMatchObject({ product: 'C', triggerPrice: '1400' });
    expect(contentHash(viewOfOcoInput('9', oco({ trgprc: '1401' })))).not.toBe(
      contentHash(viewOfOcoInput('9', oco({}))),
    );
    expect(contentHash(viewOfOcoInput('9', oco({ prd: 'M' })))).not.toBe(contentHash(viewOfOcoInput('9', oco({}))));
    const leg = (trigger: string, order: Record<string, unknown>) => ({
      trigger,
      order: { trantype: 'S', prd: 'C', qty: 2, trgprc: '', ...order },
    });
    const rec = {
      ...record('9', { tsym: 'INFY-EQ' }),
      type: 'oco' as const,
      target: leg('1700', { prctyp: 'LMT', prc: '1700' }),
      stopLoss: leg('1400', { prctyp: 'SL-LMT', prc: '1395.00', trgprc: '1400.0' }),
    };
    expect(contentHash(viewOfRecord(rec))).toBe(contentHash(viewOfOcoInput('9', oco({}))));
  });
});

describe('diffSnapshot', () => {
  it('the first run takes a baseline: nothing to publish, everything remembered', () => {
    const r = diffSnapshot({
      ...base,
      state: structuredClone(EMPTY_STATE),
      pending: [record('1')],
      history: [fired('2')],
    });
    expect(r.toPublish).toEqual([]);
    expect(Object.keys(r.next.orders)).toEqual(['1']);
    expect(r.next.ended).toEqual(['2']);
    expect(r.next.initialized).toBe(true);
  });

  it('new, changed and unchanged orders', () => {
    const r = diffSnapshot({
      ...base,
      state: state([record('1'), record('2')]),
      pending: [record('1'), record('2', { d: '1400' }), record('3')],
      history: [],
    });
    expect(types(r)).toEqual(['GTT Modified', 'GTT Placed']);
    expect(r.toPublish[0]!.detail).toMatchObject({ al_id: '2', trigger: '1400', origin: 'watcher' });
  });

  it('history statuses end an order: triggered, cancelled, rejected/expired; a pending status is waited for', () => {
    expect(
      ['TRIGGERED', 'executed', 'Cancelled', 'CANCELED', 'REJECTED', 'EXPIRED', 'TRIGGER_PENDING', 'PENDING'].map(
        endOf,
      ),
    ).toEqual([
      'GTT Triggered',
      'GTT Triggered',
      'GTT Cancelled',
      'GTT Cancelled',
      'GTT Removed',
      'GTT Removed',
      undefined,
      undefined,
    ]);
    const r = diffSnapshot({
      ...base,
      state: state([record('1'), record('2'), record('3'), record('4')]),
      pending: [],
      history: [fired('1'), fired('2', 'CANCELLED'), fired('3', 'REJECTED'), fired('4', 'TRIGGER_PENDING')],
    });
    expect(types(r)).toEqual(['GTT Triggered', 'GTT Cancelled', 'GTT Removed']);
    expect(r.toPublish.map((e) => e.detail.eventId)).toEqual(['1', '2', '3'].map(eventIds.ended));
    expect(Object.keys(r.next.orders)).toEqual(['4']);
  });

  it('an order gone from both lists is Removed after removedAfterRuns runs, not before', () => {
    const first = diffSnapshot({ ...base, state: state([record('1')]), pending: [], history: [] });
    expect(first.toPublish).toEqual([]);
    expect(first.next.orders['1']!.missingRuns).toBe(1);
    const second = diffSnapshot({ ...base, state: first.next, pending: [], history: [] });
    expect(types(second)).toEqual(['GTT Removed']);
    expect(second.next.orders).toEqual({});
  });

  it('a late history record wins over waiting: Triggered, not Removed', () => {
    const first = diffSnapshot({ ...base, state: state([record('1')]), pending: [], history: [] });
    const second = diffSnapshot({ ...base, state: first.next, pending: [], history: [fired('1')] });
    expect(types(second)).toEqual(['GTT Triggered']);
  });

  it('what is already published is not published again, but the snapshot moves on', () => {
    const published = new Set([eventIds.placed('3'), eventIds.ended('1')]);
    const r = diffSnapshot({ ...base, published, state: state([record('1')]), pending: [record('3')], history: [] });
    expect(r.toPublish).toEqual([]);
    expect(r.changes.map((c) => c.detailType)).toEqual(['GTT Placed']);
    expect(Object.keys(r.next.orders)).toEqual(['3']);
  });

  it('an order never seen pending that fired is Triggered once; its id stays in `ended` while the history lists it', () => {
    const r = diffSnapshot({ ...base, state: state([]), pending: [], history: [fired('5')] });
    expect(types(r)).toEqual(['GTT Triggered']);
    const again = diffSnapshot({ ...base, state: r.next, pending: [], history: [fired('5')] });
    expect(again.toPublish).toEqual([]);
    expect(diffSnapshot({ ...base, state: again.next, pending: [], history: [] }).next.ended).toEqual([]);
  });
});

describe('docs/events/*.schema.json', () => {
  it('are what the zod schemas generate (npm run events:schemas)', () => {
    for (const { file, text } of allDetailJsonSchemas()) {
      expect(readFileSync(join(import.meta.dirname, '../../docs/events', file), 'utf8'), file).toBe(text);
    }
  });
});
