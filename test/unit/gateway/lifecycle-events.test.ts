import { describe, expect, it } from 'vitest';

import type { GatewayEvents } from '../../../functions/events/producer.js';
import { lifecycleEvents } from '../../../functions/gateway/lifecycle-events.js';
import { getPendingGttOrders, placeGttOrder } from '../../../functions/operations.js';
import type { LifecycleEvent } from '../../../functions/schemas/events.js';
import { captureLogger } from '../../support/logs.js';
import { run } from './support.js';

/** A producer that builds a fixed event and records what it was asked to queue. */
const producer = (queueStatus: 'queued' | 'failed' = 'queued') => {
  const queued: LifecycleEvent[][] = [];
  const events: GatewayEvents = {
    build: async (_op, _input, result) =>
      ({ detailType: 'GTT Placed', detail: { eventId: `e-${(result as { al_id: string }).al_id}` } }) as never,
    queue: async (list) => {
      queued.push([...list]);
      return queueStatus === 'queued' ? { status: 'queued' } : { status: 'failed', reason: 'table down' };
    },
  };
  return { events, queued };
};
const session = async () => ({ accessToken: 't', uid: 'U1', actid: 'U1' });

describe('lifecycleEvents', () => {
  it('the handler gets the events to carry; when the record carried them nothing more is written', async () => {
    const p = producer();
    const done = await run(
      [lifecycleEvents(placeGttOrder, () => p.events, captureLogger().logger)],
      async (ctx) => {
        const list = await ctx.gateway.brokerSucceeded!({ al_id: '7' });
        ctx.gateway.outboxQueued = true;
        return list;
      },
      {},
      { request: { options: {} } as never, session },
    );
    expect(done.result).toEqual([{ detailType: 'GTT Placed', detail: { eventId: 'e-7' } }]);
    expect(p.queued).toEqual([]);
    expect(done.context.gateway.event).toEqual({ status: 'queued', detailType: 'GTT Placed', eventId: 'e-7' });
  });

  it('a call no record carried queues its events itself; a failed queue is logged, never an error', async () => {
    const p = producer('failed');
    const { logger, lines } = captureLogger();
    const done = await run(
      [lifecycleEvents(placeGttOrder, () => p.events, logger)],
      async (ctx) => {
        await ctx.gateway.brokerSucceeded!({ al_id: '8' });
        return { al_id: '8' };
      },
      {},
      { request: { options: {} } as never, session },
    );
    expect(done.error).toBeUndefined();
    expect(p.queued).toHaveLength(1);
    expect(done.context.gateway.event?.status).toBe('failed');
    expect(lines.join('\n')).toContain('neither queued nor published');
  });

  it('no events for a dry run, nor for an operation without a lifecycle entry', async () => {
    const p = producer();
    const dry = await run(
      [lifecycleEvents(placeGttOrder, () => p.events, captureLogger().logger)],
      (ctx) => ctx.gateway.brokerSucceeded,
      {},
      {
        request: { options: { dryRun: true } } as never,
      },
    );
    expect(dry.result).toBeUndefined();
    const read = await run(
      [lifecycleEvents(getPendingGttOrders, () => p.events, captureLogger().logger)],
      (ctx) => ctx.gateway.brokerSucceeded,
      {},
      {
        request: { options: {} } as never,
      },
    );
    expect(read.result).toBeUndefined();
  });
});
