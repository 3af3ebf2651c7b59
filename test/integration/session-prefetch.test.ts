/**
 * The secret read started at init: the first invocation uses it (one read, not two), and a read that fails at
 * init becomes the first invocation's clean CONFIGURATION_ERROR (read again then), never an unhandled rejection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import { SessionSource } from '../../functions/base/broker/session.js';
import { createGatewayHandler } from '../../functions/orders/gateway/gateway-handler.js';
import { getEnabledGtts } from '../../functions/orders/operations.js';
import { useLocalAwsEnvironment } from '../../local/run-local.js';
import { type LocalSecretsManager, startLocalSecretsManager } from '../../local/secrets-manager.js';
import { invokeDirect } from '../support/events.js';

let emulator: RunningEmulator;
let secrets: LocalSecretsManager;

beforeAll(async () => {
  useLocalAwsEnvironment();
  emulator = await startEmulator({ port: 0 });
  secrets = await startLocalSecretsManager({
    secrets: {
      'prefetch/ok': JSON.stringify({ accessToken: emulator.token, uid: emulator.uid, actid: emulator.actid }),
    },
  });
});
afterAll(async () => {
  await secrets?.close();
  await emulator?.close();
});

describe('session prefetch', () => {
  it('the first call is served by the read started at init: one GetSecretValue', async () => {
    const source = new SessionSource({ secretId: 'prefetch/ok', maxAgeSeconds: 300, endpoint: secrets.url });
    const before = secrets.getCallCount('prefetch/ok');
    source.prefetch();
    expect((await source.current()).uid).toBe(emulator.uid);
    expect((await source.current()).uid).toBe(emulator.uid);
    expect(secrets.getCallCount('prefetch/ok') - before).toBe(1);
  });

  it('a failed read at init is the first invocation’s CONFIGURATION_ERROR, after one more read', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const handler = createGatewayHandler(getEnabledGtts, {
        prefetchSession: true,
        config: {
          BROKER_BASE_URL: emulator.url,
          BROKER_SECRET_ID: 'prefetch/missing',
          SECRETS_MANAGER_ENDPOINT: secrets.url,
          IDEMPOTENCY_KEY_REQUIRED: false,
        },
      });
      // The read started at init has failed by now (one request); nothing has been invoked yet.
      for (let i = 0; i < 3_000 && secrets.getRequestCount('prefetch/missing') === 0; i++)
        await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 50));
      expect(secrets.getRequestCount('prefetch/missing')).toBe(1);
      const reply = await invokeDirect(handler, getEnabledGtts, {});
      expect(reply).toMatchObject({ ok: false, name: 'ConfigurationError', error: { code: 'CONFIGURATION_ERROR' } });
      // The invocation did not reuse the failed read: it read once more (and that read failed too).
      expect(secrets.getRequestCount('prefetch/missing')).toBe(2);
      // Created later, the secret is found by the next invocation: the failed early read is not cached.
      secrets.setSecret(
        'prefetch/missing',
        JSON.stringify({ accessToken: emulator.token, uid: emulator.uid, actid: emulator.actid }),
      );
      expect(await invokeDirect(handler, getEnabledGtts, {})).toMatchObject({ ok: true, result: { stat: 'Ok' } });
      expect(secrets.getRequestCount('prefetch/missing')).toBe(3);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
