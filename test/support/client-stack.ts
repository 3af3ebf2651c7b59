/**
 * The local stack the typed client's tests run against (keys optional, a quantity guardrail, a short broker timeout),
 * reset before each test, and the helpers they share: the client that records its retries, the call's error, the
 * broker's view.
 */
import {
  createGttClient,
  type GttClientOptions,
  GttGatewayError,
  type GttOrderInput,
  type OcoOrderInput,
  type RetryEvent,
} from 'gtt-gateway/client';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';

import { LOCAL_SECRET_ID, type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from './emulator-control.js';
import { HIGH_ORDER_RATE } from './order-rate.js';
import { SAMPLE_ORDER } from './sample-order.js';

export let stack: LocalStack;
export let control: EmulatorControl;

export const order: GttOrderInput = SAMPLE_ORDER;
export const oco: OcoOrderInput = {
  exch: 'NSE',
  tsym: 'INFY-EQ',
  tag: 'exit-infy',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 2, prc: '1600', prd: 'C', ret: 'DAY' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 2, prc: '1390', prd: 'C', ret: 'DAY' } },
};

/** A client on the local API that records its retries; fast backoff so tests stay short. */
export const clientWith = (options: Partial<GttClientOptions> = {}) => {
  const retries: RetryEvent[] = [];
  const client = createGttClient({
    baseUrl: stack.api.url,
    retryBaseDelayMs: 50,
    retryMaxDelayMs: 200,
    onRetry: (event) => retries.push(event),
    ...options,
  });
  return { client, retries };
};

/** The call's GttGatewayError (fails the test if the call succeeds or throws anything else). */
export const failure = async (call: Promise<unknown>): Promise<GttGatewayError> => {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(GttGatewayError);
    return error as GttGatewayError;
  }
  throw new Error('expected the call to fail');
};

export const brokerCalls = async (operation: string) =>
  (await control.requests()).filter((r) => r.operation === operation);
export const ordersAtBroker = async () => control.orders(stack.emulator.uid);

/** Resolves once `check()` holds; the bound is generous (a loaded machine is slower, never failed). */
export const until = async (check: () => Promise<boolean>, timeoutMs = 60_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** Starts the stack before the file, stops it after, and resets the broker and the secret before each test. */
export const useClientStack = () => {
  beforeAll(async () => {
    // Keys optional (so a keyless place can be shown), a quantity guardrail, and a short broker timeout.
    stack = await startLocalStack({
      settings: { ...HIGH_ORDER_RATE, IDEMPOTENCY_KEY_REQUIRED: false, GUARDRAIL_MAX_QTY: 100 },
      brokerTimeoutMs: 4_000,
    });
    control = emulatorControl(stack.emulator.url);
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(async () => {
    await control.reset();
    // The emulator's reset brings its session back; a logout also marked the secret logged out, so restore that too.
    stack.secrets.setSecret(
      LOCAL_SECRET_ID,
      JSON.stringify({ accessToken: stack.emulator.token, uid: stack.emulator.uid, actid: stack.emulator.actid }),
    );
  });
};
