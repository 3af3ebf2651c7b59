/**
 * GttWatcher: on a schedule, read the broker's pending list and triggered history (the operation table's own
 * GetPendingGTTOrder and GetTriggeredGTTOrders entries, so decoding is the gateway's), compare them with the last
 * snapshot and publish what changed. It only reads at the broker.
 *
 * One run: take the lease (an overlapping run stops there) -> read both lists and the state (one item per order)
 * -> diff -> drop what is already published (markers) -> PutEvents -> markers for what EventBridge accepted -> write
 * the order items that changed, give the lease back. If any event was refused, nothing is written and the lease is
 * given back: the next run finds the same changes, skips the ones marked, and publishes the rest. Consumers get every
 * change at least once, each with a stable eventId. A cycle where nothing changed writes only its lease.
 *
 * A dead session is `Session Expired` once: the snapshot remembers it, until a read works again.
 */
import { randomUUID } from 'node:crypto';

import type { Logger } from '@aws-lambda-powertools/logger';
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

import type { EventPublisher } from '../../base/aws/publisher.js';
import { callBroker } from '../../base/broker/call-broker.js';
import { withOrderFates } from '../../base/broker/order-records.js';
import type { BrokerSession, SessionSource } from '../../base/broker/session.js';
import type { GatewayError } from '../../base/contract/errors.js';
import { toGatewayError } from '../../base/contract/errors.js';
import { writeLog } from '../../base/runtime/logger.js';
import type { LifecycleEvent } from '../../base/schemas/events.js';
import type { GttOrder } from '../../base/schemas/reply.js';
import { getOrderBook, getPendingGttOrders, getTriggeredGttOrders } from '../../orders/operations.js';
import type { EventsTable } from '../core/store.js';
import { eventIds, orderEventIds, scopeOf } from '../core/views.js';
import type { Lease, WatcherState } from '../core/watcher-items.js';
import type { WatcherConfig } from './config.js';
import { diffSnapshot, type HistoryOrder, settledEvents } from './diff.js';
import { type ListedOrder, PendingStream } from './pending-stream.js';

export interface WatcherDeps {
  config: WatcherConfig;
  table: EventsTable;
  publisher: EventPublisher;
  sessions: SessionSource;
  logger: Logger;
  metrics?: Metrics;
  /** How long a run may hold the lease (keep it above the function timeout). */
  leaseMs?: number;
  now?: () => Date;
}

export interface WatcherRun {
  /** `busy`: another run held the lease. `baseline`: the first run, which publishes nothing. */
  status: 'ok' | 'baseline' | 'busy' | 'session-dead' | 'lease-lost';
  published: { detailType: string; eventId: string }[];
  /** Changes seen but already published (by the gateway or an earlier run). */
  skipped: number;
  pending?: number;
  /** This run's DynamoDB work: calls, and the state items (and their bytes) it wrote, the lease not counted. */
  dynamo?: { calls: number; itemsWritten: number; bytesWritten: number; copiesWritten?: number };
}

/** Thrown when EventBridge refused some events: the snapshot did not move, the next run publishes them. */
export class PublishIncompleteError extends Error {
  override name = 'PublishIncomplete';
}

/** `HH:MM:SS DD-MM-YYYY` India time (the broker's clock) or ISO -> epoch ms. */
export const parseBrokerTime = (text: string): number | undefined => {
  const m = /^(\d{2}):(\d{2}):(\d{2}) (\d{2})-(\d{2})-(\d{4})$/.exec(text.trim());
  const ms = m ? Date.parse(`${m[6]}-${m[5]}-${m[4]}T${m[1]}:${m[2]}:${m[3]}+05:30`) : Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
};

