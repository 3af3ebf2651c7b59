/**
 * The kill switch end to end over the local HTTP API (npm start's stack): the governor at its defaults, dynalite,
 * the broker emulator, the local event bus, the typed client.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { createGttClient, GttGatewayError } from '../../client/index.js';
import { createKillSwitch } from '../../functions/controls/kill-switch.js';
import { createGatewayHandler } from '../../functions/orders/gateway/gateway-handler.js';
import { dynamoJournal } from '../../functions/orders/journal-factory.js';
import { placeGttOrder } from '../../functions/orders/operations.js';
import { dynamoTradingControls } from '../../functions/orders/safety/trading-controls.js';
import type { DeliveredEvent } from '../../local/eventbridge.js';
import { lambdaContext } from '../../local/lambda-context.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { CLI_ORDER } from '../support/cli-orders.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { invokeDirect } from '../support/events.js';
import { localApi } from '../support/local-api.js';
import { busiestSecond } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
const events: DeliveredEvent[] = [];
let run = 0;

const order = (i: number) => ({ ...SAMPLE_ORDER, qty: 1 + i });
const oco = {
  exch: 'NSE',
  tsym: 'M&M-EQ',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1600', prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1400', prd: 'C' } },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions on arbitrary JSON
const http = localApi<Record<string, any>>(() => stack.api.url);
const pending = async () => (await control.orders(stack.emulator.uid)).filter((o) => o.state === 'pending');

beforeAll(async () => {
  // A short broker timeout and late window: the sweep waits until the places before it can no longer land.
  stack = await startLocalStack({
    onEvent: (e) => events.push(e),
    brokerTimeoutMs: 2_000,
    settings: { ORDER_LATE_WINDOW_MS: 1_000 },
  });
  control = emulatorControl(stack.emulator.url);
});
afterAll(async () => {
  await http('DELETE', '/kill-switch').catch(() => undefined);
  await stack?.close();
});
beforeEach(async () => {
  run++;
  await control.reset();
  events.length = 0;
  await new Promise((resolve) => setTimeout(resolve, 1_200));
});

describe('kill switch', () => {
  it('on: cancels every pending GTT and OCO through the governor, then refuses places and modifies (423) until off; reads and cancels work', async () => {
    const client = createGttClient({ baseUrl: stack.api.url, maxAttempts: 10, deadlineMs: 30_000 });
    // Eleven orders: more than one second's permits, so the sweep must wait for the governor.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => client.placeOrder(order(i) as never, { idempotencyKey: `ks-${run}-${i}` })),
    );
    await client.placeOco(oco as never, { idempotencyKey: `ks-${run}-oco` });
    expect(await pending()).toHaveLength(11);
    await control.clearRequests();

    const on = await http('POST', '/kill-switch');
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ halted: true, sweep: { complete: true, failed: [] } });
    expect(on.body.sweep.cancelled).toHaveLength(11);
    expect(await pending()).toEqual([]);
    const cancels = (await control.requests()).filter((r) => r.operation === 'CancelGTTOrder');
    expect(cancels).toHaveLength(11);
    expect(busiestSecond(cancels.map((r) => Date.parse(r.at)))).toBeLessThanOrEqual(8);

    const place = await http('POST', '/gtt-orders', order(0), { 'Idempotency-Key': `ks-${run}-after` });
    expect(place).toMatchObject({ status: 423, body: { error: { code: 'TRADING_HALTED', outcome: 'not_executed' } } });
    // Since when, in India time as a trader reads it, and as ISO.
    expect(place.body.error.message).toMatch(
      /^The kill switch is on \(since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d IST, \d{4}-/,
    );
    const modify = await http('PUT', '/gtt-orders/26112300000001', order(0));
    expect(modify).toMatchObject({ status: 423, body: { error: { code: 'TRADING_HALTED' } } });
    expect((await http('GET', '/gtt-orders')).status).toBe(200);
    // A cancel still reaches the broker (through the governor, which the sweep has just used: the client waits).
    expect(await client.cancelOrder('26112300000001').catch((e: unknown) => e)).toMatchObject({
      code: 'ORDER_NOT_FOUND',
    });
    // A fresh container (a cold start) reads the same state from the table; a direct caller gets the named error.
    const cold = createGatewayHandler(placeGttOrder, {
      journal: dynamoJournal,
      controls: dynamoTradingControls,
      config: stack.config,
    });
    expect(await invokeDirect(cold, placeGttOrder, { ...order(0), idempotencyKey: `ks-${run}-cold` })).toMatchObject({
      ok: false,
      name: 'TradingHalted',
    });
    expect(
      (await control.requests()).filter((r) => r.operation === 'PlaceGTTOrder' || r.operation === 'ModifyGTTOrder'),
    ).toHaveLength(0);

    expect(await client.killSwitch('status')).toMatchObject({ halted: true });
    const off = await client.killSwitch('off');
    expect(off).toMatchObject({ halted: false });
    expect((await http('POST', '/gtt-orders', order(0), { 'Idempotency-Key': `ks-${run}-after` })).status).toBe(201);

    const kill = events
      .filter((e) => e['detail-type'] === 'Kill Switch')
      .map((e) => e.detail as Record<string, unknown>);
    expect(kill).toEqual([
      expect.objectContaining({ halted: true, cancelled: 11, failed: 0, origin: 'gateway' }),
      expect.objectContaining({ halted: false }),
    ]);
    expect(events.filter((e) => e['detail-type'] === 'GTT Cancelled')).toHaveLength(11);
  });

  it('direct invocation takes {action}; anything else is VALIDATION_FAILED; the typed client names TRADING_HALTED', async () => {
    const killSwitch = createKillSwitch({ config: stack.config });
    expect(await killSwitch({ action: 'on' }, lambdaContext('KillSwitch'))).toMatchObject({
      halted: true,
      sweep: { cancelled: [], complete: true },
    });
    await expect(killSwitch({ action: 'pause' }, lambdaContext('KillSwitch'))).rejects.toMatchObject({
      name: 'ValidationFailed',
    });
    const client = createGttClient({ baseUrl: stack.api.url });
    const refused = await client
      .placeOrder(order(0) as never, { idempotencyKey: `ks-${run}-client` })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GttGatewayError);
    expect(refused).toMatchObject({ code: 'TRADING_HALTED', status: 423, attempts: 1 });
    expect(await killSwitch({ action: 'off' }, lambdaContext('KillSwitch'))).toMatchObject({ halted: false });
  });

  it('a sweep that cannot run answers its error, and the switch stays on', async () => {
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'http5xx' });
    const on = await http('POST', '/kill-switch');
    expect(on).toMatchObject({ status: 502, body: { error: { code: 'BROKER_UNAVAILABLE' } } });
    expect((await http('GET', '/kill-switch')).body).toMatchObject({ halted: true });
    expect((await http('POST', '/gtt-orders', order(0), { 'Idempotency-Key': `ks-${run}-failed-sweep` })).status).toBe(
      423,
    );
    await control.clearFaults();
    expect((await http('DELETE', '/kill-switch')).body).toMatchObject({ halted: false });
  });

  it('the command line: gtt kill-switch on|off|status, anything else is a usage error', async () => {
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
    const gtt = (...args: string[]) => main([...args, '--url', stack.api.url], {}, io);
    expect(await gtt('kill-switch', 'on')).toBe(0);
    expect(out.pop()).toMatch(
      /^kill switch ON \(cancel-all\): places and modifies are refused \(since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+05:30(, by [^)]+)?\)\nswept {7}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+05:30 to \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+05:30\ncancelled {3}none pending$/,
    );
    expect(await gtt('kill-switch', 'status')).toBe(0);
    expect(out.pop()).toMatch(/^kill switch ON/);
    expect(await gtt('place', ...CLI_ORDER)).toBe(4);
    expect(out.pop()).toMatch(/TRADING_HALTED/);
    expect(await gtt('kill-switch', 'off')).toBe(0);
    expect(out.pop()).toMatch(/^kill switch off: trading/);
    expect(await gtt('kill-switch', 'pause')).toBe(2);
  });
});
