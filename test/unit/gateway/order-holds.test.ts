import { describe, expect, it } from 'vitest';

import type { SessionSource } from '../../../functions/base/broker/session.js';
import { SessionExpiredError } from '../../../functions/base/contract/errors.js';
import { openSession } from '../../../functions/orders/gateway/order-holds.js';

const source = (current: () => Promise<unknown>, refreshed = 0) => {
  let refreshes = refreshed;
  return {
    current,
    refresh: async () => {
      refreshes++;
      return current();
    },
    get refreshes() {
      return refreshes;
    },
  } as unknown as SessionSource & { refreshes: number };
};

describe('openSession', () => {
  it('reads the session and returns the current and the refreshed session', async () => {
    const session = { accessToken: 't', uid: 'U1', actid: 'U1' };
    const s = source(async () => session);
    const loaded = await openSession(s, 'order');
    await loaded.refreshSession();
    expect(await loaded.session()).toEqual(session);
    expect(s.refreshes).toBe(1);
  });

  it('a logged-out session stops the call; for an order it says nothing was sent, for a read nothing', async () => {
    const expired = source(() => Promise.reject(new SessionExpiredError('logged out')));
    await expect(openSession(expired, 'order')).rejects.toMatchObject({
      code: 'SESSION_EXPIRED',
      outcome: 'not_executed',
    });
    const read = await openSession(
      source(() => Promise.reject(new SessionExpiredError('x'))),
      'read',
    ).catch((error: unknown) => error);
    expect(read).toMatchObject({ code: 'SESSION_EXPIRED' });
    expect((read as { outcome?: string }).outcome).toBeUndefined();
  });
});
