import { describe, expect, it } from 'vitest';
import { cancelOrderInput, modifyOrderInput, noInput, placeOrderInput } from '../../functions/schemas/input.js';
import { validateInput } from '../../functions/contract/validate-input.js';
import { ValidationFailedError } from '../../functions/contract/errors.js';

const order = {
  exch: 'NSE',
  tsym: 'M&M-EQ',
  qty: 10,
  prc: 1500.5,
  prd: 'C',
  trantype: 'B',
  prctyp: 'LMT',
  ret: 'DAY',
  ai_t: 'LTP_B_O',
  d: '1490',
};

const problemsOf = (schema: Parameters<typeof validateInput>[0], payload: unknown) => {
  try {
    validateInput(schema, payload);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailedError);
    return (error as ValidationFailedError).details as { field: string; message: string }[];
  }
  throw new Error('expected a validation failure');
};

describe('place input', () => {
  it('accepts numbers or numeric strings and sends strings, validity defaulting to GTT', () => {
    expect(validateInput(placeOrderInput, order)).toEqual({
      ...order,
      qty: '10',
      prc: '1500.5',
      d: '1490',
      validity: 'GTT',
    });
    expect(validateInput(placeOrderInput, { ...order, qty: '10', prc: '1500.50', d: 1490.25 })).toMatchObject({
      qty: '10',
      prc: '1500.50',
      d: '1490.25',
    });
  });

  it.each(['exch', 'tsym', 'qty', 'prd', 'trantype', 'prctyp', 'ret', 'ai_t', 'd'])('requires %s', (field) => {
    const payload: Record<string, unknown> = { ...order };
    delete payload[field];
    expect(problemsOf(placeOrderInput, payload)).toContainEqual({ field, message: `${field} is required` });
  });

  it.each([
    ['exch', 'NYSE', 'exch must be one of NSE, NFO, BSE, MCX'],
    ['prd', 'I', 'prd must be one of C, M, H'],
    ['trantype', 'buy', 'trantype must be one of B, S'],
    ['prctyp', 'LIMIT', 'prctyp must be one of LMT, MKT, SL-LMT, SL-MKT, DS, 2L, 3L'],
    ['ret', 'GTC', 'ret must be one of DAY, EOS, IOC'],
    ['ai_t', 'LTP', 'ai_t must be one of LTP_A_O, LTP_B_O'],
    ['validity', 'DAY', 'validity must be one of GTT'],
  ])('enforces the allowed values of %s', (field, value, message) => {
    expect(problemsOf(placeOrderInput, { ...order, [field]: value })).toContainEqual({ field, message });
  });

  it.each([0, -1, 1.5, '1e3', '0x10', ' ', 'ten', 1e12, Number.NaN, true, null])('rejects qty %s', (qty) => {
    const problems = problemsOf(placeOrderInput, { ...order, qty });
    expect(problems.map((p) => p.field)).toEqual(['qty']);
  });

  it.each([-1, '-5', '1e2', '1.123456789', 'Infinity', '', '12abc'])('rejects prc %s', (prc) => {
    expect(problemsOf(placeOrderInput, { ...order, prc }).map((p) => p.field)).toEqual(['prc']);
  });

  it('needs a positive price for priced types and price 0 for market types', () => {
    expect(problemsOf(placeOrderInput, { ...order, prc: 0 })).toContainEqual({
      field: 'prc',
      message: 'prc must be a positive price for price type LMT',
    });
    expect(problemsOf(placeOrderInput, { ...order, prctyp: 'MKT', prc: 10 })).toContainEqual({
      field: 'prc',
      message: 'prc must be 0 (or omitted) for price type MKT',
    });
    expect(validateInput(placeOrderInput, { ...order, prctyp: 'SL-MKT', prc: undefined })).toMatchObject({ prc: '0' });
    expect(validateInput(placeOrderInput, { ...order, prctyp: 'MKT', prc: '0.00' })).toMatchObject({ prc: '0' });
  });

  it('needs a positive trigger', () => {
    expect(problemsOf(placeOrderInput, { ...order, d: 0 })).toContainEqual({
      field: 'd',
      message: 'd (trigger value) must be greater than 0',
    });
  });

  it('refuses unknown fields, uid/actid from the caller and over-long or control-character symbols', () => {
    expect(problemsOf(placeOrderInput, { ...order, quantity: 5 })).toContainEqual({
      field: 'quantity',
      message: 'unknown field: not part of this operation',
    });
    expect(problemsOf(placeOrderInput, { ...order, uid: 'X', actid: 'Y' })[0]?.field).toBe('uid, actid');
    expect(problemsOf(placeOrderInput, { ...order, tsym: 'A'.repeat(65) })[0]?.field).toBe('tsym');
    expect(problemsOf(placeOrderInput, { ...order, tsym: 'AB\nC' })[0]?.field).toBe('tsym');
    expect(problemsOf(placeOrderInput, { ...order, tsym: '' })[0]?.field).toBe('tsym');
  });

  it('keeps special-character symbols as they are (the codec encodes them)', () => {
    for (const tsym of ['M&M-EQ', 'NIFTY 25DEC 24000 CE', '50%', 'A+B', 'X=Y']) {
      expect(validateInput(placeOrderInput, { ...order, tsym }).tsym).toBe(tsym);
    }
  });

  it('names every failing field at once', () => {
    const problems = problemsOf(placeOrderInput, { ...order, exch: 'X', prd: 'Z', qty: -2 });
    expect(problems.map((p) => p.field).sort()).toEqual(['exch', 'prd', 'qty']);
  });
});

describe('modify, cancel and no-input operations', () => {
  it('modify takes the order fields plus al_id', () => {
    expect(validateInput(modifyOrderInput, { ...order, al_id: '24112200001' })).toMatchObject({ al_id: '24112200001' });
    expect(problemsOf(modifyOrderInput, order)).toContainEqual({ field: 'al_id', message: 'al_id is required' });
  });

  it.each(['', 'abc', '12-3', ' 1', '1'.repeat(31)])('cancel rejects al_id %j', (al_id) => {
    expect(problemsOf(cancelOrderInput, { al_id })[0]?.field).toBe('al_id');
  });

  it('cancel accepts a digit string or a number', () => {
    expect(validateInput(cancelOrderInput, { al_id: 123 })).toEqual({ al_id: '123' });
  });

  it('operations without input refuse stray fields', () => {
    expect(validateInput(noInput, {})).toEqual({});
    expect(problemsOf(noInput, { uid: 'someone-else' })[0]?.field).toBe('uid');
  });
});
