/**
 * The plain PlaceOrder's wire (docs/explanation/broker-wire.md, "PlaceOrder"): its jData in NorenRestApiPy's
 * place_order fields and order, the stamp after the tag in remarks; its reply read in every dialect the family
 * writes (`stat` in any case, `Norenordno`, a numeric order number), a Not_Ok its failure, a reply without an order
 * number BROKER_BAD_REPLY with its outcome unknown; the input a limit order only.
 */
import { describe, expect, it } from 'vitest';

import { annotateOutcome } from '../../functions/base/broker/call-broker.js';
import { plainOrderJData } from '../../functions/base/broker/order-jdata.js';
import { stampOf } from '../../functions/base/broker/order-stamps.js';
import { decodeBrokerReply } from '../../functions/base/broker/reply.js';
import { GatewayError } from '../../functions/base/contract/errors.js';
import { plainOrderInput } from '../../functions/base/schemas/plain-order.js';
import { placeOrder } from '../../functions/orders/plain-order-operation.js';

const session = { uid: 'FA12345', actid: 'FA12345' } as Parameters<typeof plainOrderJData>[1];
const order = plainOrderInput.parse({
  exch: 'NSE',
  tsym: 'M&M-EQ',
  trantype: 'S',
  qty: 3,
  prc: '1495.5',
  prd: 'MIS',
  prctyp: 'LMT',
  tag: 'day-limit',
  exit: true,
});
const json = (body: unknown, status = 200) => ({ status, contentType: 'application/json', text: JSON.stringify(body) });
const failureOf = (body: unknown): GatewayError => {
  try {
    decodeBrokerReply(placeOrder, json(body), order);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return annotateOutcome(placeOrder, error as GatewayError);
  }
  throw new Error('expected a failure');
};

describe('PlaceOrder jData', () => {
  it("carries NorenRestApiPy's place_order fields in its order, the symbol encoded, the stamp after the tag", () => {
    const stamp = stampOf('PlaceOrder', 'key-1');
    const jData = plainOrderJData(order, session, { stamp, algoId: 'ALGO42' });
    expect(Object.keys(jData)).toEqual([
      'ordersource',
      'uid',
      'actid',
      'trantype',
      'prd',
      'exch',
      'tsym',
      'qty',
      'dscqty',
      'prctyp',
      'prc',
      'ret',
      'remarks',
      'algo_id',
    ]);
    expect(jData).toMatchObject({
      ordersource: 'API',
      uid: 'FA12345',
      trantype: 'S',
      prd: 'I',
      tsym: 'M%26M-EQ',
      qty: '3',
      dscqty: '0',
      prctyp: 'LMT',
      prc: '1495.5',
      ret: 'DAY',
      remarks: `day-limit ${stamp}`,
      algo_id: 'ALGO42',
    });
  });

  it('without a tag the stamp alone; without a stamp or tag no remarks', () => {
    const { tag: _tag, ...untagged } = order;
    expect(plainOrderJData(untagged, session, { stamp: 'gw.0123456789' }).remarks).toBe('gw.0123456789');
    expect(plainOrderJData(untagged, session)).not.toHaveProperty('remarks');
  });
});

describe('PlaceOrder reply in every dialect', () => {
  it.each([
    ['canonical', { request_time: '10:15:18 07-12-2026', stat: 'Ok', norenordno: '26120700000042' }],
    ['stat in capitals', { request_time: 't', stat: 'OK', norenordno: '26120700000042' }],
    ['stat lower case, padded', { request_time: 't', stat: ' ok ', norenordno: '26120700000042' }],
    ['Norenordno capitalised', { request_time: 't', stat: 'Ok', Norenordno: '26120700000042' }],
    ['NORENORDNO, a JSON number', { stat: 'Ok', NORENORDNO: 26120700000042 }],
    ['no request_time', { stat: 'Ok', norenordno: '26120700000042' }],
  ])('%s', (_label, body) => {
    expect(decodeBrokerReply(placeOrder, json(body), order)).toMatchObject({
      stat: 'Ok',
      norenordno: '26120700000042',
    });
  });

  it('the canonical key wins over a variant of it', () => {
    const body = { stat: 'Ok', Norenordno: '1', norenordno: '26120700000042' };
    expect(decodeBrokerReply(placeOrder, json(body), order)).toMatchObject({ norenordno: '26120700000042' });
  });

  it('Not_Ok is the broker refusing it (nothing placed); with a 4xx status too', () => {
    const refused = failureOf({ stat: 'Not_Ok', emsg: 'Invalid Input : Invalid Trading Symbol' });
    expect(refused).toMatchObject({ code: 'BROKER_REJECTED', outcome: 'not_executed' });
    expect(refused.brokerMessage).toBe('Invalid Input : Invalid Trading Symbol');
    expect(() =>
      decodeBrokerReply(placeOrder, json({ stat: 'Not_Ok', emsg: 'Session Expired :  Invalid Session Key' }, 400), {}),
    ).toThrow(expect.objectContaining({ code: 'SESSION_EXPIRED' }));
    expect(failureOf({ stat: 'Not_Ok', emsg: 'ALGO_CHK: MKT Order type not allowed for API order' }).outcome).toBe(
      'not_executed',
    );
  });

  it('a success without an order number (or with letters in it) is unreadable: its outcome unknown', () => {
    for (const body of [{ stat: 'Ok' }, { stat: 'Ok', norenordno: 'ABC' }, { stat: 'OI created', al_id: '1' }]) {
      const error = failureOf(body);
      expect(error).toMatchObject({ code: 'BROKER_BAD_REPLY', outcome: 'unknown' });
      expect(error.message).toMatch(/check the day's orders \(GET \/orders\)/);
    }
  });
});

describe('PlaceOrder input', () => {
  it('a limit order only, with a positive price; products C, M, I (CNC, NRML, MIS); exit false unless said', () => {
    const base = { exch: 'NSE', tsym: 'INFY-EQ', trantype: 'B', qty: 1, prc: '1500', prd: 'C', prctyp: 'LMT' };
    expect(plainOrderInput.parse(base)).toMatchObject({ ret: 'DAY', exit: false, qty: '1' });
    expect(plainOrderInput.parse({ ...base, prd: 'nrml' }).prd).toBe('M');
    expect(plainOrderInput.parse(placeOrder.example)).toMatchObject({ exit: true, prctyp: 'LMT' });
    for (const bad of [
      { prctyp: 'MKT', prc: '0' },
      { prctyp: 'SL-LMT' },
      { prc: '0' },
      { prd: 'H' },
      { ret: 'EOS' },
      { exit: 'yes' },
      { quantity: 1 },
    ]) {
      expect(plainOrderInput.safeParse({ ...base, ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
