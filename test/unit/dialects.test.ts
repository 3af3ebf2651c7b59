/**
 * The reader of the family's dialects (functions/base/broker/dialects.ts): every accepted success text and key, numbers as
 * strings or numbers, and a reply in no known dialect still BROKER_BAD_REPLY with its outcome unknown.
 */
import { describe, expect, it } from 'vitest';

import { annotateOutcome } from '../../functions/base/broker/call-broker.js';
import {
  CANONICAL_KEYS,
  CANONICAL_TEXT,
  canonicalStat,
  CAPITALISED_2021_KEYS,
  SUCCESS_TEXTS,
  toCanonicalDialect,
} from '../../functions/base/broker/dialects.js';
import { decodeBrokerReply } from '../../functions/base/broker/reply.js';
import { GatewayError } from '../../functions/base/contract/errors.js';
import type { AnyOperation } from '../../functions/base/contract/operation.js';
import {
  cancelGttOrder,
  getGttOrder,
  getOrderBook,
  getPendingGttOrders,
  getTriggeredGttOrders,
  modifyGttOrder,
  modifyOcoOrder,
  placeGttOrder,
  placeOcoOrder,
} from '../../functions/orders/operations.js';

const json = (body: unknown) => ({ status: 200, contentType: 'application/json', text: JSON.stringify(body) });

const WRITES: Record<keyof typeof CANONICAL_TEXT, AnyOperation[]> = {
  created: [placeGttOrder, placeOcoOrder],
  replaced: [modifyGttOrder, modifyOcoOrder],
  deleted: [cancelGttOrder],
};

const failureOf = (operation: AnyOperation, body: unknown): GatewayError => {
  try {
    decodeBrokerReply(operation, json(body), {});
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return annotateOutcome(operation, error as GatewayError);
  }
  throw new Error('expected a failure');
};

describe('success texts of every dialect', () => {
  const cases = SUCCESS_TEXTS.flatMap((s) =>
    [s.text, s.text.toUpperCase(), s.text.toLowerCase(), ` ${s.text} `].flatMap((text) =>
      WRITES[s.action].flatMap((operation) =>
        (['al_id', 'Al_id', 'AL_ID'] as const).map((key) => ({ action: s.action, text, operation, key })),
      ),
    ),
  );

  it.each(cases)('$operation.broker reads "$text" with $key', ({ text, operation, key }) => {
    const result = decodeBrokerReply(
      operation,
      json({ request_time: '12:15:18 15-04-2021', stat: text, [key]: '21041500000008' }),
      {},
    );
    expect(result).toMatchObject({ al_id: '21041500000008' });
  });

  it('every text maps to its action, and only to it', () => {
    for (const s of SUCCESS_TEXTS) expect(canonicalStat(s.text)).toBe(CANONICAL_TEXT[s.action]);
    expect(canonicalStat('Oi Replacedt')).toBe('OI replaced');
    expect(canonicalStat('Oi delete success')).toBe('OI deleted');
    expect(canonicalStat('invalid oi')).toBe('Invalid Oi');
  });

  it('an al_id sent as a JSON number is read as its digits', () => {
    expect(
      decodeBrokerReply(placeGttOrder, json({ request_time: 't', stat: 'Oi created', Al_id: 21041500000008 }), {}),
    ).toMatchObject({
      al_id: '21041500000008',
    });
  });

  it('the text of another action is not success', () => {
    const error = failureOf(placeGttOrder, { request_time: 't', stat: 'Oi delete success', al_id: '1' });
    expect(error.code).toBe('BROKER_BAD_REPLY');
    expect(error.outcome).toBe('unknown');
  });

  it.each([
    [placeGttOrder, 'OI placed'],
    [placeOcoOrder, 'Oi create'],
    [modifyGttOrder, 'Oi Replacedtt'],
    [modifyOcoOrder, 'OI modified'],
    [cancelGttOrder, 'Oi delete'],
  ])('%s.broker: an unknown text "%s" stays BROKER_BAD_REPLY with outcome unknown', (operation, stat) => {
    const error = failureOf(operation, { request_time: 't', stat, al_id: '21041500000008' });
    expect(error.code).toBe('BROKER_BAD_REPLY');
    expect(error.outcome).toBe('unknown');
  });

  it('Invalid Oi in any case is ORDER_NOT_FOUND', () => {
    expect(failureOf(cancelGttOrder, { stat: 'INVALID OI', Al_id: '1' }).code).toBe('ORDER_NOT_FOUND');
  });
});

