/** completeUnkeyed: a write no journal record carries queues its events itself and undoes a write that landed late. */
import { describe, expect, it } from 'vitest';

import type { LifecycleEvent } from '../../../functions/base/schemas/events.js';
import type { GatewayEvents } from '../../../functions/events/core/producer.js';
import type { UndoLanded } from '../../../functions/orders/gateway/landed-after-halt.js';
import { completeUnkeyed, type Write } from '../../../functions/orders/gateway/order-send.js';
import { sampleWrite } from '../../support/gateway-write.js';

const EVENT = { detailType: 'GTT Placed', detail: { eventId: 'e-9' } } as never as LifecycleEvent;

const producer = (status: 'queued' | 'failed') => {
  const asked: { events: LifecycleEvent[]; timeoutMs: number }[] = [];
  const events: GatewayEvents = {
    build: async () => undefined,
    queue: async (list, timeoutMs) => {
      asked.push({ events: [...list], timeoutMs });
      return status === 'queued' ? { status } : { status, reason: 'outbox down' };
    },
  };
  return { events, asked };
};
const write = (events?: GatewayEvents): Write => sampleWrite({ producer: events });
/** An undo that records whether it was told the events were carried, then throws as the real one does. */
const undoer = () => {
  const told: boolean[] = [];
  const undo: UndoLanded = async (carriedOwn) => {
    told.push(carriedOwn);
    throw new Error('TRADING_HALTED');
  };
  return { undo, told };
};

describe('completeUnkeyed', () => {
  it("queues the send's events within the time left and returns the broker's result", async () => {
    const p = producer('queued');
    const w = write(p.events);
    expect(await completeUnkeyed(w, { result: { al_id: '9' }, events: [EVENT] })).toEqual({ al_id: '9' });
    expect(p.asked).toHaveLength(1);
    expect(p.asked[0]!.events).toEqual([EVENT]);
    expect(p.asked[0]!.timeoutMs).toBeLessThan(30_000);
    expect(w.facts.event).toEqual({ status: 'queued', detailType: 'GTT Placed', eventId: 'e-9' });
  });

  it('queues nothing for a send with no events, and needs no producer', async () => {
    const p = producer('queued');
    expect(await completeUnkeyed(write(p.events), { result: { ok: 1 }, events: [] })).toEqual({ ok: 1 });
    expect(p.asked).toEqual([]);
    expect(await completeUnkeyed(write(), { result: { ok: 2 }, events: [EVENT] })).toEqual({ ok: 2 });
  });

  it('a write that landed after the switch is undone, told whether its events were carried', async () => {
    const queued = undoer();
    const ok = producer('queued');
    const landed = Promise.resolve(queued.undo);
    await expect(completeUnkeyed(write(ok.events), { result: {}, events: [EVENT], landed })).rejects.toThrow(
      'TRADING_HALTED',
    );
    expect(queued.told).toEqual([true]);

    const failed = undoer();
    const down = producer('failed');
    await expect(
      completeUnkeyed(write(down.events), { result: {}, events: [EVENT], landed: Promise.resolve(failed.undo) }),
    ).rejects.toThrow('TRADING_HALTED');
    expect(failed.told).toEqual([false]);
  });

  it('a write the switch did not catch completes as sent', async () => {
    const p = producer('queued');
    expect(
      await completeUnkeyed(write(p.events), { result: 'r', events: [EVENT], landed: Promise.resolve(undefined) }),
    ).toBe('r');
  });
});
