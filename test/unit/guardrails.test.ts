import { describe, expect, it } from 'vitest';

import { GuardrailRejectedError } from '../../functions/base/contract/errors.js';
import { guardrailEnv, parseGatewayConfig } from '../../functions/base/runtime/config.js';
import { GUARDRAIL_DEFAULTS } from '../../functions/base/runtime/env.js';
import {
  checkGuardrails,
  describeGuardrails,
  type GuardedOrder,
  guardrailsInForce,
} from '../../functions/orders/safety/guardrails.js';

const order: GuardedOrder = {
  exch: 'NSE',
  tsym: 'M&M-EQ',
  qty: '10',
  prc: '150.25',
  prd: 'C',
  prctyp: 'LMT',
  d: '149',
};
const config = (env: Record<string, string>) => guardrailEnv.parse(env);
const ruleOf = (o: GuardedOrder, env: Record<string, string>): string | undefined => {
  try {
    checkGuardrails('PlaceGTTOrder', o, config(env));
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(GuardrailRejectedError);
    const e = error as GuardrailRejectedError;
    expect(e.status).toBe(422);
    expect(e.outcome).toBe('not_executed');
    return (e.details as { rule: string }).rule;
  }
};

describe('guardrails, each at, below and above its bound', () => {
  it('maximum quantity', () => {
    expect(ruleOf({ ...order, qty: '99' }, { GUARDRAIL_MAX_QTY: '100' })).toBeUndefined();
    expect(ruleOf({ ...order, qty: '100' }, { GUARDRAIL_MAX_QTY: '100' })).toBeUndefined();
    expect(ruleOf({ ...order, qty: '101' }, { GUARDRAIL_MAX_QTY: '100' })).toBe('maxQty');
  });

  it('maximum order value, qty × prc exactly (no float rounding)', () => {
    // 10 × 150.25 = 1502.5
    expect(ruleOf(order, { GUARDRAIL_MAX_ORDER_VALUE: '1502.51' })).toBeUndefined();
    expect(ruleOf(order, { GUARDRAIL_MAX_ORDER_VALUE: '1502.5' })).toBeUndefined();
    expect(ruleOf(order, { GUARDRAIL_MAX_ORDER_VALUE: '1502.49999999' })).toBe('maxOrderValue');
    // 3 × 0.1 is 0.30000000000000004 in floating point; the bound 0.3 must still allow it.
    expect(ruleOf({ ...order, qty: '3', prc: '0.1' }, { GUARDRAIL_MAX_ORDER_VALUE: '0.3' })).toBeUndefined();
  });

  it('maximum order value uses the trigger for market price types', () => {
    const market = { ...order, prctyp: 'MKT', prc: '0', d: '200' }; // 10 × 200 = 2000
    expect(ruleOf(market, { GUARDRAIL_MAX_ORDER_VALUE: '2001' })).toBeUndefined();
    expect(ruleOf(market, { GUARDRAIL_MAX_ORDER_VALUE: '2000' })).toBeUndefined();
    expect(ruleOf(market, { GUARDRAIL_MAX_ORDER_VALUE: '1999.99' })).toBe('maxOrderValue');
  });

  it.each<[string, keyof GuardedOrder, string, string, string]>([
    ['exchanges', 'exch', 'NSE,BSE', 'NSE', 'NFO'],
    ['products', 'prd', 'C', 'C', 'M'],
    ['priceTypes', 'prctyp', 'LMT,SL-LMT', 'SL-LMT', 'MKT'],
  ])('allowed %s', (rule, field, allowed, inside, outside) => {
    const envName = {
      exchanges: 'GUARDRAIL_EXCHANGES',
      products: 'GUARDRAIL_PRODUCTS',
      priceTypes: 'GUARDRAIL_PRICE_TYPES',
    }[rule]!;
    expect(ruleOf({ ...order, [field]: inside }, { [envName]: allowed })).toBeUndefined();
    expect(ruleOf({ ...order, [field]: outside }, { [envName]: allowed })).toBe(rule);
  });

  it('symbol allow and deny lists (special-character symbols compared as they are)', () => {
    expect(ruleOf(order, { GUARDRAIL_SYMBOLS_ALLOW: 'M&M-EQ, NIFTY 25DEC 24000 CE' })).toBeUndefined();
    expect(
      ruleOf({ ...order, tsym: 'NIFTY 25DEC 24000 CE' }, { GUARDRAIL_SYMBOLS_ALLOW: 'M&M-EQ, NIFTY 25DEC 24000 CE' }),
    ).toBeUndefined();
    expect(ruleOf({ ...order, tsym: 'RELIANCE-EQ' }, { GUARDRAIL_SYMBOLS_ALLOW: 'M&M-EQ' })).toBe('symbolsAllow');
    expect(ruleOf(order, { GUARDRAIL_SYMBOLS_DENY: 'M&M-EQ' })).toBe('symbolsDeny');
    expect(ruleOf({ ...order, tsym: 'RELIANCE-EQ' }, { GUARDRAIL_SYMBOLS_DENY: 'M&M-EQ' })).toBeUndefined();
  });

  it.each([
    ['lower case', 'm&m-eq'],
    ['a trailing zero-width space', 'M&M-EQ\u200b'],
    ['a zero-width joiner inside', 'M&M\u200d-EQ'],
    ['a byte-order mark', '\ufeffM&M-EQ'],
    ['fullwidth letters', '\uff2d&\uff2d-EQ'],
  ])('symbol lists compare normalised symbols: %s is still on the deny list', (_label, tsym) => {
    expect(ruleOf({ ...order, tsym }, { GUARDRAIL_SYMBOLS_DENY: 'M&M-EQ' })).toBe('symbolsDeny');
    expect(ruleOf({ ...order, tsym }, { GUARDRAIL_SYMBOLS_ALLOW: 'M&M-EQ' })).toBeUndefined();
  });

  it('normalises the configured lists too', () => {
    expect(ruleOf(order, { GUARDRAIL_SYMBOLS_DENY: ' m&m-eq\u200b ' })).toBe('symbolsDeny');
    expect(
      ruleOf({ ...order, tsym: 'NIFTY 25DEC 24000 CE' }, { GUARDRAIL_SYMBOLS_DENY: 'nifty  25dec 24000 ce' }),
    ).toBe('symbolsDeny');
    expect(ruleOf({ ...order, tsym: 'RELIANCE-EQ' }, { GUARDRAIL_SYMBOLS_DENY: 'm&m-eq' })).toBeUndefined();
    expect(ruleOf({ ...order, tsym: 'A\u0308B-EQ' }, { GUARDRAIL_SYMBOLS_DENY: '\u00c4B-EQ' })).toBe('symbolsDeny');
  });

  it('read-only mode refuses every order', () => {
    expect(ruleOf(order, { GUARDRAIL_READ_ONLY: 'true' })).toBe('readOnly');
    expect(ruleOf(order, { GUARDRAIL_READ_ONLY: 'false' })).toBeUndefined();
  });

  it('names the rule, the limit and the value in the error', () => {
    try {
      checkGuardrails('PlaceGTTOrder', { ...order, qty: '500' }, config({ GUARDRAIL_MAX_QTY: '100' }));
    } catch (error) {
      expect((error as GuardrailRejectedError).toBody()).toMatchObject({
        code: 'GUARDRAIL_REJECTED',
        message: expect.stringContaining('500'),
        details: { rule: 'maxQty', limit: '100', actual: '500' },
      });
    }
  });
});

