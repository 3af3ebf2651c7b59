/** The send step's refusals, which send nothing (the broker's address here answers nothing: port 9). */
import { describe, expect, it } from 'vitest';

import { OrderBusyError, RateLimitedError } from '../../../functions/base/contract/errors.js';
import type { AskedLease, AskedPermit } from '../../../functions/orders/gateway/order-holds.js';
import { sendWrite, type Write, writeBounds } from '../../../functions/orders/gateway/order-send.js';
import { sampleWrite } from '../../support/gateway-write.js';

const write = (bounds = writeBounds(2_000, Date.now() + 30_000, false)): Write => sampleWrite({ bounds });
const lease = (hold: () => Promise<void>) => {
  const ended: unknown[] = [];
  const asked: AskedLease = { hold, end: async (error?: unknown) => void ended.push(error ?? 'released') };
  return { asked, ended };
};
const permit = (granted: Promise<void>): AskedPermit => {
  granted.catch(() => undefined);
  return { granted, askedAt: Date.now(), wanted: () => undefined };
};

describe('sendWrite', () => {
  it('past its time to be sent, a write is GATEWAY_BUSY (retry after 1 s), nothing sent', async () => {
    const late = { sendBy: Date.now() - 1, sendsEndBy: Date.now() + 1_000, writesEndBy: Date.now() + 1_100 };
    const error = await sendWrite(write(late), {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'GATEWAY_BUSY', outcome: 'not_executed', details: { retryAfterSeconds: 1 } });
  });

  it("the lease's refusal is said before the permit's; neither sends", async () => {
    const busy = lease(() => Promise.reject(new OrderBusyError('held by another change')));
    const refused = permit(Promise.reject(new RateLimitedError('over the rate', { outcome: 'not_executed' })));
    const error = await sendWrite(write(), { lease: busy.asked, permit: refused }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ORDER_BUSY' });
    const rated = await sendWrite(write(), { lease: lease(async () => undefined).asked, permit: refused }).catch(
      (e: unknown) => e,
    );
    expect(rated).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('a write that reached the send is timed and its lease given back with the outcome', async () => {
    const held = lease(async () => undefined);
    const w = write();
    const error = await sendWrite(w, { lease: held.asked, permit: permit(Promise.resolve()) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BROKER_UNAVAILABLE' });
    expect(w.facts.brokerMs).toEqual(expect.any(Number));
    expect(held.ended).toHaveLength(1);
  });
});
