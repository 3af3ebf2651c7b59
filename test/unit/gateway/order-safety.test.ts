import { describe, expect, it } from 'vitest';

import type { RequestOptions } from '../../../functions/base/contract/gateway-request.js';
import { parseGatewayConfig } from '../../../functions/base/runtime/config.js';
import { type CheckedOrder, orderSafety } from '../../../functions/orders/gateway/order-safety.js';
import { getPendingGttOrders, placeGttOrder } from '../../../functions/orders/operations.js';
import { SAMPLE_MARKET_ORDER, SAMPLE_ORDER } from '../../support/sample-order.js';

const config = (settings: Record<string, string> = {}) =>
  parseGatewayConfig({
    BROKER_BASE_URL: 'http://127.0.0.1:9/NorenWClientTP',
    BROKER_SECRET_ID: 'gtt-gateway/broker-session',
    IDEMPOTENCY_TABLE_NAME: 'idempotency',
    ...settings,
  });
const request = (options: Partial<RequestOptions>, input: unknown = placeGttOrder.input.parse(SAMPLE_ORDER)) => ({
  source: 'direct' as const,
  options: { dryRun: false, ...options },
  input,
});
const refusal = (check: () => unknown): unknown => {
  try {
    check();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('orderSafety', () => {
  it('a place without an idempotency key is refused (naming the key); with one it returns the order as given', () => {
    const refused = refusal(() => orderSafety(placeGttOrder, request({}), config()));
    expect(refused).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(String((refused as Error).message)).toContain('idempotencyKey');
    const input = placeGttOrder.input.parse(SAMPLE_ORDER);
    expect(orderSafety(placeGttOrder, request({ idempotencyKey: 'k1' }, input), config())).toEqual({ input });
  });

  it('a key on a read, or a dry run of a read, is VALIDATION_FAILED; a key without a table is CONFIGURATION_ERROR', () => {
    const read = refusal(() => orderSafety(getPendingGttOrders, request({ idempotencyKey: 'k' }, {}), config()));
    expect(read).toMatchObject({ code: 'VALIDATION_FAILED' });
    const dry = refusal(() => orderSafety(getPendingGttOrders, request({ dryRun: true }, {}), config()));
    expect(dry).toMatchObject({ code: 'VALIDATION_FAILED' });
    const noTable = parseGatewayConfig({
      BROKER_BASE_URL: 'http://127.0.0.1:9/NorenWClientTP',
      BROKER_SECRET_ID: 's',
      IDEMPOTENCY_KEY_REQUIRED: 'false',
    });
    const keyed = refusal(() => orderSafety(placeGttOrder, request({ idempotencyKey: 'k' }), noTable));
    expect(keyed).toMatchObject({ code: 'CONFIGURATION_ERROR' });
  });

  it('guardrails refuse an order over the limit', () => {
    const big = refusal(() =>
      orderSafety(
        placeGttOrder,
        request({ idempotencyKey: 'k' }, placeGttOrder.input.parse({ ...SAMPLE_ORDER, qty: 50 })),
        config({ GUARDRAIL_MAX_QTY: '5' }),
      ),
    );
    expect(big).toMatchObject({ code: 'GUARDRAIL_REJECTED' });
  });

  it('a market order comes back priced, the asked order kept; it is told before the guardrails refuse it', () => {
    const asked = placeGttOrder.input.parse({ ...SAMPLE_MARKET_ORDER, qty: 50 });
    const told: CheckedOrder[] = [];
    const checked = orderSafety(placeGttOrder, request({ idempotencyKey: 'k' }, asked), config(), (o) => told.push(o));
    expect(checked.requested).toBe(asked);
    expect(checked.converted).toBeDefined();
    expect((checked.input as { prctyp: string }).prctyp).toBe('LMT');
    expect((asked as { prctyp: string }).prctyp).toBe('MKT');
    const refused = refusal(() =>
      orderSafety(placeGttOrder, request({ idempotencyKey: 'k' }, asked), config({ GUARDRAIL_MAX_QTY: '5' }), (o) =>
        told.push(o),
      ),
    );
    expect(refused).toMatchObject({ code: 'GUARDRAIL_REJECTED' });
    expect(told).toHaveLength(2);
    expect(told[1]).toMatchObject({ requested: asked, converted: expect.anything() });
  });
});
