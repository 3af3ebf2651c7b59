import { describe, expect, it } from 'vitest';

import { EMULATOR_ALERT_TYPES } from '../../emulator/state/alert-rules.js';
import { validateInput } from '../../functions/base/contract/validate-input.js';
import { ALERT_TYPES, isPriceAlert } from '../../functions/base/schemas/alert-types.js';
import { placeOrderInput } from '../../functions/base/schemas/input.js';
import type { PlanInput } from '../../functions/base/schemas/plans.js';
import { ruledOrders } from '../../functions/orders/safety/exchange-rule-checks.js';
import { planProblems } from '../../functions/plans/creation.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';
import { problemsOf } from '../support/validation.js';

const equity = { ...SAMPLE_ORDER };
const future = { ...SAMPLE_ORDER, exch: 'NFO', tsym: 'NIFTY29DEC26F', qty: '65', prc: '25100' };

describe('the family’s other alert types (d per type)', () => {
  it('the emulator takes exactly the types the gateway sends (the broker stands apart: its own list, pinned here)', () => {
    expect([...EMULATOR_ALERT_TYPES]).toEqual([...ALERT_TYPES]);
  });

  it.each([
    ['CH_PER_A_O', equity, '2.5'],
    ['CH_PER_B_O', equity, '-3'],
    ['CH_PER_B_O', equity, '0'],
    ['ATP_A_O', equity, '1495.05'],
    ['ATP_B_O', equity, '1480'],
    ['OI_A_O', future, '150000'],
    ['OI_B_O', future, '1000'],
    ['TOI_A_O', future, '9000000'],
    ['TOI_B_O', future, '5'],
    ['VOLUME_A_O', equity, '250000'],
    ['LTP_A_52HIGH', equity, '1650'],
    ['LTP_B_52LOW', equity, '1200'],
  ])('accepts %s with d %s', (ai_t, order, d) => {
    expect(validateInput(placeOrderInput, { ...order, ai_t, d })).toMatchObject({ ai_t, d });
  });

  it.each([
    [
      'CH_PER_A_O',
      equity,
      '-100',
      'd of CH_PER_A_O is a percentage change from the previous close, above -100 and at most 1000 with at most 2 decimals (e.g. 2.5 or -3), got "-100"',
    ],
    [
      'CH_PER_A_O',
      equity,
      '2.555',
      'd of CH_PER_A_O is a percentage change from the previous close, above -100 and at most 1000 with at most 2 decimals (e.g. 2.5 or -3), got "2.555"',
    ],
    [
      'OI_A_O',
      future,
      '1500.5',
      'd of OI_A_O is a count (open contracts): a positive whole number such as 150000, got "1500.5"',
    ],
    [
      'VOLUME_A_O',
      equity,
      '0',
      'd of VOLUME_A_O is a count (shares or contracts traded): a positive whole number such as 150000, got "0"',
    ],
    [
      'OI_B_O',
      equity,
      '1000',
      'OI_B_O watches open interest, which NSE cash equities do not have: use a derivative (NFO, BFO, MCX, CDS...) or VOLUME_A_O',
    ],
    [
      'ATP_A_O',
      equity,
      '-5',
      'd must be a plain non-negative decimal number (no sign, exponent or more than 8 decimals), got "-5"',
    ],
    [
      'LTP_B_O',
      equity,
      '-5',
      'd must be a plain non-negative decimal number (no sign, exponent or more than 8 decimals), got "-5"',
    ],
  ])('refuses %s with d %s', (ai_t, order, d, message) => {
    expect(problemsOf(placeOrderInput, { ...order, ai_t, d })).toContainEqual({ field: 'd', message });
  });

  it('refuses a market order on a trigger that is no price, naming LMT', () => {
    expect(
      problemsOf(placeOrderInput, { ...equity, prc: undefined, prctyp: 'MKT', ai_t: 'VOLUME_A_O', d: '1000' }),
    ).toContainEqual({
      field: 'd',
      message:
        'a VOLUME_A_O trigger is not a price, so a market order (MKT) has no price to protect or value it by: send prctyp LMT with a limit prc',
    });
  });

  it('puts only a price-valued trigger under the exchange’s tick and band rules', () => {
    expect(['LTP_A_O', 'ATP_B_O', 'LTP_A_52HIGH'].every(isPriceAlert)).toBe(true);
    expect(['CH_PER_A_O', 'OI_A_O', 'TOI_B_O', 'VOLUME_A_O'].some(isPriceAlert)).toBe(false);
    const change = ruledOrders({ ...equity, ai_t: 'CH_PER_A_O', d: '2.53' })[0]!;
    expect(change.prices.map((p) => p.field)).toEqual(['prc']);
    expect(change.trigger).toBeUndefined();
    const atp = ruledOrders({ ...equity, ai_t: 'ATP_A_O', d: '1495.03' })[0]!;
    expect(atp.prices.map((p) => p.field)).toEqual(['d', 'prc']);
    expect(atp.trigger).toEqual({ field: 'd', value: '1495.03' });
  });
});

describe('plans and the other alert types', () => {
  const trailing = (ai_t: string, d: string) =>
    ({
      kind: 'trailing-stop',
      order: { ...SAMPLE_ORDER, trantype: 'S', ai_t, d, prc: '1480' },
      trailBy: '10',
    }) as unknown as PlanInput;

  it('a trailing stop moves a price trigger: one on volume is refused with the way forward', () => {
    expect(planProblems(trailing('VOLUME_A_O', '1000'), '0.05')).toContainEqual({
      field: 'order.ai_t',
      message: 'a trailing stop moves a price trigger; VOLUME_A_O does not watch a price: use LTP_A_O or LTP_B_O',
    });
    expect(planProblems(trailing('LTP_B_O', '1490'), '0.05')).toEqual([]);
  });

  it("a bracket's entry on a percentage change is not held to the tick", () => {
    const bracket = (ai_t: string, d: string) =>
      ({
        kind: 'bracket',
        entry: { ...SAMPLE_ORDER, ai_t, d },
        target: { trigger: '1600', price: '1600' },
        stopLoss: { trigger: '1400', price: '1400' },
      }) as unknown as PlanInput;
    expect(planProblems(bracket('CH_PER_B_O', '-2.53'), '0.05').map((p) => p.field)).not.toContain('entry.d');
    expect(planProblems(bracket('LTP_B_O', '1490.03'), '0.05').map((p) => p.field)).toContain('entry.d');
  });
});
