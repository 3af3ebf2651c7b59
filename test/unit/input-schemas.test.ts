import { describe, expect, it } from 'vitest';

import { ValidationFailedError } from '../../functions/base/contract/errors.js';
import { describeIssues, validateInput } from '../../functions/base/contract/validate-input.js';
import {
  ALERT_TYPES,
  cancelOrderInput,
  modifyOrderInput,
  noInput,
  placeOrderInput,
} from '../../functions/base/schemas/input.js';
import { OPERATIONS } from '../../functions/manifest/index.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';
import { problemsOf } from '../support/validation.js';

const order = { ...SAMPLE_ORDER, qty: 10, prc: 1500.5 };

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
    ['exch', 'NYSE', 'exch must be one of NSE, NFO, BSE, MCX, BFO, CDS, BCD, NCX, NCOM, BSTAR'],
    ['prd', 'Z', 'prd must be one of C, M, H (or CNC for C, NRML for M)'],
    ['trantype', 'X', 'trantype must be one of B, S'],
    ['trantype', 'buy', 'trantype must be one of B, S, got "buy": use B'],
    ['prctyp', 'STOP', 'prctyp must be one of LMT, MKT, SL-LMT, SL-MKT, DS, 2L, 3L'],
    ['prctyp', 'LIMIT', 'prctyp must be one of LMT, MKT, SL-LMT, SL-MKT, DS, 2L, 3L, got "LIMIT": use LMT'],
    ['ret', 'GTC', 'ret must be one of DAY, EOS, IOC'],
    ['ai_t', 'LTP', `ai_t must be one of ${ALERT_TYPES.join(', ')}`],
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
      message: 'unknown field: did you mean qty?',
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

describe('al_id: a digit string, or a JSON number only while it is exact', () => {
  it('accepts a safe integer and converts it to its digit string', () => {
    expect(validateInput(cancelOrderInput, { al_id: 26112200001 })).toEqual({ al_id: '26112200001' });
    expect(validateInput(cancelOrderInput, { al_id: Number.MAX_SAFE_INTEGER })).toEqual({ al_id: '9007199254740991' });
    expect(validateInput(cancelOrderInput, { al_id: '26112200000000001' })).toEqual({ al_id: '26112200000000001' });
  });

  it.each([JSON.parse('26112200000000001') as number, 2 ** 53, 1e21, 1.5, -1, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses the number %s rather than rounding it',
    (al_id) => {
      const problems = problemsOf(cancelOrderInput, { al_id });
      expect(problems).toEqual([{ field: 'al_id', message: expect.stringMatching(/al_id/) }]);
    },
  );

  it('says why a large number is refused', () => {
    expect(problemsOf(cancelOrderInput, { al_id: 2 ** 60 })[0]?.message).toMatch(/digit string/);
  });

  it.each([true, null, {}, [], { toString: 1 }] as unknown[])('refuses %j', (al_id) => {
    expect(problemsOf(cancelOrderInput, { al_id })[0]?.field).toBe('al_id');
  });
});

describe('tsym characters: printable, no control, format, bidi or line-separator characters; NFC', () => {
  it.each([
    ['a lone high surrogate', 'A\ud800'],
    ['a lone low surrogate', '\udc00B'],
    ['a zero-width space', 'M&M-EQ\u200b'],
    ['a zero-width joiner', 'M&M\u200d-EQ'],
    ['a byte-order mark', '\ufeffM&M-EQ'],
    ['a right-to-left override', 'M&M-\u202eQE'],
    ['a bidi isolate', 'M&M\u2066-EQ'],
    ['a line separator', 'M&M\u2028EQ'],
    ['a paragraph separator', 'M&M\u2029EQ'],
    ['a DEL', 'M&M\u007f'],
    ['a C1 control', 'M&M\u0085'],
    ['a no-break space', 'NIFTY\u00a025DEC'],
    ['a tab', 'NIFTY\t25DEC'],
    ['a private-use character', 'M&M\ue000'],
    ['a decomposed (not NFC) letter', 'A\u0308BC'],
  ])('refuses %s with a clear message', (_label, tsym) => {
    const problems = problemsOf(placeOrderInput, { ...order, tsym });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toEqual({ field: 'tsym', message: expect.stringMatching(/^tsym /) });
  });

  it('names the offending character by code point', () => {
    expect(problemsOf(placeOrderInput, { ...order, tsym: 'M&M-EQ\u200b' })[0]?.message).toMatch(/U\+200B/);
    expect(problemsOf(placeOrderInput, { ...order, tsym: 'A\ud800' })[0]?.message).toMatch(/U\+D800/);
    expect(problemsOf(placeOrderInput, { ...order, tsym: 'A\u0308BC' })[0]?.message).toMatch(/NFC/);
  });

  it('keeps printable symbols, including non-ASCII letters and emoji in NFC', () => {
    for (const tsym of ['NIFTY 25DEC 24000 CE', 'ÄÖÜ', '🙂', 'L&TFH-EQ', '50%']) {
      expect(validateInput(placeOrderInput, { ...order, tsym }).tsym).toBe(tsym);
    }
  });
});

describe('validation messages never echo huge values', () => {
  it('caps a 500 KB value in the message and in the details', () => {
    const huge = 'x'.repeat(500_000);
    let error: ValidationFailedError | undefined;
    try {
      validateInput(placeOrderInput, { ...order, prc: huge, [huge]: 1 });
    } catch (e) {
      error = e as ValidationFailedError;
    }
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect(error!.message.length).toBeLessThan(2_000);
    expect(JSON.stringify(error!.details).length).toBeLessThan(2_000);
  });

  it('lists at most a few of many unknown fields', () => {
    const many = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`field${i}`, i]));
    const problems = problemsOf(noInput, many);
    expect(JSON.stringify(problems).length).toBeLessThan(2_000);
    expect(problems[0]?.field).toMatch(/^field0, field1, .*4990 more/);
  });
});

describe('every operation of the table refuses fields it does not define', () => {
  it.each(OPERATIONS.map((op) => [op.name, op] as const))('%s', (_name, operation) => {
    for (const field of ['dryrun', 'dry_run', 'DryRun', 'idempotency_key', 'uid', 'surprise']) {
      const parsed = operation.input.safeParse({ [field]: true });
      expect(parsed.success).toBe(false);
      expect(describeIssues(parsed.error!.issues)).toContainEqual({
        field,
        message: expect.stringMatching(/unknown field/),
      });
    }
  });
});
