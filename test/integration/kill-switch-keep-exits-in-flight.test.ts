/**
 * keep-exits and a change of an exit on its way (issue 52, defect 4; docs/explanation/compliance.md, "The kill switch"): the
 * switch answers an exit `kept`, so a change of it that took its permit before the switch and lands after it is kept
 * too (it is an exit), not cancelled by the order core's landed-after-halt check; a change of an entry that lands
 * after it is still cancelled. A protective OCO whose stop is PATCHed at a slow broker, and a trailing stop whose move
 * is in flight. Real handlers over the local API, the emulator's delay faults, dynalite.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { WatcherRun } from '../../functions/events/watcher/watcher.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let keys = 0;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions on arbitrary JSON
type Json = Record<string, any>;
const api = async (method: string, path: string, body?: unknown, key?: string) => {
  const res = await fetch(`${stack.api.url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key === undefined ? {} : { 'Idempotency-Key': key }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Json };
};
const key = () => `keep-exits-in-flight-${++keys}-${Date.now()}`;
const pendingIds = async () =>
  (await control.orders(stack.emulator.uid)).filter((o) => o.state === 'pending').map((o) => o.al_id);
const cancelsSent = async () => (await control.requests()).filter((r) => r.operation === 'CancelGTTOrder');
/** Waits until the broker has the request (the change is then on its way, held by the delay fault). */
const arrived = async (operation: string) => {
  for (let i = 0; i < 6_000; i++) {
    if ((await control.requests()).some((r) => r.operation === operation)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${operation} never reached the emulator`);
};
const keepExits = async () => {
  const on = await api('POST', '/kill-switch', { mode: 'keep-exits' });
  expect(on.status, JSON.stringify(on.body)).toBe(200);
  return on.body;
};

const OCO = {
  exch: 'NSE',
  tsym: 'INFY-EQ',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1600', prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1390', prd: 'C' } },
};

beforeAll(async () => {
  // The broker's delay (1.5 s) stays within our timeout (2 s): the change lands and its reply comes back.
  stack = await startLocalStack({
    brokerTimeoutMs: 2_000,
    settings: { ...HIGH_ORDER_RATE, ORDER_LATE_WINDOW_MS: 1_000 },
  });
  control = emulatorControl(stack.emulator.url);
});
afterAll(async () => {
  await api('DELETE', '/kill-switch').catch(() => undefined);
  await stack?.close();
});
beforeEach(async () => {
  await api('DELETE', '/kill-switch');
  await control.reset();
  await stack.watch();
  await control.clearRequests();
});

describe('keep-exits with a change on its way', () => {
  it("a protective OCO's stop PATCHed at a slow broker: kept, changed, live; an entry landing after it is undone", async () => {
    const oco = (await api('POST', '/gtt-orders/oco', OCO, key())).body.al_id as string;
    await control.clearRequests();
    await control.fault({ operation: 'ModifyOCOOrder', kind: 'delay', delayMs: 1_500 });
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 1_500 });
    await control.fault({ operation: 'PlaceOCOOrder', kind: 'delay', delayMs: 1_500 });
    const stop = api('PATCH', `/gtt-orders/oco/${oco}`, { stopLoss: { trigger: '1410' } }, key());
    const entry = api('POST', '/gtt-orders', { ...SAMPLE_ORDER, qty: 2 }, key());
    const another = api('POST', '/gtt-orders/oco', { ...OCO, tsym: 'SBIN-EQ' }, key());
    await arrived('ModifyOCOOrder');
    await arrived('PlaceGTTOrder');
    await arrived('PlaceOCOOrder');

    const on = await keepExits();
    expect(on).toMatchObject({ halted: true, mode: 'keep-exits', sweep: { complete: true, failed: [] } });
    expect(on.sweep.kept).toContain(oco);

    // The exit's change landed after the switch: kept, as the switch said of the exit.
    const changed = await stop;
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ al_id: oco });
    const held = await api('GET', `/gtt-orders/${oco}`);
    expect(held.body).toMatchObject({ type: 'oco', stopLoss: { trigger: '1410' } });
    // The sweep's last pass, once nothing permitted before the switch can land, lists the OCO placed meanwhile: kept.
    const second = await another;
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect([...on.sweep.kept].sort()).toEqual([oco, second.body.al_id].sort());
    // The entry landed after it too: undone (cancelled, 423), as before.
    const placed = await entry;
    expect(placed).toMatchObject({
      status: 423,
      body: { error: { code: 'TRADING_HALTED', outcome: 'undone', details: { cancelled: true } } },
    });
    expect((await pendingIds()).sort()).toEqual([oco, second.body.al_id].sort());
    expect((await cancelsSent()).map((r) => r.jData!.al_id)).toEqual([placed.body.error.details.al_id]);

    // The switch still refuses a new change of the exit while it is on.
    const later = await api('PATCH', `/gtt-orders/oco/${oco}`, { stopLoss: { trigger: '1420' } }, key());
    expect(later.status).toBe(423);
    expect((await pendingIds()).sort()).toEqual([oco, second.body.al_id].sort());
  });

  it("a trailing stop's move in flight: kept and moved; the plan stays protected, and after the switch is off", async () => {
    await control.ltp('NSE', 'WIPRO-EQ', 1500);
    const created = await api(
      'POST',
      '/plans',
      {
        kind: 'trailing-stop',
        order: { ...SAMPLE_ORDER, tsym: 'WIPRO-EQ', trantype: 'S', d: '1400', prc: '1395' },
        trailBy: '100',
      },
      key(),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const planId = created.body.planId as string;
    const stopId = created.body.alIds.stop as string;
    await stack.watch();
    await control.clearRequests();

    await control.fault({ operation: 'ModifyGTTOrder', kind: 'delay', delayMs: 1_500 });
    await control.ltp('NSE', 'WIPRO-EQ', 1530);
    const run: Promise<WatcherRun> = stack.watch();
    await arrived('ModifyGTTOrder');
    const on = await keepExits();
    expect(on.sweep.kept).toEqual([stopId]);
    await run;

    const plan = (await api('GET', `/plans/${planId}`)).body;
    expect(plan, JSON.stringify(plan)).toMatchObject({ state: 'armed', trigger: '1430.00', alIds: { stop: stopId } });
    expect(await pendingIds()).toEqual([stopId]);
    expect(Number((await api('GET', `/gtt-orders/${stopId}`)).body.trigger)).toBe(1430);
    expect(await cancelsSent()).toEqual([]);

    await stack.watch();
    expect((await api('GET', `/plans/${planId}`)).body.state).toBe('armed');
    await api('DELETE', '/kill-switch');
    await stack.watch();
    expect((await api('GET', `/plans/${planId}`)).body).toMatchObject({ state: 'armed', alIds: { stop: stopId } });
    expect(await pendingIds()).toEqual([stopId]);
  });
});
