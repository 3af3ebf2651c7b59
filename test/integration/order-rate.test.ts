/**
 * The order-rate governor, end to end: separate handler instances (separate "containers", each with its own
 * trading controls) against one dynalite table, the broker emulator over HTTP, and the typed client's retries.
 * What the emulator received is read from its request log.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { createGttClient } from '../../client/index.js';
import { createGatewayHandler } from '../../functions/orders/gateway/gateway-handler.js';
import { dynamoJournal } from '../../functions/orders/journal-factory.js';
import { cancelGttOrder, placeGttOrder } from '../../functions/orders/operations.js';
import { DynamoTradingControls, dynamoTradingControls } from '../../functions/orders/safety/trading-controls.js';
import { localBroker } from '../../local/broker-preset.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { invokeDirect, invokeHttp } from '../support/events.js';
import { busiestSecond } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let run = 0;

const order = (i: number) => ({ ...SAMPLE_ORDER, qty: 1 + i });

/** A fresh "container": its own handler, its own governor client state, the stack's shared table. */
const container = () =>
  createGatewayHandler(placeGttOrder, {
    journal: dynamoJournal,
    controls: dynamoTradingControls,
    config: stack.config,
  });

const placeArrivals = async () =>
  (await control.requests()).filter((r) => r.operation === 'PlaceGTTOrder').map((r) => Date.parse(r.at));

/** What the broker refused among the order writes it received (its own rate limit among them). */
const brokerRefusals = async () =>
  (await control.requests())
    .filter((r) => r.operation === 'PlaceGTTOrder' && (r.reply as { stat?: string } | null)?.stat !== 'OI created')
    .map((r) => r.reply);

/** What a refused write may answer: the governor's refusal, or the gateway's own time run out (both not sent). */
const RETRYABLE = /^(RATE_LIMITED|GATEWAY_BUSY)$/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  // Two busy cores and dynalite spread a permit's arrival at the broker far more than AWS does (hundreds of ms):
  // the margin covers that spread here, as a deployment sets it from what it measures (docs/explanation/compliance.md).
  stack = await startLocalStack({ settings: { ORDER_RATE_MARGIN_MS: 1_000 } });
  control = emulatorControl(stack.emulator.url);
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(async () => {
  run++;
  await control.reset();
  // The emulator counts as a Noren broker does (10 order writes a second, then its own refusal).
  await control.switches({ enforceOrderRate: true });
  // The last test's permits would refuse this one's first orders: start each test with an empty window (1 s plus
  // this suite's margin).
  await sleep(2_100);
});

