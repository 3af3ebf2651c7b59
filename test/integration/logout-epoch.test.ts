/**
 * After a logout nothing is sent until the next login, in every container, whatever the broker does with older
 * tokens (issue: `gtt login`, `gtt logout`, `gtt place` still placed for the length of the secret cache, because a
 * warm function held an older token the broker still accepted). The logout writes the session's end into the
 * account's control item; every order permit (the same conditional write) sees it and re-reads the secret first.
 * Real handlers, one per "container", the emulator, the local Secrets Manager and dynalite (the local stack).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { createGatewayHandler } from '../../functions/orders/gateway/gateway-handler.js';
import { dynamoJournal } from '../../functions/orders/journal-factory.js';
import { logout, placeGttOrder } from '../../functions/orders/operations.js';
import { dynamoTradingControls } from '../../functions/orders/safety/trading-controls.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { jdata } from '../contract/jdata-client.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { invokeDirect } from '../support/events.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let n = 0;

/** A warm container: its handler has read (and caches, five minutes) the secret as it is now. */
const container = async (operation: typeof placeGttOrder | typeof logout) => {
  const handler = createGatewayHandler(operation, {
    config: { ...stack.config, SECRET_MAX_AGE_SECONDS: 300 },
    journal: dynamoJournal,
    controls: dynamoTradingControls,
    prefetchSession: true,
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  return handler;
};
const place = (handler: ReturnType<typeof createGatewayHandler>) =>
  invokeDirect(handler, placeGttOrder, { ...SAMPLE_ORDER, idempotencyKey: `epoch-${Date.now()}-${++n}` });
/** Asks the broker directly whether a token still works (ClientDetails with it). */
const tokenWorks = async (token: string): Promise<boolean> =>
  (
    (await jdata(stack.emulator.url, 'ClientDetails', { uid: stack.emulator.uid, actid: stack.emulator.actid }, token))
      .body as { stat: string }
  ).stat === 'Ok';
const heldToken = (): string =>
  (JSON.parse(stack.secrets.getSecret(stack.config.BROKER_SECRET_ID as string)!) as { accessToken: string })
    .accessToken;

beforeAll(async () => {
  stack = await startLocalStack({});
  control = emulatorControl(stack.emulator.url);
});
afterAll(() => stack?.close());
beforeEach(() => control.clearRequests());

describe('a logout stops every container at once', () => {
  it('a warm container holding an older token the broker still accepts sends nothing after the logout', async () => {
    const warm = await container(placeGttOrder);
    expect(await place(warm)).toMatchObject({ ok: true });
    const older = heldToken();
    // A new login (the morning's, or `gtt login` again): a new token in the secret; the broker keeps the older one.
    await stack.renew();
    expect(heldToken()).not.toBe(older);
    // Logout from a container that holds only the new token: the broker ends that one.
    expect(await invokeDirect(await container(logout), logout, {})).toMatchObject({ ok: true });
    expect(await tokenWorks(older)).toBe(true); // the broker's choice: the gateway's promise must not rest on it

    await control.clearRequests();
    expect(await place(warm)).toMatchObject({
      ok: false,
      error: { code: 'SESSION_EXPIRED', outcome: 'not_executed' },
    });
    expect((await control.requests()).filter((r) => r.operation === 'PlaceGTTOrder')).toEqual([]);

    // The next login: the same warm container places again, with the new token.
    await stack.renew();
    expect(await place(warm)).toMatchObject({ ok: true });
  });
});
