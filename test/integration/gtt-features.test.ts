/**
 * The GTT features beyond the seven operations, end to end: OCO place/modify/cancel, one order by id, the
 * triggered history, tags, list filters and every exchange, over HTTP through the local API and by direct
 * invocation, with idempotency replays and dry runs (real handlers, dynalite, the emulator, local Secrets Manager),
 * once for each dialect the emulator speaks.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let seq = 0;
const key = () => `feat-${Date.now()}-${++seq}`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions on arbitrary JSON

const http = localApi<Json>(() => stack.api.url);
/** A direct invocation, as Step Functions makes it (the local API's /_invoke route mirrors Lambda's Invoke). */
const direct = async (operation: string, payload: unknown) => http('POST', `/_invoke/${operation}`, payload);

/** Closing a long M&M-EQ position: target 1600, stop-loss 1400. */
const oco = {
  exch: 'NSE',
  tsym: 'M&M-EQ',
  tag: 'exit-mm',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 5, prc: '1598', prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'MKT', qty: 5, prd: 'C' } },
};
const single = { ...SAMPLE_ORDER, tsym: 'INFY-EQ', qty: 2, prc: '1500', d: '1490', tag: 'dip-buy' };

// Every dialect of the broker family (docs/explanation/broker-wire.md, "Dialects"): the gateway answers the same in each.
describe.each(['noren', '2021', 'flattrade'] as const)('with the emulator speaking the %s dialect', (dialect) => {
  beforeAll(async () => {
    stack = await startLocalStack({
      dialect,
      brokerTimeoutMs: 2_000,
      settings: { ...HIGH_ORDER_RATE, GUARDRAIL_MAX_QTY: 100 },
    });
    control = emulatorControl(stack.emulator.url);
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(async () => {
    await control.reset();
  });

  describe('OCO over HTTP', () => {
    it('places with an idempotency key (a retry replays), lists it normalised, gets it by id, modifies and cancels it', async () => {
      const k = key();
      const placed = await http('POST', '/gtt-orders/oco', oco, { 'Idempotency-Key': k });
      expect(placed).toMatchObject({
        status: 201,
        body: { stat: 'OI created', idempotency: { key: k, replayed: false } },
      });
      const again = await http('POST', '/gtt-orders/oco', oco, { 'Idempotency-Key': k });
      expect(again.body).toMatchObject({ al_id: placed.body.al_id, idempotency: { replayed: true } });
      expect((await control.requests()).filter((r) => r.operation === 'PlaceOCOOrder')).toHaveLength(1);

      const alId = String(placed.body.al_id);
      const list = await http('GET', '/gtt-orders');
      expect(list.body.orders).toEqual([
        expect.objectContaining({
          al_id: alId,
          type: 'oco',
          tag: 'exit-mm',
          ai_t: 'LMT_BOS_O',
          target: { trigger: '1600', order: expect.objectContaining({ trantype: 'S', prctyp: 'LMT', qty: 5 }) },
          // The market stop-loss went as a protected limit order (docs/explanation/compliance.md): 0.5 % below 1400.
          stopLoss: { trigger: '1400', order: expect.objectContaining({ prctyp: 'LMT', prc: '1393.00' }) },
        }),
      ]);
      expect((await http('GET', `/gtt-orders/${alId}`)).body).toMatchObject({ al_id: alId, type: 'oco' });

      const modified = await http('PUT', `/gtt-orders/oco/${alId}`, {
        ...oco,
        target: { ...oco.target, trigger: '1650' },
      });
      expect(modified).toMatchObject({ status: 200, body: { stat: 'OI replaced', al_id: alId } });
      expect((await http('GET', `/gtt-orders/${alId}`)).body.target.trigger).toBe('1650');

      expect(await http('DELETE', `/gtt-orders/${alId}`)).toMatchObject({ status: 200, body: { stat: 'OI deleted' } });
      expect(await http('GET', `/gtt-orders/${alId}`)).toMatchObject({
        status: 404,
        body: { error: { code: 'ORDER_NOT_FOUND' } },
      });
    });

    it('a dry run shows the exact OCO wire request and sends nothing', async () => {
      const dry = await http('POST', '/gtt-orders/oco?dryRun=true', oco);
      expect(dry.status).toBe(200);
      expect(dry.body.request.jData).toMatchObject({
        ai_t: 'LMT_BOS_O',
        tsym: 'M%26M-EQ',
        oivariable: [
          { d: '1600', var_name: 'x' },
          { d: '1400', var_name: 'y' },
        ],
        place_order_params: { trantype: 'S', prctyp: 'LMT', qty: '5', prc: '1598' },
        place_order_params_leg2: { prctyp: 'LMT', prc: '1393.00' },
        remarks: 'exit-mm',
      });
      expect(JSON.stringify(dry.body)).not.toContain(stack.emulator.token);
      expect((await control.requests()).filter((r) => r.operation === 'PlaceOCOOrder')).toHaveLength(0);
    });

    it('guardrails check each leg; the sides of the triggers are checked; nothing is sent', async () => {
      const big = { ...oco, stopLoss: { ...oco.stopLoss, order: { ...oco.stopLoss.order, qty: 500 } } };
      expect(await http('POST', '/gtt-orders/oco', big, { 'Idempotency-Key': key() })).toMatchObject({
        status: 422,
        body: { error: { code: 'GUARDRAIL_REJECTED' } },
      });
      const swapped = { ...oco, target: { ...oco.target, trigger: '1300' } };
      const refused = await http('POST', '/gtt-orders/oco', swapped, { 'Idempotency-Key': key() });
      expect(refused).toMatchObject({
        status: 400,
        body: { error: { code: 'VALIDATION_FAILED', details: [{ field: 'target.trigger' }] } },
      });
      expect(await http('POST', '/gtt-orders/oco', oco)).toMatchObject({
        status: 400,
        body: { error: { details: [{ field: 'Idempotency-Key' }] } },
      });
      expect((await control.requests()).filter((r) => r.operation === 'PlaceOCOOrder')).toHaveLength(0);
    });
  });

  describe('OCO by direct invocation (Step Functions)', () => {
    it('places with idempotencyKey, replays, and modifies', async () => {
      const k = key();
      const first = await direct('PlaceOCOOrder', { ...oco, idempotencyKey: k });
      const second = await direct('PlaceOCOOrder', { ...oco, idempotencyKey: k });
      expect(first.body).toMatchObject({ stat: 'OI created', idempotency: { replayed: false } });
      expect(second.body).toMatchObject({ al_id: first.body.al_id, idempotency: { replayed: true } });
      const modified = await direct('ModifyOCOOrder', {
        ...oco,
        al_id: first.body.al_id,
        stopLoss: { ...oco.stopLoss, trigger: '1450' },
      });
      expect(modified.body).toMatchObject({ stat: 'OI replaced' });
      const dry = await direct('PlaceOCOOrder', { ...oco, dryRun: true });
      expect(dry.body).toMatchObject({ dryRun: true, operation: 'PlaceOCOOrder' });
    });
  });

  describe('triggered history', () => {
    it('an OCO fires one leg; it leaves the pending list and shows in /gtt-orders/triggered with the leg and the tag', async () => {
      const stopFires = await http('POST', '/gtt-orders/oco', oco, { 'Idempotency-Key': key() });
      const singleOrder = await http('POST', '/gtt-orders', single, { 'Idempotency-Key': key() });
      expect(await http('GET', '/gtt-orders/triggered')).toMatchObject({ status: 200, body: { orders: [] } });

      const ltp = async (exch: string, tsym: string, value: number) =>
        fetch(`${stack.emulator.url}/_emulator/ltp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ exch, tsym, ltp: value }),
        });
      await ltp('NSE', 'M&M-EQ', 1500);
      await ltp('NSE', 'M&M-EQ', 1390); // below the stop-loss
      await ltp('NSE', 'INFY-EQ', 1480); // below the single order's trigger

      const pending = (await http('GET', '/gtt-orders')).body.orders as Json[];
      expect(pending).toEqual([]);
      const fired = (await http('GET', '/gtt-orders/triggered')).body.orders as Json[];
      expect(fired).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            al_id: stopFires.body.al_id,
            type: 'oco',
            firedLeg: 'stopLoss',
            tag: 'exit-mm',
            status: expect.stringMatching(/trigger/i),
          }),
          expect.objectContaining({ al_id: singleOrder.body.al_id, type: 'single', tag: 'dip-buy' }),
        ]),
      );
      expect(fired.every((o) => typeof o.triggeredAt === 'string')).toBe(true);
      // The same by direct invocation.
      expect((await direct('GetTriggeredGTTOrders', {})).body.orders).toHaveLength(2);
    });
  });

  describe('single orders: tags, filters, every exchange, one order', () => {
    it('lists with ?tsym= and ?exch= filters; GET one by id; 404 for an unknown id', async () => {
      // An MCX contract and an expired SENSEX option (in SENSEX's lot of 20): neither is in the shipped list.
      await control.switches({ acceptAnySymbol: true });
      const a = await http('POST', '/gtt-orders', single, { 'Idempotency-Key': key() });
      await http(
        'POST',
        '/gtt-orders',
        { ...single, exch: 'BFO', tsym: 'SENSEX25DEC80000CE', qty: 20, ai_t: 'LTP_A_O', d: '90', prc: '100', prd: 'M' },
        { 'Idempotency-Key': key() },
      );
      await http(
        'POST',
        '/gtt-orders',
        { ...single, exch: 'MCX', tsym: 'CRUDEOIL25DECFUT', prd: 'M' },
        { 'Idempotency-Key': key() },
      );
      expect((await http('GET', '/gtt-orders')).body.orders).toHaveLength(3);
      expect((await http('GET', '/gtt-orders?exch=BFO')).body.orders.map((o: Json) => o.tsym)).toEqual([
        'SENSEX25DEC80000CE',
      ]);
      expect((await http('GET', `/gtt-orders?tsym=${encodeURIComponent('INFY-EQ')}&exch=NSE`)).body.orders).toEqual([
        expect.objectContaining({ al_id: a.body.al_id, type: 'single', tag: 'dip-buy', trigger: '1490' }),
      ]);
      expect((await http('GET', '/gtt-orders?exch=NYSE')).status).toBe(400);
      expect((await http('GET', `/gtt-orders/${String(a.body.al_id)}`)).body).toMatchObject({
        al_id: a.body.al_id,
        tsym: 'INFY-EQ',
      });
      expect(await http('GET', '/gtt-orders/12345678901234')).toMatchObject({
        status: 404,
        body: { error: { code: 'ORDER_NOT_FOUND' } },
      });
      expect((await direct('GetGTTOrder', { al_id: a.body.al_id })).body).toMatchObject({ al_id: a.body.al_id });
      expect((await direct('GetPendingGTTOrder', { exch: 'MCX' })).body.orders).toHaveLength(1);
    });
  });
});
