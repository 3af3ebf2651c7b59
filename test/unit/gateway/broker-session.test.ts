import { describe, expect, it } from 'vitest';

import type { SessionSource } from '../../../functions/broker/session.js';
import { SessionExpiredError } from '../../../functions/contract/errors.js';
import { brokerSession } from '../../../functions/gateway/broker-session.js';
import { run } from './support.js';

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

describe('brokerSession', () => {
  it('reads the session before the handler and gives it the current and the refreshed session', async () => {
    const session = { accessToken: 't', uid: 'U1', actid: 'U1' };
    const s = source(async () => session);
    const ok = await run([brokerSession(() => s, 'order')], async (ctx) => {
      await ctx.gateway.refreshSession!();
      return ctx.gateway.session!();
    });
    expect(ok.result).toEqual(session);
    expect(s.refreshes).toBe(1);
  });

  it('a logged-out session stops the call before the handler; for an order it says nothing was sent', async () => {
    let ran = false;
    const expired = source(() => Promise.reject(new SessionExpiredError('logged out')));
    const order = await run([brokerSession(() => expired, 'order')], () => (ran = true));
    expect(ran).toBe(false);
    expect(order.error).toMatchObject({ code: 'SESSION_EXPIRED', outcome: 'not_executed' });
    const read = await run(
      [brokerSession(() => source(() => Promise.reject(new SessionExpiredError('x'))), 'read')],
      () => 1,
    );
    expect((read.error as { outcome?: string }).outcome).toBeUndefined();
  });
});
