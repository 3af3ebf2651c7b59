/** OCO input, tags and list filters: what a caller may send, and the wire form the gateway builds from it. */
import { describe, expect, it } from 'vitest';

import { decodeBrokerReply } from '../../functions/base/broker/reply.js';
import { validateInput } from '../../functions/base/contract/validate-input.js';
import {
  getOrderInput,
  listOrdersInput,
  modifyOcoInput,
  placeOcoInput,
  placeOrderInput,
} from '../../functions/base/schemas/input.js';
import {
  getGttOrder,
  getPendingGttOrders,
  modifyOcoOrder,
  placeGttOrder,
  placeOcoOrder,
} from '../../functions/orders/operations.js';
import { problemsOf } from '../support/validation.js';
import { wireOcoLeg } from '../support/wire-order.js';

const session = { accessToken: 'token-never-in-jdata', uid: 'U1', actid: 'A1' };
/** Long position exit: sell at 1600 (target) or 1400 (stop-loss). */
const oco = {
  exch: 'NSE',
  tsym: 'M&M-EQ',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 5, prc: '1599', prd: 'C' } },
  stopLoss: { trigger: 1400, order: { trantype: 'S', prctyp: 'MKT', qty: 5, prd: 'C' } },
};

const fields = (schema: Parameters<typeof validateInput>[0], payload: unknown) =>
  problemsOf(schema, payload).map((p) => p.field);

describe('OCO input', () => {
  it('maps target/stopLoss to the wire: x = target = place_order_params, y = stop-loss = leg 2, LMT_BOS_O', () => {
    const input = validateInput(placeOcoInput, { ...oco, tag: 'swing-1' });
    const jData = placeOcoOrder.toJData(input, session);
    expect(jData).toEqual({
      uid: 'U1',
      ai_t: 'LMT_BOS_O',
      validity: 'GTT',
      tsym: 'M%26M-EQ',
      exch: 'NSE',
      oivariable: [
        { d: '1600', var_name: 'x' },
        { d: '1400', var_name: 'y' },
      ],
      place_order_params: wireOcoLeg(session, { tsym: 'M%26M-EQ', qty: '5', prc: '1599' }),
      place_order_params_leg2: wireOcoLeg(session, { tsym: 'M%26M-EQ', prctyp: 'MKT', qty: '5', prc: '0' }),
      remarks: 'swing-1',
      actid: 'A1',
    });
    expect(JSON.stringify(jData)).not.toContain(session.accessToken);
    // Both legs reach the guardrails, each with its own trigger.
    expect(placeOcoOrder.guardedOrders!(input).map((o) => [o.d, o.prc, o.prctyp])).toEqual([
      ['1600', '1599', 'LMT'],
      ['1400', '0', 'MKT'],
    ]);
  });

  it('modify sends the full OCO plus al_id', () => {
    const input = validateInput(modifyOcoInput, { ...oco, al_id: '26112200000001' });
    expect(modifyOcoOrder.toJData(input, session)).toMatchObject({ al_id: '26112200000001', ai_t: 'LMT_BOS_O' });
  });

  it('closing a long (S): the target must be above the stop-loss', () => {
    const swapped = { ...oco, target: { ...oco.target, trigger: '1300' } };
    expect(problemsOf(placeOcoInput, swapped)).toContainEqual({
      field: 'target.trigger',
      message: 'selling to close a long: target.trigger (1300) must be above stopLoss.trigger (1400)',
    });
  });

  it('closing a short (B): the target must be below the stop-loss', () => {
    const buy = (t: string, s: string) => ({
      ...oco,
      target: { trigger: t, order: { ...oco.target.order, trantype: 'B' } },
      stopLoss: { trigger: s, order: { ...oco.stopLoss.order, trantype: 'B' } },
    });
    expect(validateInput(placeOcoInput, buy('1400', '1600')).target.trigger).toBe('1400');
    expect(fields(placeOcoInput, buy('1600', '1400'))).toEqual(['target.trigger']);
  });

  it('with an ltp, it must lie between the triggers', () => {
    expect(validateInput(placeOcoInput, { ...oco, ltp: '1500' }).ltp).toBe('1500');
    expect(fields(placeOcoInput, { ...oco, ltp: '1650' })).toEqual(['ltp']);
    // The ltp is never sent.
    expect(placeOcoOrder.toJData(validateInput(placeOcoInput, { ...oco, ltp: '1500' }), session)).not.toHaveProperty(
      'ltp',
    );
  });

  it('both legs must close the same position', () => {
    const mixed = { ...oco, stopLoss: { ...oco.stopLoss, order: { ...oco.stopLoss.order, trantype: 'B' } } };
    expect(fields(placeOcoInput, mixed)).toEqual(['stopLoss.order.trantype']);
  });

  it('names nested fields in its errors, and refuses unknown ones', () => {
    const bad = { ...oco, target: { trigger: '0', order: { ...oco.target.order, qty: 0, prc: undefined } }, x: 1 };
    expect(fields(placeOcoInput, bad)).toEqual(['target.order.qty', 'x']);
    expect(fields(placeOcoInput, { ...oco, ai_t: 'LMT_BOS_O' })).toEqual(['ai_t']);
    expect(fields(placeOcoInput, { ...oco, target: { ...oco.target, d: '1' } })).toEqual(['target.d']);
    expect(fields(placeOcoInput, { ...oco, target: { ...oco.target, trigger: '0' } })).toEqual(['target.trigger']);
    expect(fields(placeOcoInput, { ...oco, stopLoss: undefined })).toContain('stopLoss');
  });
});

