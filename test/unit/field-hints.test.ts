/**
 * Errors that show the way: an unknown field names the field meant (as the schema has it at that place), and the
 * products traders name (CNC, NRML, MIS) are taken as their letters or refused with the reason; the CLI's
 * `--product` takes what the gateway takes.
 */
import { describe, expect, it } from 'vitest';

import { cliAccepts } from '../../client/cli.js';
import { knownFieldsAt, meantField } from '../../functions/base/contract/field-hints.js';
import { validateInput } from '../../functions/base/contract/validate-input.js';
import { modifyOrderInput, placeOcoInput, placeOrderInput } from '../../functions/base/schemas/input.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

const problemsOf = (schema: Parameters<typeof validateInput>[0], body: unknown) => {
  try {
    validateInput(schema, body);
    return [];
  } catch (error) {
    return (error as { details: { field: string; message: string }[] }).details;
  }
};

const OCO = {
  exch: 'NSE',
  tsym: 'M&M-EQ',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prd: 'C', prc: '1600', ret: 'DAY' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prd: 'C', prc: '1390', ret: 'DAY' } },
};

describe('unknown fields name the field meant', () => {
  it.each([
    ['trigger', 'd'],
    ['price', 'prc'],
    ['quantity', 'qty'],
    ['side', 'trantype'],
    ['product', 'prd'],
    ['exchange', 'exch'],
    ['symbol', 'tsym'],
    ['Price', 'prc'],
    ['qyt', 'qty'],
    ['trantyp', 'trantype'],
  ])('%s → %s, with no "is required" beside it', (sent, meant) => {
    const { [meant as keyof typeof SAMPLE_ORDER]: value, ...rest } = SAMPLE_ORDER;
    expect(problemsOf(placeOrderInput, { ...rest, [sent]: value })).toEqual([
      { field: sent, message: `unknown field: did you mean ${meant}?` },
    ]);
  });

  it('every one at once, and a name nobody means stays "not part of this operation"', () => {
    const problems = problemsOf(placeOrderInput, { ...SAMPLE_ORDER, price: '1', foo: 1, uid: 'X' });
    expect(problems).toEqual([
      { field: 'price', message: 'unknown field: did you mean prc?' },
      { field: 'foo, uid', message: 'unknown fields: not part of this operation' },
    ]);
  });

  it('only a field the schema has at that place: an OCO leg has trigger, its order prc', () => {
    expect(knownFieldsAt(placeOcoInput, ['target'])).toEqual(expect.arrayContaining(['trigger', 'order']));
    expect(knownFieldsAt(placeOcoInput, ['target', 'order'])).toEqual(expect.arrayContaining(['prc', 'trantype']));
    const oco = { ...OCO, target: { d: '1600', order: { ...OCO.target.order, price: '1600', prc: undefined } } };
    expect(problemsOf(placeOcoInput, oco)).toEqual(
      expect.arrayContaining([
        { field: 'target.d', message: 'unknown field: did you mean target.trigger?' },
        { field: 'target.order.price', message: 'unknown field: did you mean target.order.prc?' },
      ]),
    );
    // modify knows al_id: `id` points at it.
    expect(problemsOf(modifyOrderInput, { ...SAMPLE_ORDER, id: '1' })).toContainEqual({
      field: 'id',
      message: 'unknown field: did you mean al_id?',
    });
  });

  it('a meant field the caller also sent keeps its own problems', () => {
    expect(problemsOf(placeOrderInput, { ...SAMPLE_ORDER, prc: 'x', price: '1500' })).toEqual([
      expect.objectContaining({ field: 'prc' }),
      { field: 'price', message: 'unknown field: did you mean prc?' },
    ]);
  });

  it('no guess when two fields are equally near, or the name is far from all', () => {
    expect(meantField('xyzzy', ['qty', 'prc'])).toBeUndefined();
    expect(meantField('ab', ['a', 'b'])).toBeUndefined();
  });
});

describe('products traders name', () => {
  it.each([
    ['CNC', 'C'],
    ['cnc', 'C'],
    ['NRML', 'M'],
    ['nrml', 'M'],
    ['C', 'C'],
    ['H', 'H'],
  ])('%s is taken and sent as %s (place, and each OCO leg)', (prd, letter) => {
    expect(validateInput(placeOrderInput, { ...SAMPLE_ORDER, prd }).prd).toBe(letter);
    const oco = validateInput(placeOcoInput, {
      ...OCO,
      target: { ...OCO.target, order: { ...OCO.target.order, prd } },
    });
    expect(JSON.stringify(oco)).toContain(`"prd":"${letter}"`);
    expect(cliAccepts('product', prd)).toBe(true);
  });

  it.each(['MIS', 'mis', 'I'])('%s is refused with why a GTT cannot carry intraday', (prd) => {
    const [problem] = problemsOf(placeOrderInput, { ...SAMPLE_ORDER, prd });
    expect(problem?.field).toBe('prd');
    expect(problem?.message).toMatch(
      /intraday .*squared off the same day, while a GTT waits up to a year.*Use C \(CNC/,
    );
    expect(cliAccepts('product', prd)).toBe(false);
  });

  it('a bracket product points at plans; anything else names the letter to use', () => {
    expect(problemsOf(placeOrderInput, { ...SAMPLE_ORDER, prd: 'B' })[0]?.message).toMatch(/bracket .*POST \/plans/);
    expect(problemsOf(placeOrderInput, { ...SAMPLE_ORDER, prd: 'c' })[0]?.message).toBe(
      'prd must be one of C, M, H (or CNC for C, NRML for M): use C',
    );
    expect(problemsOf(placeOrderInput, { ...SAMPLE_ORDER, prd: 'Z' })[0]?.message).toBe(
      'prd must be one of C, M, H (or CNC for C, NRML for M)',
    );
    expect(cliAccepts('product', 'c')).toBe(false);
  });
});
