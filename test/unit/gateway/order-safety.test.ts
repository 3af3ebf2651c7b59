import { describe, expect, it } from 'vitest';

import { orderSafety } from '../../../functions/gateway/order-safety.js';
import { getPendingGttOrders, placeGttOrder } from '../../../functions/operations.js';
import { parseGatewayConfig } from '../../../functions/runtime/config.js';
import { SAMPLE_ORDER } from '../../support/sample-order.js';
import { run } from './support.js';

const config =
  (settings: Record<string, string> = {}) =>
  () =>
    parseGatewayConfig({
      BROKER_BASE_URL: 'http://127.0.0.1:9/NorenWClientTP',
      BROKER_SECRET_ID: 'gtt-gateway/broker-session',
      IDEMPOTENCY_TABLE_NAME: 'idempotency',
      ...settings,
    });
const state = (options: Record<string, unknown>, input: unknown = placeGttOrder.input.parse(SAMPLE_ORDER)) => ({
  request: { options } as never,
  input,
});

describe('orderSafety', () => {
  it('a place without an idempotency key is refused before the handler (naming the key); with one it passes', async () => {
    let ran = 0;
    const refused = await run([orderSafety(placeGttOrder, config())], () => ran++, {}, state({}));
    expect(refused.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(String((refused.error as Error).message)).toContain('idempotencyKey');
    const passed = await run([orderSafety(placeGttOrder, config())], () => ran++, {}, state({ idempotencyKey: 'k1' }));
    expect(passed.error).toBeUndefined();
    expect(ran).toBe(1);
  });

  it('a key on a read, or a dry run of a read, is VALIDATION_FAILED; a key without a table is CONFIGURATION_ERROR', async () => {
    const read = await run(
      [orderSafety(getPendingGttOrders, config())],
      () => 1,
      {},
      state({ idempotencyKey: 'k' }, {}),
    );
    expect(read.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    const dry = await run([orderSafety(getPendingGttOrders, config())], () => 1, {}, state({ dryRun: true }, {}));
    expect(dry.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    const noTable = () =>
      parseGatewayConfig({
        BROKER_BASE_URL: 'http://127.0.0.1:9/NorenWClientTP',
        BROKER_SECRET_ID: 's',
        IDEMPOTENCY_KEY_REQUIRED: 'false',
      });
    const keyed = await run([orderSafety(placeGttOrder, noTable)], () => 1, {}, state({ idempotencyKey: 'k' }));
    expect(keyed.error).toMatchObject({ code: 'CONFIGURATION_ERROR' });
  });

  it('guardrails refuse an order over the limit before the handler', async () => {
    const big = await run(
      [orderSafety(placeGttOrder, config({ GUARDRAIL_MAX_QTY: '5' }))],
      () => 1,
      {},
      state({ idempotencyKey: 'k' }, placeGttOrder.input.parse({ ...SAMPLE_ORDER, qty: 50 })),
    );
    expect(big.error).toMatchObject({ code: 'GUARDRAIL_REJECTED' });
  });
});
