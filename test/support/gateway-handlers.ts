/**
 * The real gateway handlers against the broker emulator on 127.0.0.1 and the local Secrets Manager endpoint: both
 * started for the test file, the broker and the secret reset before each test with a fresh handler set, and the
 * sample order and `place` the handler tests share.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import type { AnyOperation } from '../../functions/base/contract/operation.js';
import type { GatewaySettings } from '../../functions/base/runtime/config.js';
import { OPERATIONS } from '../../functions/manifest/index.js';
import { createGatewayHandler } from '../../functions/orders/gateway/gateway-handler.js';
import { placeGttOrder } from '../../functions/orders/operations.js';
import { useLocalAwsEnvironment } from '../../local/run-local.js';
import { type LocalSecretsManager, startLocalSecretsManager } from '../../local/secrets-manager.js';
import { type EmulatorControl, emulatorControl } from './emulator-control.js';
import { invokeHttp } from './events.js';

export const SECRET_ID = 'it/broker-session';
export const TIMEOUT_MS = 700;

export let emulator: RunningEmulator;
export let secrets: LocalSecretsManager;
export let control: EmulatorControl;

export const order = {
  exch: 'NSE',
  tsym: 'M&M-EQ',
  qty: 5,
  prc: '1500.50',
  prd: 'C',
  trantype: 'B',
  prctyp: 'LMT',
  ret: 'DAY',
  ai_t: 'LTP_B_O',
  d: 1490,
};

export const configFor = (secretId: string, overrides: GatewaySettings = {}): GatewaySettings => ({
  BROKER_BASE_URL: emulator.url,
  BROKER_SECRET_ID: secretId,
  BROKER_TIMEOUT_MS: TIMEOUT_MS,
  SECRET_MAX_AGE_SECONDS: 300,
  SECRETS_MANAGER_ENDPOINT: secrets.url,
  // Idempotency has its own tests (integration/order-safety.test.ts, with dynalite); here place runs without a key.
  IDEMPOTENCY_KEY_REQUIRED: false,
  ...overrides,
});

export const handlersFor = (config: GatewaySettings) => {
  const map = new Map(OPERATIONS.map((op) => [op.name, createGatewayHandler(op, { config })]));
  return (op: AnyOperation) => map.get(op.name)!;
};

export let handler: ReturnType<typeof handlersFor>;

/** Starts the emulator and the local Secrets Manager for the file, and resets both before each test. */
export const useGatewayHandlers = () => {
  beforeAll(async () => {
    useLocalAwsEnvironment();
    emulator = await startEmulator({ port: 0 });
    secrets = await startLocalSecretsManager();
    control = emulatorControl(emulator.url);
    handler = handlersFor(configFor(SECRET_ID));
  });

  afterAll(async () => {
    await secrets?.close();
    await emulator?.close();
  });

  beforeEach(async () => {
    await control.reset();
    secrets.setSecret(
      SECRET_ID,
      JSON.stringify({ accessToken: emulator.token, uid: emulator.uid, actid: emulator.actid }),
    );
    // A new handler set per test: the secret cache is per container, and each test starts a fresh one.
    handler = handlersFor(configFor(SECRET_ID));
  });
};

export const place = async (body: unknown = order) => invokeHttp(handler(placeGttOrder), placeGttOrder, { body });
