/**
 * The operation table is the only source of each operation's facts. Its entries are complete and consistent: names
 * and ids unique, routes distinct, an example every generic test can send (valid for the entry's input schema),
 * and the defaults of `defineOperation` (jData `{uid}`, the reply as the result) applied where an entry leaves them.
 */
import { describe, expect, it } from 'vitest';

import { defineOperation } from '../../functions/base/contract/operation.js';
import { validateInput } from '../../functions/base/contract/validate-input.js';
import { noInput } from '../../functions/base/schemas/input.js';
import { logoutReply } from '../../functions/base/schemas/reply.js';
import { OPERATIONS } from '../../functions/manifest/index.js';

const session = { accessToken: 'not-used-here-1', uid: 'U1', actid: 'A1' };

/** The pending orders the PATCH entries' examples change, as GetGTTOrder answers them (normalised). */
const PENDING: Record<string, unknown> = {
  PatchGTTOrder: {
    ...{ stat: 'Ok', al_id: '26112200000001', ai_t: 'LTP_B_O', exch: 'NSE', tsym: 'M&M-EQ', trantype: 'B' },
    ...{ prctyp: 'LMT', qty: 1, prc: '1500', prd: 'C', d: '1490', type: 'single', trigger: '1490' },
  },
  PatchOCOOrder: {
    ...{ stat: 'Ok', al_id: '26112200000001', ai_t: 'LMT_BOS_O', exch: 'NSE', tsym: 'M&M-EQ', trantype: 'S' },
    ...{ prctyp: 'LMT', qty: 1, prc: '1600', prd: 'C', d: '1600', type: 'oco' },
    target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1600', prd: 'C' } },
    stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1395', prd: 'C' } },
  },
};

describe('the operation table', () => {
  it('names, ids and routes are unique', () => {
    for (const key of ['name', 'id'] as const)
      expect(new Set(OPERATIONS.map((op) => op[key])).size).toBe(OPERATIONS.length);
    expect(new Set(OPERATIONS.map((op) => `${op.route.method} ${op.route.path}`)).size).toBe(OPERATIONS.length);
  });

  it.each(OPERATIONS.map((op) => [op.name, op] as const))(
    '%s: its example is a valid input, and builds jData',
    (_name, op) => {
      const checked = validateInput(op.input, op.example) as Record<string, unknown>;
      // A PATCH sends the pending order with the changes over it: here, the pending order as GetGTTOrder gives it.
      const input = op.patch ? op.patch.full.parse(op.patch.merge(PENDING[op.name], checked)) : checked;
      // A read of one instrument (a quote) is given the instrument's rules before its call: here, an equity's.
      const ruled = op.instrument
        ? op.instrument.withRules(input, { token: '22', tick: '0.05', lot: 1, precision: 2 })
        : input;
      const jData = op.toJData(ruled, session);
      expect(jData).toMatchObject(op.name === 'GetTriggeredGTTOrders' ? { actid: 'A1' } : { uid: 'U1' });
      for (const param of Object.values(op.pathParams ?? {})) expect(op.example).toHaveProperty(param);
    },
  );

  it('an entry without toJData, toResult and result sends {uid} and answers the reply as its schema decoded it', () => {
    const bare = defineOperation({
      name: 'Bare',
      broker: 'Bare',
      id: 'bare',
      summary: 'a test entry',
      route: { method: 'GET', path: '/bare' },
      successStatus: 200,
      kind: 'read',
      retrySafe: true,
      input: noInput,
      example: {},
      reply: logoutReply,
    });
    expect(bare.toJData({}, session)).toEqual({ uid: 'U1' });
    const reply = { stat: 'Ok' as const, request_time: '10:00:00 01-01-2026' };
    expect(bare.toResult(reply, {})).toBe(reply);
    expect(bare.result).toBe(logoutReply);
  });
});
