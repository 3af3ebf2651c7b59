/** The broker reply schemas (docs/explanation/broker-wire.md: records and replies): what is accepted, what is an off-schema reply. */
import { describe, expect, it } from 'vitest';

import {
  cancelReply,
  clientDetailsReply,
  enabledReply,
  logoutReply,
  modifyReply,
  pendingOrderRecord,
  placeReply,
} from '../../functions/base/schemas/reply.js';

const record = {
  stat: 'Ok',
  ai_t: 'LTP_B_O',
  al_id: '24112200001',
  tsym: 'M&M-EQ',
  exch: 'NSE',
  token: '2031',
  remarks: '',
  validity: 'GTT',
  norentm: '10:00:00 22-11-2026',
  pp: '2',
  ls: '1',
  ti: '0.05',
  brkname: 'GTTSIM',
  actid: 'DEMO01',
  trantype: 'B',
  prctyp: 'LMT',
  qty: 5,
  prc: '1500',
  C: 'C',
  prd: 'C',
  ordersource: 'API',
  d: '1490',
  place_order_params: {
    actid: 'DEMO01',
    trantype: 'B',
    prctyp: 'LMT',
    qty: 5,
    prc: '1500',
    C: 'C',
    s_prdt_ali: 'CNC',
    prd: 'C',
    ordersource: 'API',
    ipaddr: '1.2.3.4',
  },
  oivariable: [{ var_name: 'x', d: '1490' }],
};

describe('pending order record (2.3)', () => {
  it('accepts the full record and keeps qty a number in both places', () => {
    const parsed = pendingOrderRecord.parse(record);
    expect(parsed.qty).toBe(5);
    expect(parsed.place_order_params?.qty).toBe(5);
  });

  it('turns a numeric-string qty into a number', () => {
    expect(pendingOrderRecord.parse({ ...record, qty: '7' }).qty).toBe(7);
  });

  it.each(['al_id', 'tsym', 'qty', 'd', 'trantype'])('refuses a record without %s', (field) => {
    const { [field]: _dropped, ...rest } = record as Record<string, unknown>;
    expect(pendingOrderRecord.safeParse(rest).success).toBe(false);
  });

  it.each<[string, unknown]>([
    ['stat', 'Not_Ok'],
    ['al_id', 'abc'],
    ['qty', 'five'],
    ['oivariable', 'x'],
  ])('refuses %s = %j', (field, value) => {
    expect(pendingOrderRecord.safeParse({ ...record, [field]: value }).success).toBe(false);
  });
});

describe('order action replies (section 4)', () => {
  it.each([
    [placeReply, 'OI created'],
    [modifyReply, 'OI replaced'],
    [cancelReply, 'OI deleted'],
  ] as const)('%#: accept only their own success text and a digit al_id', (schema, stat) => {
    expect(schema.safeParse({ stat, al_id: '42', request_time: '10:00:00 22-11-2026' }).success).toBe(true);
    expect(schema.safeParse({ stat: 'Ok', al_id: '42', request_time: 't' }).success).toBe(false);
    expect(schema.safeParse({ stat, al_id: '', request_time: 't' }).success).toBe(false);
    expect(schema.safeParse({ stat, request_time: 't' }).success).toBe(false);
  });
});

describe('enabled GTTs, client details, logout', () => {
  it('enabled GTTs take ai_ts as an array of objects', () => {
    expect(enabledReply.safeParse({ stat: 'Ok', request_time: '22112026100000', ai_ts: [] }).success).toBe(true);
    expect(
      enabledReply.safeParse({ stat: 'Ok', request_time: '22112026100000', ai_ts: [{ ai_t: 'LTP_B_O' }] }).success,
    ).toBe(true);
    expect(enabledReply.safeParse({ stat: 'Ok', request_time: 'x', ai_ts: 'LTP' }).success).toBe(false);
  });

  it('client details need actid and exarr; the lists have their documented element shapes', () => {
    const base = { stat: 'Ok', request_time: 't', actid: 'A1', exarr: ['NSE'] };
    expect(clientDetailsReply.safeParse(base).success).toBe(true);
    expect(clientDetailsReply.safeParse({ ...base, exarr: undefined }).success).toBe(false);
    expect(clientDetailsReply.safeParse({ ...base, partic_id_list: [{ partic_id: '', exch: 'NSE' }] }).success).toBe(
      true,
    );
    expect(clientDetailsReply.safeParse({ ...base, partic_id_list: [{ exch: 1 }] }).success).toBe(false);
  });

  it('logout needs stat Ok', () => {
    expect(logoutReply.safeParse({ stat: 'Ok', request_time: 't' }).success).toBe(true);
    expect(logoutReply.safeParse({ stat: 'Not_Ok', emsg: 'x' }).success).toBe(false);
  });
});
