/**
 * The typed client (client/, the package's `./client` entry) against the local stack: every operation of the table,
 * through its own method and through call(operationId), including logout.
 */
import { OPERATION_INFO } from 'gtt-gateway/client';
import { describe, expect, it } from 'vitest';

import { brokerCalls, clientWith, failure, oco, order, stack, useClientStack } from '../support/client-stack.js';

useClientStack();

describe('every operation of the table', () => {
  it('the generated operation facts cover the whole OpenAPI document the local API serves', async () => {
    const doc = (await (await fetch(`${stack.api.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const served = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => [op.operationId, method.toUpperCase(), path]),
    );
    expect(served.map(([id]) => id).sort()).toEqual(Object.keys(OPERATION_INFO).sort());
    for (const [id, method, path] of served)
      expect(OPERATION_INFO[id as keyof typeof OPERATION_INFO]).toMatchObject({ method, path });
  });

  it('place (dry run, then for real), list, get, modify, cancel', async () => {
    const { client } = clientWith();
    const dry = await client.placeOrder(order, { dryRun: true });
    expect(dry).toMatchObject({
      dryRun: true,
      operation: 'PlaceGTTOrder',
      request: { jData: { tsym: 'M%26M-EQ', qty: '1' } },
    });
    expect(await brokerCalls('PlaceGTTOrder')).toEqual([]);

    const placed = await client.placeOrder({ ...order, tag: 'swing-1' });
    expect(placed).toMatchObject({
      stat: 'OI created',
      al_id: expect.stringMatching(/^\d+$/),
      idempotency: { key: expect.any(String), replayed: false },
    });
    // The key the client generated was the one sent.
    expect(await brokerCalls('PlaceGTTOrder')).toHaveLength(1);

    const listed = await client.listOrders();
    expect(listed.orders).toEqual([
      expect.objectContaining({
        al_id: placed.al_id,
        type: 'single',
        tsym: 'M&M-EQ',
        qty: 1,
        trigger: '1490',
        tag: 'swing-1',
      }),
    ]);
    expect((await client.listOrders({ tsym: 'M&M-EQ', exch: 'NSE' })).orders).toHaveLength(1);
    expect((await client.listOrders({ exch: 'BSE' })).orders).toEqual([]);

    const one = await client.getOrder(placed.al_id);
    expect(one).toMatchObject({ al_id: placed.al_id, type: 'single', prc: '1500' });

    expect(await client.modifyOrder(placed.al_id, { ...order, qty: 2 }, { dryRun: true })).toMatchObject({
      dryRun: true,
      request: { jData: { al_id: placed.al_id, qty: '2' } },
    });
    const modified = await client.modifyOrder(placed.al_id, { ...order, qty: 2 });
    expect(modified).toMatchObject({ stat: 'OI replaced', al_id: placed.al_id, idempotency: { replayed: false } });
    expect((await client.getOrder(placed.al_id)).qty).toBe(2);

    expect(await client.cancelOrder(placed.al_id, { dryRun: true })).toMatchObject({
      dryRun: true,
      operation: 'CancelGTTOrder',
    });
    const cancelled = await client.cancelOrder(placed.al_id);
    expect(cancelled).toMatchObject({ stat: 'OI deleted', al_id: placed.al_id });
    expect((await client.listOrders()).orders).toEqual([]);
  });

  it('OCO: place, list, modify, cancel', async () => {
    const { client } = clientWith();
    expect(await client.placeOco(oco, { dryRun: true })).toMatchObject({ dryRun: true, operation: 'PlaceOCOOrder' });
    const placed = await client.placeOco(oco);
    expect(placed).toMatchObject({ stat: 'OI created', al_id: expect.any(String) });
    const got = await client.getOrder(placed.al_id);
    expect(got).toMatchObject({
      type: 'oco',
      tag: 'exit-infy',
      target: { trigger: '1600' },
      stopLoss: { trigger: '1400' },
    });
    const modified = await client.modifyOco(placed.al_id, { ...oco, stopLoss: { ...oco.stopLoss, trigger: '1450' } });
    expect(modified).toMatchObject({ stat: 'OI replaced', al_id: placed.al_id });
    expect((await client.getOrder(placed.al_id)).stopLoss?.trigger).toBe('1450');
    expect(await client.cancelOrder(placed.al_id)).toMatchObject({ stat: 'OI deleted' });
  });

  it('triggered, enabled, client details', async () => {
    const { client } = clientWith();
    const placed = await client.placeOrder({ ...order, tag: 'fires' });
    const ltp = await fetch(`${stack.emulator.url}/_emulator/ltp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ exch: 'NSE', tsym: 'M&M-EQ', ltp: 1485 }),
    });
    expect(ltp.ok).toBe(true);
    const fired = await client.triggered();
    expect(fired.orders).toEqual([
      expect.objectContaining({ al_id: placed.al_id, status: expect.any(String), tag: 'fires' }),
    ]);
    expect((await client.listOrders()).orders).toEqual([]);

    const enabled = await client.enabled();
    expect(enabled.ai_ts.map((a) => a.ai_t)).toEqual(expect.arrayContaining(['LTP_A_O', 'LTP_B_O']));
    const details = await client.clientDetails();
    expect(details).toMatchObject({ stat: 'Ok', actid: stack.emulator.actid, exarr: expect.arrayContaining(['NSE']) });
  });

  it('call(operationId) reaches any operation of the document with the same rules', async () => {
    const { client } = clientWith();
    const placed = await client.call('PlaceGTTOrder', { body: order }, { idempotencyKey: 'generic-1' });
    expect(placed).toMatchObject({ stat: 'OI created', idempotency: { key: 'generic-1' } });
    expect(await client.call('GetGTTOrder', { path: { alId: placed.al_id } })).toMatchObject({ al_id: placed.al_id });
    expect((await client.call('GetPendingGTTOrder', { query: { exch: 'NSE' } })).orders).toHaveLength(1);
    expect(await client.call('CancelGTTOrder', { path: { alId: placed.al_id } }, { dryRun: true })).toMatchObject({
      dryRun: true,
    });
  });

  it('logout: the session ends, later calls are SESSION_EXPIRED', async () => {
    const { client } = clientWith();
    expect(await client.logout()).toMatchObject({ stat: 'Ok' });
    expect((await failure(client.clientDetails())).code).toBe('SESSION_EXPIRED');
  });
});