export const runWatcher = async (deps: WatcherDeps): Promise<WatcherRun> => {
  const { config, table, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const owner = randomUUID();
  deps.metrics?.addMetric('WatcherRuns', MetricUnit.Count, 1);
  const lease = await table.acquireLease(owner, deps.leaseMs ?? 60_000, now().getTime());
  if (!lease) {
    writeLog(logger, 'info', 'watcher run skipped: another run holds the lease', {});
    return { status: 'busy', published: [], skipped: 0 };
  }
  try {
    let session: BrokerSession;
    let listedAt: number;
    let pending: ListedOrder[];
    const stream = new PendingStream();
    let history: HistoryOrder[];
    let state: WatcherState;
    let reads: number;
    try {
      // The secret is read once per run, here (a renewal since the last run is used at once), and every broker read
      // of the run uses it: a `Session Expired` is not retried with a re-read, since this one is as fresh as any.
      session = await deps.sessions.refresh();
      const brokerDeps = {
        baseUrl: config.brokerBaseUrl,
        auth: config.brokerAuth,
        timeoutMs: () => config.brokerTimeoutMs,
        session: () => Promise.resolve(session),
        refreshSession: () => Promise.resolve(session),
      };
      // The pending list is read record by record and compared with the state as it arrives (pending-stream.ts):
      // what did not change is neither decoded nor kept. The copy of the pending list (GetGTTOrder's answer) is as
      // old as the moment this read started.
      listedAt = now().getTime();
      const [, h, s] = await Promise.all([
        callBroker(getPendingGttOrders, {}, { ...brokerDeps, list: () => stream.decoder() }),
        callBroker(getTriggeredGttOrders, {}, brokerDeps),
        table.readState(lease, { views: false }).then((read) => {
          stream.attach(read.state.orders);
          return read;
        }),
      ]);
      pending = stream.orders();
      history = (h.result as { orders: HistoryOrder[] }).orders;
      ({ state, calls: reads } = s);
      // The views of the orders gone from the list (their end events describe them): the Query did not read them.
      const listed = new Set(pending.map((o) => o.al_id));
      const gone: string[] = [];
      for (const alId in state.orders) if (!listed.has(alId)) gone.push(alId);
      if (gone.length) reads += await table.loadViews(state, gone);
      if (history.length) {
        // What each fired GTT's order became (one more read, only on days something fired); a failed read leaves
        // the fates for the next run.
        const book = await callBroker(getOrderBook, {}, brokerDeps).then(
          (r) => r.result,
          () => undefined,
        );
        if (book !== undefined) history = withOrderFates({ orders: history }, book).orders as HistoryOrder[];
      }
    } catch (error) {
      const failure = toGatewayError(error);
      if (failure.code !== 'SESSION_EXPIRED') throw failure;
      return await sessionDead(deps, owner, lease, failure, now());
    }

    const observedAt = now().toISOString();
    const ids = orderEventIds(scopeOf(config.eventBusName, session));
    const base = {
      state,
      pending,
      recordHashOf: (order: GttOrder) => stream.hashOf(order),
      history,
      observedAt,
      removedAfterRuns: config.watcherRemovedAfterRuns,
      ids,
    };
    const candidates = diffSnapshot({ ...base, published: new Set() });
    const settled = settledEvents(history, ids, observedAt);
    const markerIds = [
      ...candidates.changes.map((c) => c.detail.eventId),
      ...settled.map((e) => e.detail.eventId),
      // Orders gone from the pending list may have been cancelled through the gateway.
      ...candidates.gone.map((alId) => ids.ended(alId)),
    ];
    const published = markerIds.length ? await table.publishedAmong(markerIds) : new Set<string>();
    // Nothing published yet (every quiet cycle): the candidates are the diff.
    const diff = published.size ? diffSnapshot({ ...base, published }) : candidates;
    const settledNow = settled.filter((e) => !published.has(e.detail.eventId));
    // The first run is a baseline: what had settled before is marked, not announced.
    if (!lease.initialized && settledNow.length) await table.markPublished(settledNow.map((e) => e.detail.eventId));
    const sent = await publishAndMark(deps, [...diff.toPublish, ...(lease.initialized ? settledNow : [])]);
    const commit = await table.commit(owner, lease, state, diff.next, listedAt);
    const dynamo = {
      calls:
        1 + reads + Math.ceil(markerIds.length / 100) + commit.calls + (sent.length ? Math.ceil(sent.length / 25) : 0),
      itemsWritten: commit.itemsWritten,
      bytesWritten: commit.bytesWritten,
      copiesWritten: commit.copiesWritten,
    };
    deps.metrics?.addMetric('WatcherItemsWritten', MetricUnit.Count, commit.itemsWritten);
    const skipped = diff.changes.length - diff.toPublish.length + (settled.length - settledNow.length);
    if (!commit.committed) {
      writeLog(
        logger,
        'warn',
        'watcher lost its lease before committing; the next run starts from what was written',
        {},
      );
      return { status: 'lease-lost', published: sent, skipped, pending: pending.length, dynamo };
    }
    recordLag(deps, diff.toPublish, now().getTime());
    const status = lease.initialized ? 'ok' : 'baseline';
    writeLog(logger, 'info', 'watcher run', {
      status,
      published: sent.length,
      pending: pending.length,
      itemsWritten: commit.itemsWritten,
    });
    return { status, published: sent, skipped, pending: pending.length, dynamo };
  } catch (error) {
    await table.release(owner).catch(() => undefined);
    throw error;
  }
};

const publishAndMark = async (deps: WatcherDeps, events: LifecycleEvent[]) => {
  if (!events.length) return [];
  const result = await deps.publisher.publish(events);
  // Mark what was accepted before anything else can fail, so a retry does not publish it again (and keep it in the
  // account's history, GET /events).
  const accepted = new Set(result.published);
  if (accepted.size) await deps.table.markPublished(events.filter((e) => accepted.has(e.detail.eventId)));
  deps.metrics?.addMetric('EventsPublished', MetricUnit.Count, result.published.length);
  const sent = events
    .filter((e) => accepted.has(e.detail.eventId))
    .map((e) => ({ detailType: e.detailType, eventId: e.detail.eventId }));
  for (const e of sent) writeLog(deps.logger, 'info', 'event published', e);
  if (result.failed.length) {
    deps.metrics?.addMetric('EventPublishFailures', MetricUnit.Count, result.failed.length);
    throw new PublishIncompleteError(
      `${result.failed.length} of ${events.length} events were not published (${result.failed[0]!.reason}); the snapshot was kept, the next run publishes them`,
    );
  }
  return sent;
};

const recordLag = (deps: WatcherDeps, events: LifecycleEvent[], nowMs: number) => {
  for (const event of events) {
    if (event.detailType !== 'GTT Triggered') continue;
    const at =
      'triggeredAt' in event.detail && event.detail.triggeredAt ? parseBrokerTime(event.detail.triggeredAt) : undefined;
    if (at !== undefined) deps.metrics?.addMetric('WatcherLag', MetricUnit.Seconds, Math.max(0, (nowMs - at) / 1000));
  }
};

const sessionDead = async (
  deps: WatcherDeps,
  owner: string,
  lease: Lease,
  failure: GatewayError,
  at: Date,
): Promise<WatcherRun> => {
  let sent: WatcherRun['published'] = [];
  const version = lease.version;
  if (lease.session !== 'dead') {
    const event: LifecycleEvent<'Session Expired'> = {
      detailType: 'Session Expired',
      detail: {
        eventId: eventIds.sessionExpired(deps.config.eventBusName, String(version)),
        observedAt: at.toISOString(),
        origin: 'watcher',
        code: failure.code,
        reason: failure.message.slice(0, 500),
      },
    };
    const published = await deps.table.publishedAmong([event.detail.eventId]);
    sent = published.size ? [] : await publishAndMark(deps, [event]);
  }
  // Only the account-wide fields change: no order item is written.
  const same: WatcherState = { initialized: lease.initialized, session: lease.session, orders: {}, ended: [] };
  if (!(await deps.table.commit(owner, lease, same, { ...same, session: 'dead' })).committed) {
    return { status: 'lease-lost', published: sent, skipped: 0 };
  }
  writeLog(deps.logger, 'warn', 'watcher: the broker session is dead', { code: failure.code, published: sent.length });
  return { status: 'session-dead', published: sent, skipped: 0 };
};
