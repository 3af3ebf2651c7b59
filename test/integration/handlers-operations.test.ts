/**
 * Every operation through its real handler, in both entry shapes (HTTP API events and direct invocation from Step
 * Functions or EventBridge), against the broker emulator over 127.0.0.1 and the local Secrets Manager endpoint.
 */
import { describe, expect, it } from 'vitest';

import {
  cancelGttOrder,
  clientDetails,
  getEnabledGtts,
  getPendingGttOrders,
  logout,
  modifyGttOrder,
  placeGttOrder,
} from '../../functions/orders/operations.js';
import { invokeDirect, invokeHttp } from '../support/events.js';
import { control, emulator, handler, order, place, useGatewayHandlers } from '../support/gateway-handlers.js';
import { wireGtt } from '../support/wire-order.js';

useGatewayHandlers();

describe('every operation of the table over HTTP events', () => {
  it('places a GTT order: 201 with the new al_id, and the exact wire format at the broker', async () => {
    const reply = await place();
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ stat: 'OI created', al_id: expect.stringMatching(/^\d+$/) });

    // Before it, the exchange's rules may be read (SearchScrip, GetQuotes, GetSecurityInfo, cached per container):
    // the order is the one write.
    const reads = ['SearchScrip', 'GetQuotes', 'GetSecurityInfo'];
    const [request] = (await control.requests()).filter((r) => !reads.includes(r.operation ?? ''));
    expect(request).toMatchObject({
      method: 'POST',
      path: '/ClientAPI/PlaceGTTOrder',
      contentType: 'text/plain',
      authorization: 'Bearer <redacted>',
      authUid: emulator.uid,
      bodyContainedToken: false,
    });
    expect(request!.body).toBe(
      `jData=${JSON.stringify(wireGtt({ tsym: 'M%26M-EQ', qty: '5', prc: '1500.50', d: '1490' }, emulator))}`,
    );
  });

  it('lists pending orders with the real symbol and qty as a number; an empty account is []', async () => {
    expect((await invokeHttp(handler(getPendingGttOrders), getPendingGttOrders)).body).toEqual({
      orders: [],
      asOf: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const placed = (await place()).body as { al_id: string };
    const list = await invokeHttp(handler(getPendingGttOrders), getPendingGttOrders);
    expect(list.status).toBe(200);
    const orders = (list.body as { orders: Record<string, unknown>[] }).orders;
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      al_id: placed.al_id,
      tsym: 'M&M-EQ',
      qty: 5,
      prc: '1500.50',
      d: '1490',
      stat: 'Ok',
    });
  });

  it('lists the enabled GTT types, the other alert types the broker names among them, as it answers them', async () => {
    const reply = await invokeHttp(handler(getEnabledGtts), getEnabledGtts);
    expect(reply.status).toBe(200);
    const named = ['LTP_B_O', 'CH_PER_A_O', 'ATP_B_O', 'OI_A_O', 'TOI_B_O', 'VOLUME_A_O', 'LTP_B_52LOW', 'LMT_BOS_O'];
    expect(reply.body).toMatchObject({ stat: 'Ok', ai_ts: expect.arrayContaining(named.map((ai_t) => ({ ai_t }))) });
  });

  it('modifies through PUT /gtt-orders/{alId} and the change is visible in the pending list', async () => {
    const { al_id } = (await place()).body as { al_id: string };
    const reply = await invokeHttp(handler(modifyGttOrder), modifyGttOrder, {
      pathParameters: { alId: al_id },
      body: { ...order, qty: 7, d: '1480.5' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ stat: 'OI replaced', al_id });
    const { orders } = (await invokeHttp(handler(getPendingGttOrders), getPendingGttOrders)).body as {
      orders: { qty: number; d: string }[];
    };
    expect(orders[0]).toMatchObject({ qty: 7, d: '1480.5' });
    const logged = (await control.requests()).find((r) => r.operation === 'ModifyGTTOrder');
    expect(Object.keys(logged!.jData!)).toEqual([
      'uid',
      'actid',
      'exch',
      'tsym',
      'al_id',
      'ai_t',
      'validity',
      'd',
      'trantype',
      'prctyp',
      'prd',
      'ret',
      'qty',
      'prc',
    ]);
  });

  it('rejects a body al_id that differs from the path, without calling the broker', async () => {
    const reply = await invokeHttp(handler(modifyGttOrder), modifyGttOrder, {
      pathParameters: { alId: '123' },
      body: { ...order, al_id: '456' },
    });
    expect(reply.status).toBe(400);
    expect(await control.requests()).toEqual([]);
  });

  it('modify and cancel of an unknown al_id are ORDER_NOT_FOUND (404)', async () => {
    const modify = await invokeHttp(handler(modifyGttOrder), modifyGttOrder, {
      pathParameters: { alId: '999' },
      body: order,
    });
    expect(modify.status).toBe(404);
    expect(modify.body).toMatchObject({ error: { code: 'ORDER_NOT_FOUND', outcome: 'not_executed' } });
    const cancel = await invokeHttp(handler(cancelGttOrder), cancelGttOrder, { pathParameters: { alId: '999' } });
    expect(cancel.status).toBe(404);
  });

  it('cancels through DELETE /gtt-orders/{alId}; a second cancel is ORDER_NOT_FOUND', async () => {
    const { al_id } = (await place()).body as { al_id: string };
    const first = await invokeHttp(handler(cancelGttOrder), cancelGttOrder, { pathParameters: { alId: al_id } });
    expect(first).toMatchObject({ status: 200, body: { stat: 'OI deleted', al_id } });
    const second = await invokeHttp(handler(cancelGttOrder), cancelGttOrder, { pathParameters: { alId: al_id } });
    expect(second).toMatchObject({ status: 404, body: { error: { code: 'ORDER_NOT_FOUND' } } });
  });

  it('reads client details for the secret account', async () => {
    const reply = await invokeHttp(handler(clientDetails), clientDetails);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ stat: 'Ok', actid: emulator.actid, exarr: expect.arrayContaining(['NSE']) });
    const [request] = await control.requests();
    expect(request!.jData).toEqual({ uid: emulator.uid, actid: emulator.actid });
  });

  it('logs out; afterwards every call is SESSION_EXPIRED', async () => {
    const reply = await invokeHttp(handler(logout), logout);
    expect(reply).toMatchObject({ status: 200, body: { stat: 'Ok' } });
    for (const op of [getPendingGttOrders, clientDetails, getEnabledGtts]) {
      const after = await invokeHttp(handler(op), op);
      expect(after.status).toBe(503);
      // A warm container meets the broker's refusal and re-reads; a cold one reads the mark and sends nothing.
      expect(after.body).toMatchObject({
        error: { code: 'SESSION_EXPIRED', message: expect.stringMatching(/logged out/) },
      });
    }
    const placeAfter = await place();
    expect(placeAfter.body).toMatchObject({ error: { code: 'SESSION_EXPIRED', outcome: 'not_executed' } });
  });
});

