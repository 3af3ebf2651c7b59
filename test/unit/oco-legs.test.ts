/**
 * An OCO as the broker holds it against the OCO as sent (functions/base/broker/oco-legs.ts): each leg's trigger,
 * side, quantity and price and the OCO's alert type; numbers by value; a field the record leaves out is unchecked,
 * never a difference. Records read as the gateway reads them: normalised from the broker's wire shape.
 */
import { describe, expect, it } from 'vitest';

import { compareOcoLegs, describeDifferences } from '../../functions/base/broker/oco-legs.js';
import { normaliseOrder } from '../../functions/base/broker/order-records.js';
import { placeOcoInput } from '../../functions/base/schemas/input.js';
import { pendingOrderRecord } from '../../functions/base/schemas/reply.js';

const asked = placeOcoInput.parse({
  exch: 'NSE',
  tsym: 'INFY-EQ',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 2, prc: '1600', prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 2, prc: '1390', prd: 'C' } },
});

const leg = (over: Record<string, unknown> = {}) => ({
  trantype: 'S',
  prctyp: 'LMT',
  qty: '2',
  prc: '1600.00',
  prd: 'C',
  ...over,
});
/** The broker's pending record (x with leg 1, y with leg 2), read through the gateway's own readers. */
const held = (x = '1600.0', y = '1400', leg2: Record<string, unknown> = {}, top: Record<string, unknown> = {}) =>
  normaliseOrder(
    pendingOrderRecord.parse({
      stat: 'Ok',
      al_id: '24120600000001',
      ai_t: 'LMT_BOS_O',
      tsym: 'INFY-EQ',
      exch: 'NSE',
      trantype: 'S',
      prctyp: 'LMT',
      qty: 2,
      prc: '1600',
      prd: 'C',
      d: '',
      place_order_params: leg(),
      place_order_params_leg2: leg({ prc: '1390', ...leg2 }),
      oivariable: [
        { var_name: 'x', d: x },
        { var_name: 'y', d: y },
      ],
      ...top,
    }),
  );

describe('an OCO read back against what was sent', () => {
  it('as sent: no difference, nothing unchecked (1600.0 is 1600, a quantity as a string is the number)', () => {
    expect(compareOcoLegs(asked, held())).toEqual({ differences: [], unchecked: [] });
  });

  it('x and y paired the other way round: both triggers named, asked and held', () => {
    const { differences } = compareOcoLegs(asked, held('1400', '1600'));
    expect(differences).toEqual([
      { field: 'target.trigger', asked: '1600', held: '1400' },
      { field: 'stopLoss.trigger', asked: '1400', held: '1600' },
    ]);
    expect(describeDifferences(differences)).toBe(
      'target.trigger asked 1600, held 1400; stopLoss.trigger asked 1400, held 1600',
    );
  });

  it('a side, a quantity, a price or the alert type held otherwise is a difference', () => {
    const { differences } = compareOcoLegs(
      asked,
      held('1600', '1400', { trantype: 'B', qty: 20, prc: '1380' }, { ai_t: 'LTP_A_O' }),
    );
    expect(differences.map((d) => d.field)).toEqual([
      'ai_t',
      'stopLoss.order.trantype',
      'stopLoss.order.qty',
      'stopLoss.order.prc',
    ]);
  });

  it('a field the record leaves out or empty is unchecked, never a difference', () => {
    const compared = compareOcoLegs(asked, held('1600', '', { prc: undefined, qty: undefined }));
    expect(compared.differences).toEqual([]);
    expect(compared.unchecked).toEqual(['stopLoss.trigger', 'stopLoss.order.qty', 'stopLoss.order.prc']);
  });

  it('a record that is not an OCO at all is a difference; an unreadable one leaves everything unchecked', () => {
    const single = normaliseOrder(
      pendingOrderRecord.parse({
        stat: 'Ok',
        al_id: '1',
        ai_t: 'LTP_A_O',
        tsym: 'INFY-EQ',
        exch: 'NSE',
        trantype: 'S',
        prctyp: 'LMT',
        qty: 2,
        prc: '1600',
        prd: 'C',
        d: '1600',
      }),
    );
    expect(compareOcoLegs(asked, single).differences[0]).toEqual({ field: 'type', asked: 'oco', held: 'single' });
    expect(compareOcoLegs(asked, undefined)).toMatchObject({ differences: [] });
    expect(compareOcoLegs(asked, undefined).unchecked).toHaveLength(9);
  });
});
