/**
 * Coverage counts what a plan owes and is not at the broker yet (docs/explanation/coverage.md, "What the plans owe"),
 * through the local HTTP API and the GttWatcher against the emulator on 127.0.0.1: a bracket's entry fills while the
 * place of its exit OCO is dropped unanswered (never carried out). With autoCover on, the watcher run places no OCO of
 * its own for the quantity the plan owes (the emulator's request log): the position is uncovered with `owedQty`, and
 * the event says the plan owes it. Once the plan places its exit again, exactly one exit covers the position, never
 * two that could both sell it.
 */
import { describe, expect, it } from 'vitest';

import { createPlanEngine } from '../../functions/plans/engine-wiring.js';
import { type LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { captureLogger } from '../support/logs.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;

useLocalStack(
  { settings: HIGH_ORDER_RATE },
  (s, c) => {
    stack = s;
    control = c;
  },
  { clearFaults: true },
);

const api = localApi(() => stack.api.url);
type Coverage = {
  positions: {
    tsym: string;
    status: string;
    coveredQty: number;
    uncoveredQty: number;
    overCoveredQty?: number;
    owedQty?: number;
    owedBy?: { planId: string; qty: number }[];
    exits: { al_id: string; kind: string; planId?: string }[];
  }[];
};
const of = async (tsym: string) =>
  ((await api('GET', '/positions/coverage')).body as Coverage).positions.find((p) => p.tsym === tsym);
const pendingOcos = async (tsym: string) =>
  ((await api('GET', `/gtt-orders?tsym=${tsym}`)).body as { orders: { al_id: string; type: string; tag?: string }[] })
    .orders;
const ocoPlaces = async (tsym: string) =>
  (await control.requests()).filter((r) => r.operation === 'PlaceOCOOrder' && r.body.includes(tsym));

describe('autoCover leaves to a plan the exit it owes', () => {
  it('a bracket whose exit place was dropped: no autoCover OCO for it; once the exit lands, one exit covers it', async () => {
    const tsym = 'HDFCBANK-EQ';
    const put = await api('PUT', '/positions/coverage', { watch: true, autoCover: { target: 20, stop: 20 } });
    expect(put.status).toBe(200);
    const created = await api(
      'POST',
      '/plans',
      {
        kind: 'bracket',
        entry: { ...SAMPLE_ORDER, tsym, qty: 2 },
        target: { trigger: '1600', price: '1600' },
        stopLoss: { trigger: '1400', price: '1400' },
      },
      { 'Idempotency-Key': `coverage-owed-${Date.now()}` },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { planId } = created.body as { planId: string };

    // The entry fills; the plan's exit OCO is sent and dropped unanswered, never carried out.
    await control.ltp('NSE', tsym, 1480);
    await control.fault({ operation: 'PlaceOCOOrder', kind: 'drop', executed: false, times: 1 });
    await control.clearRequests();
    await stack.watch();
    expect(await ocoPlaces(tsym)).toHaveLength(1);
    expect((await pendingOcos(tsym)).filter((o) => o.type === 'oco')).toEqual([]);
    expect(await of(tsym)).toMatchObject({ status: 'uncovered', uncoveredQty: 2, owedQty: 2, owedBy: [{ planId }] });
    const events = stack.eventBridge.events
      .filter((e) => e['detail-type'] === 'Position Unprotected')
      .map((e) => e.detail as { tsym: string; owedQty?: number; autoCover?: { placed: boolean; reason?: string } })
      .filter((d) => d.tsym === tsym);
    expect(events).toEqual([
      expect.objectContaining({ owedQty: 2, autoCover: expect.objectContaining({ placed: false }) }),
    ]);
    expect(events[0]!.autoCover!.reason).toContain(planId);

    // The plan places its exit again (its try's lease lapsed): the one exit of the position.
    const later = createPlanEngine(stack.config, captureLogger().logger);
    (later as unknown as { deps: { now?: () => Date } }).deps.now = () => new Date(Date.now() + 120_000);
    await later.advance(Date.now() + 12_000);
    await stack.watch();
    await stack.watch();
    const ocos = (await pendingOcos(tsym)).filter((o) => o.type === 'oco');
    expect(ocos).toEqual([expect.objectContaining({ tag: expect.stringContaining(planId) })]);
    const covered = await of(tsym);
    expect(covered).toMatchObject({ status: 'covered', coveredQty: 2, uncoveredQty: 0 });
    expect(covered!.overCoveredQty).toBeUndefined();
    expect(covered!.owedQty).toBeUndefined();
  });
});
