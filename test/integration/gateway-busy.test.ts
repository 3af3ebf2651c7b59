/**
 * An order whose own steps before the broker call (the journal's claim, the governor's permit: slow under a burst)
 * leave no time to send it within its bound: 503 GATEWAY_BUSY with Retry-After, not executed, nothing sent (issue 58:
 * a burst under `npm start` answered 500 INTERNAL_ERROR, which a client's retry logic does not read). The place's
 * handler with the real governor on dynalite, its permit held back (a fault: the governor's table slow) past the
 * order's bound of 100 ms, once the instrument's rules are in the container's cache. The emulator over loopback.
 */
import { expect, it } from 'vitest';

import { createGatewayHandler } from '../../functions/orders/gateway/gateway-handler.js';
import { dynamoJournal } from '../../functions/orders/journal-factory.js';
import { placeGttOrder } from '../../functions/orders/operations.js';
import { dynamoTradingControls } from '../../functions/orders/safety/trading-controls.js';
import type { LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { invokeHttp } from '../support/events.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
useLocalStack(
  () => ({}),
  (s, c) => {
    stack = s;
    control = c;
  },
);

/** The real governor, its permits granted `slowMs` late (as a throttled or contended control table answers). */
const slowControls =
  (slowMs: number): typeof dynamoTradingControls =>
  (config) => {
    const real = dynamoTradingControls(config);
    const acquire = real.acquire.bind(real);
    real.acquire = async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, slowMs));
      return acquire(...args);
    };
    return real;
  };

const placeWith = (brokerTimeoutMs: number, slowMs = 0) =>
  createGatewayHandler(placeGttOrder, {
    journal: dynamoJournal,
    controls: slowControls(slowMs),
    config: { ...stack.config, BROKER_TIMEOUT_MS: brokerTimeoutMs },
  });

it('503 GATEWAY_BUSY with Retry-After when the steps before the send use up its bound; nothing sent', async () => {
  // The instrument's rules and band read once, into the container's cache (the bound below leaves them out).
  const warm = await invokeHttp(placeWith(8_000), placeGttOrder, {
    body: SAMPLE_ORDER,
    headers: { 'idempotency-key': `busy-warm-${Date.now()}` },
  });
  expect(warm.status).toBe(201);
  await control.clearRequests();
  const key = `busy-${Date.now()}`;
  const res = await invokeHttp(placeWith(100, 300), placeGttOrder, {
    body: SAMPLE_ORDER,
    headers: { 'idempotency-key': key },
  });
  expect(res.status).toBe(503);
  expect(res.headers?.['retry-after']).toBe('1');
  expect(res.body).toMatchObject({ error: { code: 'GATEWAY_BUSY', outcome: 'not_executed' } });
  expect((res.body as { error: { message: string } }).error.message).toContain('nothing was sent');
  expect((await control.requests()).filter((r) => r.operation === 'PlaceGTTOrder')).toEqual([]);
  // Retried after Retry-After with the same key (as the client does): placed, once.
  const again = await invokeHttp(placeWith(8_000), placeGttOrder, {
    body: SAMPLE_ORDER,
    headers: { 'idempotency-key': key },
  });
  expect(again.status).toBe(201);
  expect((await control.requests()).filter((r) => r.operation === 'PlaceGTTOrder')).toHaveLength(1);
});
