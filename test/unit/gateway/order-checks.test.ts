import { describe, expect, it } from 'vitest';

import type { GatewayRequest, RequestOptions } from '../../../functions/base/contract/gateway-request.js';
import { parseGatewayConfig } from '../../../functions/base/runtime/config.js';
import { checkOrder, parseRequest } from '../../../functions/orders/gateway/order-checks.js';
import { cancelGttOrder, getPendingGttOrders, placeGttOrder } from '../../../functions/orders/operations.js';
import { httpApiEvent } from '../../support/events.js';
import { SAMPLE_MARKET_ORDER, SAMPLE_ORDER } from '../../support/sample-order.js';

const config = (settings: Record<string, string> = {}) =>
  parseGatewayConfig({
    BROKER_BASE_URL: 'http://127.0.0.1:9/NorenWClientTP',
    BROKER_SECRET_ID: 'gtt-gateway/broker-session',
    IDEMPOTENCY_TABLE_NAME: 'idempotency',
    ...settings,
  });
const request = (options: Partial<RequestOptions>): GatewayRequest =>
  ({ source: 'direct', payload: {}, options: { dryRun: false, ...options } }) as GatewayRequest;
const order = (fields: Record<string, unknown> = {}) => placeGttOrder.input.parse({ ...SAMPLE_ORDER, ...fields });
const refusal = (check: () => unknown): unknown => {
  try {
    check();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('parseRequest', () => {
  it('reads the request and returns the validated input with its options', () => {
    const parsed = parseRequest(
      cancelGttOrder,
      httpApiEvent(cancelGttOrder, { pathParameters: { alId: '26112400000001' } }),
    );
    expect(parsed.input).toEqual({ al_id: '26112400000001' });
    expect(parsed.request.source).toBe('http');
  });

  it('bad input is VALIDATION_FAILED naming the field; the request was told before validation (for the audit)', () => {
    let read: GatewayRequest | undefined;
    expect(() => parseRequest(cancelGttOrder, { al_id: 'not an id!' }, (asked) => (read = asked))).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', message: expect.stringContaining('al_id') }),
    );
    expect(read?.payload).toEqual({ al_id: 'not an id!' });
  });
});

describe('checkOrder', () => {
  it('a place without an idempotency key is refused (naming the key); with one it returns the order as given', () => {
    const refused = refusal(() => checkOrder(placeGttOrder, request({}), order(), config(), true));
    expect(refused).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(String((refused as Error).message)).toContain('idempotencyKey');
    const input = order();
    expect(checkOrder(placeGttOrder, request({ idempotencyKey: 'k1' }), input, config(), true)).toEqual({
      input,
      market: false,
    });
  });

  it('the key is judged here: on a read VALIDATION_FAILED; without a table, or built without a journal, CONFIGURATION_ERROR', () => {
    const read = refusal(() => checkOrder(getPendingGttOrders, request({ idempotencyKey: 'k' }), {}, config(), true));
    expect(read).toMatchObject({ code: 'VALIDATION_FAILED' });
    const dry = refusal(() => checkOrder(getPendingGttOrders, request({ dryRun: true }), {}, config(), true));
    expect(dry).toMatchObject({ code: 'VALIDATION_FAILED' });
    const noTable = parseGatewayConfig({
      BROKER_BASE_URL: 'http://127.0.0.1:9/NorenWClientTP',
      BROKER_SECRET_ID: 's',
      IDEMPOTENCY_KEY_REQUIRED: 'false',
    });
    const keyed = refusal(() => checkOrder(placeGttOrder, request({ idempotencyKey: 'k' }), order(), noTable, true));
    expect(keyed).toMatchObject({
      code: 'CONFIGURATION_ERROR',
      message: expect.stringContaining('no idempotency table'),
    });
    const unbuilt = refusal(() =>
      checkOrder(placeGttOrder, request({ idempotencyKey: 'k' }), order(), config(), false),
    );
    expect(unbuilt).toMatchObject({
      code: 'CONFIGURATION_ERROR',
      message: expect.stringContaining('without idempotency'),
    });
  });

  it('guardrails refuse an order over the limit', () => {
    const big = refusal(() =>
      checkOrder(
        placeGttOrder,
        request({ idempotencyKey: 'k' }),
        order({ qty: 50 }),
        config({ GUARDRAIL_MAX_QTY: '5' }),
        true,
      ),
    );
    expect(big).toMatchObject({ code: 'GUARDRAIL_REJECTED' });
  });

  it('a market order is neither priced nor judged here (the rules step prices it on its tick); MARKET_ORDERS=reject refuses it', () => {
    const asked = placeGttOrder.input.parse({ ...SAMPLE_MARKET_ORDER, qty: 50 });
    const checked = checkOrder(
      placeGttOrder,
      request({ idempotencyKey: 'k' }),
      asked,
      config({ GUARDRAIL_MAX_QTY: '5' }),
      true,
    );
    expect(checked).toEqual({ input: asked, market: true });
    const refused = refusal(() =>
      checkOrder(placeGttOrder, request({ idempotencyKey: 'k' }), asked, config({ MARKET_ORDERS: 'reject' }), true),
    );
    expect(refused).toMatchObject({ code: 'GUARDRAIL_REJECTED', details: { rule: 'marketOrders' } });
  });
});
