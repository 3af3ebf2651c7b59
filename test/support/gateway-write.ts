/**
 * A `Write` of the order path's last steps (functions/orders/gateway/order-send.ts) for unit tests: a place of the
 * sample order whose broker answers nothing (port 9), so a step that sent would fail as BROKER_UNAVAILABLE.
 */
import { parseGatewayConfig } from '../../functions/base/runtime/config.js';
import { openRecord } from '../../functions/orders/gateway/context.js';
import { type Write, writeBounds } from '../../functions/orders/gateway/order-send.js';
import { placeGttOrder } from '../../functions/orders/operations.js';
import { captureLogger } from './logs.js';
import { SAMPLE_ORDER } from './sample-order.js';

const SESSION = { accessToken: 'a'.repeat(64), uid: 'U1', actid: 'U1' };
const config = parseGatewayConfig({
  BROKER_BASE_URL: 'http://127.0.0.1:9/NorenWClientTP',
  BROKER_SECRET_ID: 's',
  BROKER_TIMEOUT_MS: '2000',
  IDEMPOTENCY_KEY_REQUIRED: 'false',
});

/** A place of the sample order, 30 s from its deadline, with what `over` sets. */
export const sampleWrite = (over: Partial<Write> = {}): Write => ({
  operation: placeGttOrder,
  config,
  input: placeGttOrder.input.parse(SAMPLE_ORDER),
  deadline: Date.now() + 30_000,
  bounds: writeBounds(2_000, Date.now() + 30_000, false),
  session: { session: async () => SESSION, refreshSession: async () => SESSION },
  sessions: {} as Write['sessions'],
  logger: captureLogger().logger,
  facts: openRecord('direct').facts,
  ...over,
});