describe('order-rate governor', () => {
  it('defaults to 8 a second and 120 a minute, and npm start applies it', () => {
    expect(stack.config.CONTROL_TABLE_NAME).toBeTruthy();
    const controls = dynamoTradingControls({
      controlTableName: 'x',
      orderRatePerSecond: 8,
      orderRatePerMinute: 120,
    });
    expect(controls.limits).toEqual({ perSecond: 8, perMinute: 120 });
    // npm start -- --broker tradesmart takes the broker's own rate.
    expect(localBroker('tradesmart', 'http://127.0.0.1:1').rateLimits).toEqual({ perSecond: 8, perMinute: 110 });
    expect(localBroker('shoonya', 'http://127.0.0.1:1').rateLimits).toBeUndefined();
  });

  it('30 concurrent places from 30 containers: at most 8 reach the broker in any second, the rest RATE_LIMITED; retried, all 30 placed once', async () => {
    const containers = Array.from({ length: 30 }, container);
    const keys = containers.map((_, i) => `rate-${run}-${i}`);
    const started = Date.now();
    const first = await Promise.all(
      containers.map((h, i) => invokeDirect(h, placeGttOrder, { ...order(i), idempotencyKey: keys[i] })),
    );

    const placed = first.filter((r) => r.ok);
    const refused = first.filter((r) => !r.ok);
    // Eight at once; more only as the window slides (a loaded machine spreads the burst over more than a second).
    expect(placed.length).toBeGreaterThan(0);
    // The burst may take longer than a second on a busy machine, so more than 8 may pass in all, never more than 8
    // within any one second (the governor's rule), and most are refused.
    expect(busiestSecond(await placeArrivals())).toBeLessThanOrEqual(8);
    // However long a loaded machine spread the burst, no more passed than eight for each second it lasted.
    const burstSeconds = Math.ceil((Date.now() - started) / 1_000);
    expect(placed.length).toBeLessThanOrEqual(8 * (burstSeconds + 1));
    if (burstSeconds <= 2) expect(refused.length).toBeGreaterThan(placed.length);
    expect(placed.length + refused.length).toBe(30);
    expect(busiestSecond(await placeArrivals())).toBeLessThanOrEqual(8);
    // Refused by the governor, or (a machine so loaded that a permit came after the write's time to be sent)
    // GATEWAY_BUSY: both retryable, both never sent.
    for (const r of refused) {
      expect(r).toMatchObject({
        ok: false,
        error: { code: expect.stringMatching(RETRYABLE), outcome: 'not_executed' },
      });
      if (!r.ok) expect((r.error.details as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    }
    // Refused means never sent: the broker saw exactly the placed ones.
    expect(await placeArrivals()).toHaveLength(placed.length);

    // Each refused container retries with its own key after the Retry-After (as a Step Functions Retry would).
    let outstanding = first.map((r, i) => (r.ok ? -1 : i)).filter((i) => i >= 0);
    for (let round = 0; outstanding.length > 0 && round < 20; round++) {
      await sleep(1_000);
      const again = await Promise.all(
        outstanding.map((i) => invokeDirect(containers[i]!, placeGttOrder, { ...order(i), idempotencyKey: keys[i] })),
      );
      for (const r of again) if (!r.ok) expect(r.error.code).toMatch(RETRYABLE);
      outstanding = outstanding.filter((_, n) => !again[n]!.ok);
    }
    expect(outstanding).toEqual([]);

    const arrivals = await placeArrivals();
    expect(arrivals).toHaveLength(30);
    expect(busiestSecond(arrivals)).toBeLessThanOrEqual(8);
    // The broker (counting its 10 a second) never had to refuse one.
    expect(await brokerRefusals()).toEqual([]);
    // Nothing lost or doubled: 30 pending orders, one per quantity.
    const pending = (await control.orders(stack.emulator.uid)).filter((o) => o.state === 'pending');
    expect(pending).toHaveLength(30);
  });

  it('the typed client waits for Retry-After and retries: 30 concurrent places over HTTP, each placed exactly once', async () => {
    const client = createGttClient({ baseUrl: stack.api.url, maxAttempts: 12, deadlineMs: 45_000 });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        client.placeOrder(order(i) as never, { idempotencyKey: `client-${run}-${i}` }),
      ),
    );
    expect(new Set(results.map((r) => r.al_id)).size).toBe(30);
    const arrivals = await placeArrivals();
    expect(arrivals).toHaveLength(30);
    expect(busiestSecond(arrivals)).toBeLessThanOrEqual(8);
    expect(await brokerRefusals()).toEqual([]);
  });

  it('HTTP callers get 429 RATE_LIMITED with Retry-After; a cancel takes a permit too', async () => {
    const controls = new DynamoTradingControls({
      tableName: String(stack.config.CONTROL_TABLE_NAME),
      endpoint: String(stack.config.DYNAMODB_ENDPOINT),
      limits: { perSecond: 8, perMinute: 120 },
    });
    // Fill this second's permits as eight other containers would.
    for (let i = 0; i < 8; i++) await controls.acquire(stack.emulator.uid, false);
    const cancel = createGatewayHandler(cancelGttOrder, {
      journal: dynamoJournal,
      controls: dynamoTradingControls,
      config: stack.config,
    });
    const reply = await invokeHttp(cancel, cancelGttOrder, { pathParameters: { alId: '123' } });
    expect(reply.status).toBe(429);
    expect(Number(reply.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(reply.body).toMatchObject({
      error: { code: 'RATE_LIMITED', outcome: 'not_executed', details: { window: 'second', limit: 8 } },
    });
    expect((await control.requests()).filter((r) => r.operation === 'CancelGTTOrder')).toHaveLength(0);
  });

  it('a minute limit counts over the minute (a preset like TradeSmart: 110)', async () => {
    const controls = new DynamoTradingControls({
      tableName: String(stack.config.CONTROL_TABLE_NAME),
      endpoint: String(stack.config.DYNAMODB_ENDPOINT),
      limits: { perSecond: 100, perMinute: 3 },
    });
    const account = `minute-${run}`;
    for (let i = 0; i < 3; i++) await controls.acquire(account, false);
    const refusal = await controls.acquire(account, false).catch((error: unknown) => error);
    expect(refusal).toMatchObject({
      code: 'RATE_LIMITED',
      outcome: 'not_executed',
      details: { window: 'minute', limit: 3 },
    });
    expect((refusal as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds).toBeGreaterThan(50);
  });

  it('fails closed: an unreachable governor table refuses the write, nothing is sent', async () => {
    const handler = createGatewayHandler(placeGttOrder, {
      journal: dynamoJournal,
      controls: dynamoTradingControls,
      config: { ...stack.config, CONTROL_TABLE_NAME: 'no-such-table' },
    });
    const reply = await invokeDirect(handler, placeGttOrder, { ...order(0), idempotencyKey: `closed-${run}` });
    expect(reply).toMatchObject({
      ok: false,
      name: 'InternalError',
      error: { code: 'INTERNAL_ERROR', outcome: 'not_executed' },
    });
    expect(await placeArrivals()).toHaveLength(0);
  });

  it('an order function built without the controls refuses to send around the governor', async () => {
    const handler = createGatewayHandler(placeGttOrder, { journal: dynamoJournal, config: stack.config });
    const reply = await invokeDirect(handler, placeGttOrder, { ...order(0), idempotencyKey: `bare-${run}` });
    expect(reply).toMatchObject({ ok: false, error: { code: 'CONFIGURATION_ERROR' } });
    expect(await placeArrivals()).toHaveLength(0);
  });
});
