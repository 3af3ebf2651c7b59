/**
 * A PATCH's arithmetic on the broker's record: the changes laid over the pending order
 * (functions/base/broker/patch-merge.ts), its version (the ETag) and which fields a stale version names
 * (functions/base/broker/order-version.ts).
 */
import { describe, expect, it } from 'vitest';

import { changedFields, orderVersion, versionOfIfMatch } from '../../functions/base/broker/order-version.js';
import { mergePatch, modifyInputOfRecord } from '../../functions/base/broker/patch-merge.js';
import type { GttOrder } from '../../functions/base/schemas/reply.js';

const single = {
  ...{ stat: 'Ok', al_id: '26112200000001', ai_t: 'LTP_B_O', exch: 'NSE', tsym: 'M&M-EQ', trantype: 'B' },
  ...{ prctyp: 'LMT', qty: 1, prc: '1500', prd: 'C', d: '1490', type: 'single', trigger: '1490', remarks: 'swing' },
  tag: 'swing',
} as GttOrder;
const oco = {
  ...{ stat: 'Ok', al_id: '26112200000002', ai_t: 'LMT_BOS_O', exch: 'NSE', tsym: 'INFY-EQ', trantype: 'S' },
  ...{ prctyp: 'LMT', qty: 2, prc: '1600', prd: 'C', d: '1600', type: 'oco' },
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 2, prc: '1600', prd: 'C' } },
  stopLoss: {
    trigger: '1400',
    order: { trantype: 'S', prctyp: 'SL-LMT', qty: 2, prc: '1390', prd: 'C', trgprc: '1395' },
  },
} as GttOrder;

describe('a PATCH over the pending order', () => {
  it('keeps every field it does not name; the retention the record lacks is DAY', () => {
    expect(mergePatch(modifyInputOfRecord(single), { d: '1495' })).toEqual({
      al_id: '26112200000001',
      exch: 'NSE',
      tsym: 'M&M-EQ',
      qty: 1,
      prc: '1500',
      prd: 'C',
      trantype: 'B',
      prctyp: 'LMT',
      ret: 'DAY',
      ai_t: 'LTP_B_O',
      d: '1495',
      tag: 'swing',
    });
  });

  it('merges an OCO leg field by field; a change to a market type drops the held price', () => {
    const merged = mergePatch(modifyInputOfRecord(oco), { stopLoss: { order: { prctyp: 'SL-MKT' } } });
    expect(merged).toMatchObject({
      target: { trigger: '1600', order: { prc: '1600', prctyp: 'LMT' } },
      stopLoss: { trigger: '1400', order: { prctyp: 'SL-MKT', prc: '0', trgprc: '1395', qty: 2 } },
    });
  });
});

describe("an order's version", () => {
  it('is stable, the same for 1500 and 1500.00, and names the fields a stale one differs in', () => {
    const version = orderVersion(single);
    expect(version).toMatch(/^s\.[0-9a-f]{44}$/);
    expect(orderVersion({ ...single, prc: '1500.00' })).toBe(version);
    expect(changedFields(version, single)).toEqual([]);
    expect(changedFields(version, { ...single, qty: 2, d: '1480' })).toEqual(['qty', 'd']);
    expect(changedFields(orderVersion(oco), { ...oco, stopLoss: { ...oco.stopLoss!, trigger: '1410' } })).toEqual([
      'stopLoss.trigger',
    ]);
    expect(changedFields(version, oco)).toEqual(['type']);
    expect(changedFields('nonsense', single)).toEqual(['type']);
  });

  it('reads an If-Match header: quoted, weak or bare', () => {
    expect(versionOfIfMatch('"s.abcd"')).toBe('s.abcd');
    expect(versionOfIfMatch('W/"s.abcd"')).toBe('s.abcd');
    expect(versionOfIfMatch(' s.abcd ')).toBe('s.abcd');
    expect(versionOfIfMatch('*')).toBe('*');
  });
});