describe('direct invocation (Step Functions / EventBridge)', () => {
  it('returns the reply object itself', async () => {
    const placed = await invokeDirect(handler(placeGttOrder), placeGttOrder, order);
    expect(placed).toMatchObject({ ok: true, result: { stat: 'OI created' } });
    const listed = await invokeDirect(handler(getPendingGttOrders), getPendingGttOrders, {});
    expect(listed).toMatchObject({ ok: true, result: { orders: [{ tsym: 'M&M-EQ' }] } });
  });

  it('takes the payload from an EventBridge event detail', async () => {
    const event = { version: '0', id: 'e1', 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} };
    expect(await invokeDirect(handler(getPendingGttOrders), getPendingGttOrders, event)).toMatchObject({ ok: true });
  });

  it('accepts al_id in the payload for modify and cancel', async () => {
    const placed = await invokeDirect(handler(placeGttOrder), placeGttOrder, order);
    const al_id = (placed as { result: { al_id: string } }).result.al_id;
    expect(await invokeDirect(handler(modifyGttOrder), modifyGttOrder, { ...order, al_id, qty: 2 })).toMatchObject({
      ok: true,
      result: { stat: 'OI replaced' },
    });
    expect(await invokeDirect(handler(cancelGttOrder), cancelGttOrder, { al_id })).toMatchObject({
      ok: true,
      result: { al_id },
    });
  });

  it('fails with named errors a Step Functions Catch can match', async () => {
    expect(await invokeDirect(handler(cancelGttOrder), cancelGttOrder, { al_id: '1' })).toMatchObject({
      ok: false,
      name: 'OrderNotFound',
      error: { code: 'ORDER_NOT_FOUND' },
    });
    expect(await invokeDirect(handler(placeGttOrder), placeGttOrder, { ...order, qty: 0 })).toMatchObject({
      ok: false,
      name: 'ValidationFailed',
      error: { code: 'VALIDATION_FAILED', details: [{ field: 'qty' }] },
    });
    expect(await invokeDirect(handler(placeGttOrder), placeGttOrder, 'not an object')).toMatchObject({
      ok: false,
      name: 'ValidationFailed',
    });
  });
});