describe('safe defaults: limits in force unless the deployment sets its own or turns them off', () => {
  // `--qty 1000000 --price 1500`: ₹150 crore.
  const fatFinger = { ...order, qty: '1000000', prc: '1500' };

  it('a deployment that sets nothing refuses a ₹150 crore order (quantity first)', () => {
    expect(ruleOf(fatFinger, {})).toBe('maxQty');
    expect(ruleOf({ ...order, qty: '10000', prc: '250' }, {})).toBeUndefined();
    expect(ruleOf({ ...order, qty: '10001', prc: '1' }, {})).toBe('maxQty');
    expect(ruleOf({ ...order, qty: '2000', prc: '1250' }, {})).toBeUndefined();
    expect(ruleOf({ ...order, qty: '2000', prc: '1250.05' }, {})).toBe('maxOrderValue');
  });

  it('an empty variable is the default, not "no limit"', () => {
    expect(ruleOf(fatFinger, { GUARDRAIL_MAX_QTY: '', GUARDRAIL_MAX_ORDER_VALUE: ' ' })).toBe('maxQty');
    expect(config({ GUARDRAIL_MAX_QTY: '' }).guardrailMaxQty).toBe(GUARDRAIL_DEFAULTS.maxQty);
  });

  it('off turns each limit off, explicitly and on its own', () => {
    expect(ruleOf(fatFinger, { GUARDRAIL_MAX_QTY: 'off' })).toBe('maxOrderValue');
    expect(ruleOf(fatFinger, { GUARDRAIL_MAX_ORDER_VALUE: 'off' })).toBe('maxQty');
    expect(ruleOf(fatFinger, { GUARDRAIL_MAX_QTY: 'off', GUARDRAIL_MAX_ORDER_VALUE: 'off' })).toBeUndefined();
  });

  it("a deployment's own limit replaces the default, above or below it", () => {
    expect(ruleOf({ ...order, qty: '50000', prc: '1' }, { GUARDRAIL_MAX_QTY: '100000' })).toBeUndefined();
    expect(ruleOf({ ...order, qty: '100', prc: '5000.05' }, { GUARDRAIL_MAX_ORDER_VALUE: '500000' })).toBe(
      'maxOrderValue',
    );
  });

  it('the limits in force read as a trader sees them', () => {
    expect(guardrailsInForce(config({}))).toEqual({ readOnly: false, maxQty: '10000', maxOrderValue: '2500000' });
    const own = guardrailsInForce(config({ GUARDRAIL_MAX_QTY: 'off', GUARDRAIL_EXCHANGES: 'NSE' }));
    expect(own).toEqual({ readOnly: false, maxQty: 'off', maxOrderValue: '2500000', exchanges: ['NSE'] });
    expect(describeGuardrails(own)).toBe('max qty off; max order value 2500000; exchanges NSE');
  });
});