describe('tag', () => {
  const single = {
    exch: 'BFO',
    tsym: 'SENSEX25DEC80000CE',
    qty: 20,
    prc: '100',
    prd: 'M',
    trantype: 'B',
    prctyp: 'LMT',
    ret: 'DAY',
    ai_t: 'LTP_A_O',
    d: '95',
  };
  it('is sent as remarks, and only when given', () => {
    expect(
      placeGttOrder.toJData(validateInput(placeOrderInput, { ...single, tag: 'momentum.v2' }), session),
    ).toMatchObject({ remarks: 'momentum.v2' });
    expect(placeGttOrder.toJData(validateInput(placeOrderInput, single), session)).not.toHaveProperty('remarks');
  });
  it.each([
    ['x'.repeat(41), 'tag must be at most 40 characters'],
    ['', 'tag must not be empty (omit it instead)'],
    ['a"b', 'tag may hold letters, digits, spaces and _ . : / - only'],
  ])('refuses %j', (tag, message) => {
    expect(problemsOf(placeOrderInput, { ...single, tag })).toContainEqual({ field: 'tag', message });
  });
});

describe('list filters and one order', () => {
  const json = (body: unknown) => ({ status: 200, contentType: 'application/json', text: JSON.stringify(body) });
  const record = (al_id: string, tsym: string, extra: Record<string, unknown> = {}) => ({
    stat: 'Ok',
    al_id,
    ai_t: 'LTP_B_O',
    tsym,
    exch: 'NSE',
    trantype: 'B',
    prctyp: 'LMT',
    qty: 1,
    prc: '10',
    prd: 'C',
    d: '9',
    ...extra,
  });
  const ocoRecord = record('3', 'INFY-EQ', {
    ai_t: 'LMT_BOS_O',
    d: '',
    trantype: 'S',
    remarks: 'exit-infy',
    oivariable: [
      { var_name: 'x', d: '1600' },
      { var_name: 'y', d: '1400' },
    ],
    place_order_params: { trantype: 'S', prctyp: 'LMT', qty: 5, prc: '1599' },
    place_order_params_leg2: { trantype: 'S', prctyp: 'MKT', qty: 5, prc: '0' },
  });
  const book = json([record('1', 'M&M-EQ'), record('2', 'TCS-EQ'), ocoRecord]);

  it('normalises single and OCO orders with a type, and filters by tsym and exch', () => {
    const all = decodeBrokerReply(getPendingGttOrders, book, {}) as { orders: Record<string, unknown>[] };
    expect(all.orders.map((o) => [o.al_id, o.type])).toEqual([
      ['1', 'single'],
      ['2', 'single'],
      ['3', 'oco'],
    ]);
    expect(all.orders[0]).toMatchObject({ trigger: '9' });
    expect(all.orders[2]).toMatchObject({
      tag: 'exit-infy',
      target: { trigger: '1600', order: { prctyp: 'LMT', qty: 5 } },
      stopLoss: { trigger: '1400', order: { prctyp: 'MKT' } },
    });
    const filters = validateInput(listOrdersInput, { tsym: 'TCS-EQ', exch: 'NSE' });
    expect((decodeBrokerReply(getPendingGttOrders, book, filters) as { orders: unknown[] }).orders).toHaveLength(1);
    expect(fields(listOrdersInput, { exch: 'NYSE' })).toEqual(['exch']);
  });

  it('one order by id, or ORDER_NOT_FOUND (also on an empty book)', () => {
    expect(decodeBrokerReply(getGttOrder, book, validateInput(getOrderInput, { al_id: '3' }))).toMatchObject({
      al_id: '3',
      type: 'oco',
    });
    for (const reply of [book, json({ stat: 'Not_Ok', emsg: 'no data' })]) {
      expect(() => decodeBrokerReply(getGttOrder, reply, { al_id: '9' })).toThrow(
        expect.objectContaining({ code: 'ORDER_NOT_FOUND', status: 404 }),
      );
    }
  });
});