/** The 2021 documentation's GetPendingGTTOrder sample record. */
const RECORD_2021 = {
  stat: 'Ok',
  ai_t: 'LTP_A',
  Al_id: '21041500000002',
  tsym: 'ACC-EQ',
  exch: 'NSE',
  Token: '22',
  Remarks: 'test',
  validity: 'DAY',
  actid: 'MOHINI',
  trantype: 'B',
  prctyp: 'LMT',
  Qty: 1,
  Prc: '1305.00',
  C: 'C',
  prd: 'C',
  ordersource: 'MOB',
  d: '1900.00',
};

describe('keys of every dialect', () => {
  it('the 2021 pending record reads as the canonical one, tag from Remarks', () => {
    const result = decodeBrokerReply(getPendingGttOrders, json([RECORD_2021]), {}) as { orders: unknown[] };
    expect(result.orders[0]).toMatchObject({
      al_id: '21041500000002',
      token: '22',
      remarks: 'test',
      tag: 'test',
      qty: 1,
      prc: '1305.00',
      C: 'C',
      type: 'single',
      trigger: '1900.00',
    });
    expect(decodeBrokerReply(getGttOrder, json([RECORD_2021]), { al_id: '21041500000002' })).toMatchObject({
      al_id: '21041500000002',
      tag: 'test',
    });
  });

  it('each capitalised key of 2021 becomes its canonical key', () => {
    for (const key of CAPITALISED_2021_KEYS) {
      const out = toCanonicalDialect({ [key]: 'v' }) as Record<string, unknown>;
      expect(Object.keys(out)).toEqual([key.toLowerCase()]);
    }
  });

  it.each(CANONICAL_KEYS.filter((k) => k !== 'C'))('%s in any case is read as %s', (key) => {
    const upper = key.toUpperCase();
    const capital = key[0]!.toUpperCase() + key.slice(1);
    for (const variant of [upper, capital]) {
      expect(Object.keys(toCanonicalDialect({ [variant]: 'x' }) as object)).toEqual([key]);
    }
  });

  it('the canonical key wins, C keeps its capital, numbers of string fields become text', () => {
    expect(toCanonicalDialect({ Al_id: '2', al_id: '1', C: 'C', Prc: 1305.5, D: 1900, Qty: '3' })).toEqual({
      al_id: '1',
      C: 'C',
      prc: '1305.5',
      d: '1900',
      qty: '3',
    });
  });

  it('legs, triggers and triggered records are read in every dialect', () => {
    const leg = { Trantype: 'S', Prctyp: 'LMT', Qty: '5', Prc: 110, prd: 'C' };
    const record = {
      ...RECORD_2021,
      stat: 'TRIGGERED',
      ai_t: 'LMT_BOS_O',
      Norentm: '10:00:00 15-04-2021',
      Trg_leg: 'y',
      Place_order_params: leg,
      Place_order_params_leg2: { ...leg, Prc: '90' },
      Oivariable: [
        { Var_name: 'x', D: '110' },
        { Var_name: 'y', D: 90 },
      ],
    };
    const result = decodeBrokerReply(getTriggeredGttOrders, json([record]), {}) as { orders: unknown[] };
    expect(result.orders[0]).toMatchObject({
      type: 'oco',
      status: 'TRIGGERED',
      firedLeg: 'stopLoss',
      tag: 'test',
      // The API's time is ISO UTC (10:00 India time is 04:30 UTC); the broker's text stays as norentm.
      triggeredAt: '2021-04-15T04:30:00.000Z',
      norentm: '10:00:00 15-04-2021',
      target: { trigger: '110', order: { trantype: 'S', qty: 5, prc: '110' } },
      stopLoss: { trigger: '90', order: { prc: '90' } },
    });
  });

  it('order book records read Remarks as the tag', () => {
    const result = decodeBrokerReply(
      getOrderBook,
      json([
        {
          Norenordno: 24111500000001,
          exch: 'NSE',
          tsym: 'ACC-EQ',
          trantype: 'B',
          Qty: 1,
          Prc: 1305,
          prctyp: 'LMT',
          prd: 'C',
          Status: 'COMPLETE',
          Remarks: 'plan:1',
        },
      ]),
      {},
    ) as { orders: unknown[] };
    expect(result.orders[0]).toMatchObject({ norenordno: '24111500000001', status: 'filled', tag: 'plan:1' });
  });
});