describe('guardrail configuration is validated at cold start', () => {
  const base = { BROKER_BASE_URL: 'http://127.0.0.1:1', BROKER_SECRET_ID: 's', IDEMPOTENCY_KEY_REQUIRED: 'false' };
  it.each<[string, string, RegExp]>([
    ['GUARDRAIL_MAX_QTY', '0', /GUARDRAIL_MAX_QTY must be a positive whole number/],
    ['GUARDRAIL_MAX_QTY', 'ten', /GUARDRAIL_MAX_QTY/],
    ['GUARDRAIL_MAX_ORDER_VALUE', '-5', /GUARDRAIL_MAX_ORDER_VALUE/],
    ['GUARDRAIL_EXCHANGES', 'NSE,NYSE', /GUARDRAIL_EXCHANGES may only contain NSE, NFO, BSE, MCX/],
    ['GUARDRAIL_PRODUCTS', ' , ', /GUARDRAIL_PRODUCTS must list at least one value/],
    ['GUARDRAIL_READ_ONLY', 'yes', /GUARDRAIL_READ_ONLY must be true or false/],
  ])('%s=%s is a CONFIGURATION_ERROR', (name, value, message) => {
    expect(() => parseGatewayConfig({ ...base, [name]: value })).toThrow(message);
  });

  it('its details have the one shape of the error contract: {field, message}', () => {
    let details: unknown;
    try {
      parseGatewayConfig({ ...base, GUARDRAIL_MAX_QTY: '0' });
    } catch (error) {
      details = (error as { details?: unknown }).details;
    }
    expect(details).toEqual([
      { field: 'GUARDRAIL_MAX_QTY', message: 'must be a positive whole number (or off for no limit)' },
    ]);
  });

  it('requires the idempotency table while keys are required', () => {
    expect(() => parseGatewayConfig({ BROKER_BASE_URL: 'http://127.0.0.1:1', BROKER_SECRET_ID: 's' })).toThrow(
      /IDEMPOTENCY_TABLE_NAME/,
    );
    expect(
      parseGatewayConfig({ ...base, IDEMPOTENCY_TABLE_NAME: 'tbl', IDEMPOTENCY_KEY_REQUIRED: 'true' })
        .idempotencyKeyRequired,
    ).toBe(true);
  });
});
