/**
 * Lifecycle events from the real GttWatcher, end to end on loopback against the emulator, the local PutEvents
 * endpoint and dynalite: its lease, orders placed or changed outside the gateway, orders that fire (single and each
 * OCO leg), overlapping and failing runs publishing each change once, and the session's events. Each test starts
 * from a fresh stack, takes the watcher's baseline, and counts events by eventId.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { BatchWriteItemCommand, dynamoDbClient } from '../../functions/base/aws/dynamo.js';
import { EventsTable } from '../../functions/events/core/store.js';
import { LOCAL_EVENTS_TABLE } from '../../local/dynamodb.js';
import type { LocalStack } from '../../local/run-local.js';
import { jdata } from '../contract/jdata-client.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { OCO, useEventsStack } from '../support/events-stack.js';

const ev = useEventsStack();
const { api, place, placeOutside, ltp, events, of, renewWithTotp } = ev;
let stack: LocalStack;
let control: EmulatorControl;
let token: string;
beforeEach(() => {
  ({ stack, control, token } = ev.current());
});

describe('the watcher', () => {
  it("a crashed run's lease expires: the next run is turned away only until then", async () => {
    const table = new EventsTable({ tableName: LOCAL_EVENTS_TABLE, endpoint: stack.dynamo.url });
    // A lease long enough that the next run surely meets it on a loaded machine; then its end is waited out.
    const leaseMs = 3_000;
    const acquiredAt = Date.now();
    expect(await table.acquireLease('crashed-run', leaseMs, acquiredAt)).toBeDefined();
    const alId = await placeOutside();
    expect(await stack.watch()).toMatchObject({ status: 'busy', published: [] });
    await new Promise((r) => setTimeout(r, Math.max(0, acquiredAt + leaseMs + 100 - Date.now())));
    expect(await stack.watch()).toMatchObject({ status: 'ok', published: [{ detailType: 'GTT Placed' }] });
    expect(of(alId)).toHaveLength(1);
  });

  it('an order placed outside the gateway gives one GTT Placed', async () => {
    const alId = await placeOutside();
    expect((await stack.watch()).published).toHaveLength(1);
    expect(of(alId)).toEqual([
      expect.objectContaining({
        'detail-type': 'GTT Placed',
        detail: expect.objectContaining({ al_id: alId, tsym: 'TCS-EQ', quantity: 3, origin: 'watcher' }),
      }),
    ]);
    expect((await stack.watch()).published).toEqual([]);
  });

  it('a single order that fires gives one GTT Triggered, with when', async () => {
    const alId = await place();
    await ltp('NSE', 'M&M-EQ', 1485);
    await stack.watch();
    await stack.watch();
    expect(of(alId, 'GTT Triggered')).toHaveLength(1);
    expect(of(alId, 'GTT Triggered')[0]!.detail).toMatchObject({
      al_id: alId,
      status: 'TRIGGERED',
      triggeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/),
      origin: 'watcher',
    });
    // ISO in UTC, as every time of the API (issue 58, item 9): the broker's India text read as such, never as UTC
    // (5.5 hours off); the triggered list says the same time and keeps the broker's text as norentm.
    const firedAt = String(of(alId, 'GTT Triggered')[0]!.detail.triggeredAt);
    expect(Math.abs(Date.parse(firedAt) - Date.now())).toBeLessThan(60 * 60_000);
    const history = (await api('GET', '/gtt-orders/triggered')).body as {
      orders: { al_id: string; triggeredAt?: string; norentm?: string }[];
    };
    expect(history.orders.find((o) => o.al_id === alId)).toMatchObject({
      triggeredAt: firedAt,
      norentm: expect.stringMatching(/^\d{2}:\d{2}:\d{2} \d{2}-\d{2}-\d{4}$/),
    });
    // gtt triggered prints it in India time: the broker's own clock again.
    const [hms, dmy] = history.orders.find((o) => o.al_id === alId)!.norentm!.split(' ') as [string, string];
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
    expect(await main(['triggered', '--url', stack.api.url], {}, io)).toBe(0);
    const lines = out.join('\n').split('\n');
    expect(lines[0]).toMatch(/^fired \(IST\) /);
    expect(lines.find((l) => l.includes(alId))).toMatch(new RegExp(`^${dmy.split('-').reverse().join('-')} ${hms} `));
    // A single order has no legs: no firedLeg, in the event or in the triggered list.
    expect(of(alId, 'GTT Triggered')[0]!.detail).not.toHaveProperty('firedLeg');
    const listed = (await api('GET', '/gtt-orders/triggered')).body as {
      orders: { al_id: string; firedLeg?: string }[];
    };
    expect(listed.orders.find((o) => o.al_id === alId)).not.toHaveProperty('firedLeg');
  });

  it('each OCO leg that fires gives one GTT Triggered naming the leg', async () => {
    const first = String((await api('POST', '/gtt-orders/oco', OCO, { 'Idempotency-Key': 'oco-1' })).body.al_id);
    const second = String(
      (await api('POST', '/gtt-orders/oco', { ...OCO, tsym: 'WIPRO-EQ' }, { 'Idempotency-Key': 'oco-2' })).body.al_id,
    );
    await stack.watch();
    await ltp('NSE', 'INFY-EQ', 1500);
    await ltp('NSE', 'INFY-EQ', 1710);
    await ltp('NSE', 'WIPRO-EQ', 1500);
    await ltp('NSE', 'WIPRO-EQ', 1390);
    await stack.watch();
    await stack.watch();
    expect(of(first, 'GTT Triggered').map((e) => e.detail.firedLeg)).toEqual(['target']);
    expect(of(second, 'GTT Triggered').map((e) => e.detail.firedLeg)).toEqual(['stopLoss']);
    expect(of(first, 'GTT Placed')[0]!.detail).toMatchObject({
      type: 'oco',
      target: { trigger: '1700', quantity: 2 },
      stopLoss: { trigger: '1400' },
      tag: 'swing-exit',
    });
    // gtt events prints both legs' triggers, sides and quantities, the fired one marked.
    await stack.eventsForwarded();
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
    expect(await main(['events', '--type', 'GTT Triggered', '--url', stack.api.url], {}, io)).toBe(0);
    const lines = out.join('\n').split('\n');
    expect(lines.find((l) => l.includes(`al_id=${first}`))).toContain('target 1700 S 2 (fired) / stop-loss 1400 S 2');
    expect(lines.find((l) => l.includes(`al_id=${second}`))).toContain('target 1700 S 2 / stop-loss 1400 S 2 (fired)');
  });

  it('an order that fires between two runs, never seen pending, still gives one GTT Triggered', async () => {
    const alId = await placeOutside();
    await ltp('NSE', 'TCS-EQ', 3980);
    await stack.watch();
    expect(of(alId).map((e) => e['detail-type'])).toEqual(['GTT Triggered', 'Order Filled']);
  });

  it('a change made outside: modified gives GTT Modified; cancelled is GTT Removed once it stays gone', async () => {
    const alId = await placeOutside();
    await stack.watch();
    const modify = await jdata(
      stack.emulator.url,
      'ModifyGTTOrder',
      {
        uid: stack.emulator.uid,
        actid: stack.emulator.actid,
        exch: 'NSE',
        tsym: 'TCS-EQ',
        al_id: alId,
        ai_t: 'LTP_B_O',
        validity: 'GTT',
        d: '3950',
        trantype: 'B',
        prctyp: 'LMT',
        prd: 'C',
        ret: 'DAY',
        qty: '3',
        prc: '4000',
      },
      token,
    );
    expect(modify.body).toMatchObject({ stat: 'OI replaced' });
    await stack.watch();
    expect(of(alId, 'GTT Modified').map((e) => e.detail.trigger)).toEqual(['3950']);
    expect(
      (await jdata(stack.emulator.url, 'CancelGTTOrder', { uid: stack.emulator.uid, al_id: alId }, token)).body,
    ).toMatchObject({ stat: 'OI deleted' });
    expect((await stack.watch()).published).toEqual([]);
    expect((await stack.watch()).published).toEqual([{ detailType: 'GTT Removed', eventId: expect.any(String) }]);
    expect((await stack.watch()).published).toEqual([]);
  });

  it('two overlapping runs publish each change once', async () => {
    const ids = [await placeOutside(), await placeOutside({ tsym: 'SBIN-EQ' })];
    // The first run holds the lease while the broker is slow (3 s: the runs overlap on a loaded machine too); the
    // second arrives meanwhile.
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'delay', delayMs: 3_000, times: 1 });
    const runs = await Promise.all([stack.watch(), new Promise((r) => setTimeout(r, 100)).then(() => stack.watch())]);
    expect(runs.map((r) => r.status).sort()).toEqual(['busy', 'ok']);
    for (const alId of ids) expect(of(alId, 'GTT Placed')).toHaveLength(1);
    expect((await stack.watch()).published).toEqual([]);
  });

  it('a refused publish is published on the next run, and what was accepted is not published again', async () => {
    const ids = [await placeOutside(), await placeOutside({ tsym: 'SBIN-EQ' })];
    stack.eventBridge.refuseNext(1);
    await expect(stack.watch()).rejects.toThrow(/1 of 2 events were not published/);
    expect(events('GTT Placed')).toHaveLength(1);
    const next = await stack.watch();
    expect(next.published).toHaveLength(1);
    for (const alId of ids) expect(of(alId, 'GTT Placed')).toHaveLength(1);
  });

  it('a run that dies while writing its state (some order items written, some not) publishes nothing twice after', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await placeOutside({ qty: String(i + 1) }));
    // The run dies on its BatchWriteItem of the last 5 state items (25 a call: 30 orders are calls of 25 and 5), after
    // it published and marked its 30 events: an error thrown at the real client, as a crash or DynamoDB would.
    const client = dynamoDbClient(stack.watcherEnv.DYNAMODB_ENDPOINT);
    const send = client.send;
    client.send = (async (command, options) => {
      const writes =
        command instanceof BatchWriteItemCommand ? Object.values(command.input.RequestItems ?? {}).flat() : [];
      const isState = writes.some((w) => w.PutRequest?.Item?.pk?.S === 'watcher');
      if (isState && writes.length === 5)
        throw Object.assign(new Error('injected: the run died here'), { name: 'InternalServerError' });
      return send.call(client, command, options);
    }) as typeof send;
    try {
      await expect(stack.watch()).rejects.toThrow(/injected/);
    } finally {
      client.send = send;
    }
    expect(events('GTT Placed')).toHaveLength(30);
    const table = new EventsTable({ tableName: LOCAL_EVENTS_TABLE, endpoint: stack.dynamo.url });
    expect(Object.keys((await table.readSnapshot()).state.orders)).toHaveLength(25);
    // The next run finds the 5 orders not written, whose events are marked: nothing published, the state completed.
    expect(await stack.watch()).toMatchObject({ status: 'ok', published: [], skipped: 5, dynamo: { itemsWritten: 5 } });
    expect(Object.keys((await table.readSnapshot()).state.orders).sort()).toEqual([...ids].sort());
    expect(await stack.watch()).toMatchObject({ status: 'ok', published: [], skipped: 0, dynamo: { itemsWritten: 0 } });
    for (const alId of ids) expect(of(alId)).toHaveLength(1);
  });

  it('a dead session gives one Session Expired, not one per run; a renewal gives Session Renewed', async () => {
    await control.expire(token);
    expect(await stack.watch()).toMatchObject({
      status: 'session-dead',
      published: [{ detailType: 'Session Expired' }],
    });
    expect(await stack.watch()).toMatchObject({ status: 'session-dead', published: [] });
    expect(events('Session Expired')).toHaveLength(1);
    expect(events('Session Expired')[0]!.detail).toMatchObject({ code: 'SESSION_EXPIRED', origin: 'watcher' });

    await renewWithTotp();
    expect(events('Session Renewed')).toHaveLength(1);
    expect(events('Session Renewed')[0]!.detail).toMatchObject({ method: 'totp', origin: 'gateway' });
    const renewed = (JSON.parse(stack.secrets.getSecret('gtt-gateway/broker-session')!) as { accessToken: string })
      .accessToken;
    expect(renewed).not.toBe(token);
    for (const secret of [token, renewed]) expect(JSON.stringify(events())).not.toContain(secret);
    expect(await stack.watch()).toMatchObject({ status: 'ok' });
  });
});
