import { describe, expect, it } from 'vitest';

import type { LifecycleEvent } from '../../../functions/base/schemas/events.js';
import type { GatewayEvents } from '../../../functions/events/core/producer.js';
import {
  buildEvents,
  carriedEvents,
  EVENT_PUBLISH_TIMEOUT_MS,
  queueEvents,
} from '../../../functions/orders/gateway/order-events.js';
import { placeGttOrder } from '../../../functions/orders/operations.js';
import { captureLogger } from '../../support/logs.js';

/** A producer that builds a fixed event (none for a result without al_id) and records what it was asked to queue. */
const producer = (queueStatus: 'queued' | 'failed' | 'published-unmarked' = 'queued') => {
  const queued: { events: LifecycleEvent[]; timeoutMs: number }[] = [];
  const events: GatewayEvents = {
    build: async (_op, _input, result) => {
      const alId = (result as { al_id?: string }).al_id;
      return alId ? ({ detailType: 'GTT Placed', detail: { eventId: `e-${alId}` } } as never) : undefined;
    },
    queue: async (list, timeoutMs) => {
      queued.push({ events: [...list], timeoutMs });
      if (queueStatus === 'queued') return { status: 'queued' };
      if (queueStatus === 'failed') return { status: 'failed', reason: 'table down' };
      return { status: 'published', markerError: 'marker table down' };
    },
  };
  return { events, queued };
};
const account = async () => ({ uid: 'U1', actid: 'U1' });

describe('order events', () => {
  it('a success gives its event; a result naming no order gives none, logged for the watcher', async () => {
    const p = producer();
    const { logger, lines } = captureLogger();
    expect(await buildEvents(placeGttOrder, p.events, {}, { al_id: '7' }, account, logger)).toEqual([
      { detailType: 'GTT Placed', detail: { eventId: 'e-7' } },
    ]);
    expect(lines).toEqual([]);
    expect(await buildEvents(placeGttOrder, p.events, {}, {}, account, logger)).toEqual([]);
    expect(lines.join('\n')).toContain('lifecycle event not built');
  });

  it('events the idempotency record carried are queued with no write of their own', async () => {
    const p = producer();
    const built = await buildEvents(placeGttOrder, p.events, {}, { al_id: '7' }, account, captureLogger().logger);
    expect(carriedEvents(built)).toEqual({ status: 'queued', detailType: 'GTT Placed', eventId: 'e-7' });
    expect(carriedEvents([])).toBeUndefined();
    expect(p.queued).toEqual([]);
  });

  it('events no record carried are queued on their own, within the time left; a failure is logged, never thrown', async () => {
    const ok = producer();
    const event = { detailType: 'GTT Placed', detail: { eventId: 'e-8' } } as never as LifecycleEvent;
    const logs = captureLogger();
    expect(await queueEvents(placeGttOrder, ok.events, [event], 60_000, logs.logger)).toEqual({
      status: 'queued',
      detailType: 'GTT Placed',
      eventId: 'e-8',
    });
    expect(await queueEvents(placeGttOrder, ok.events, [event], 1_500, logs.logger)).toMatchObject({
      status: 'queued',
    });
    expect(ok.queued.map((q) => q.timeoutMs)).toEqual([EVENT_PUBLISH_TIMEOUT_MS, 500]);
    expect(logs.lines).toEqual([]);

    const down = producer('failed');
    expect(await queueEvents(placeGttOrder, down.events, [event], 60_000, logs.logger)).toMatchObject({
      status: 'failed',
    });
    expect(logs.lines.join('\n')).toContain('neither queued nor published');

    const unmarked = producer('published-unmarked');
    expect(await queueEvents(placeGttOrder, unmarked.events, [event], 60_000, logs.logger)).toMatchObject({
      status: 'published',
    });
    expect(logs.lines.join('\n')).toContain('its marker not written');
  });

  it('nothing to queue: no write and no fate', async () => {
    const p = producer();
    expect(await queueEvents(placeGttOrder, p.events, [], 60_000, captureLogger().logger)).toBeUndefined();
    expect(p.queued).toEqual([]);
  });
});
