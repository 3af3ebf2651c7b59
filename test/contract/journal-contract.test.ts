/**
 * The contract of the journal of broker writes (`OrderJournal`, functions/orders/journal.ts; docs/explanation/order-safety.md,
 * "The journal of broker writes"), one suite run against the DynamoDB journal on dynalite and against the memory
 * double the order core's unit tests use (test/support/memory-journal.ts): what the order core relies on. A key's
 * write is sent once; its replay answers the same; a key in flight, or whose outcome is unknown, is never sent again
 * blindly: the broker's books settle it, and only once it can no longer land is it sent again, by one request. A fake
 * clock drives every time the journal decides by (deadlines, the late window, the keys' time to live).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BrokerRejectedError, BrokerTimeoutError, TradingHaltedError } from '../../functions/base/contract/errors.js';
import type { LifecycleEvent } from '../../functions/base/schemas/events.js';
import { recordGone } from '../../functions/orders/gone.js';
import type { Executed, JournaledWrite, OrderJournal } from '../../functions/orders/journal.js';
import { DynamoOrderJournal } from '../../functions/orders/journal-dynamo.js';
import { type LocalDynamo, startLocalDynamo } from '../../local/dynamodb.js';
import { MemoryJournalTable, MemoryOrderJournal } from '../support/memory-journal.js';
import { SAMPLE_SINGLE_DETAIL } from '../support/sample-events.js';

const LATE_WINDOW_MS = 15_000;
const TTL_SECONDS = 3_600;

/** What a case needs of an implementation: journals of several operations on one table, and the table's other writers. */
interface JournalWorld {
  journal(operation?: string): OrderJournal;
  /** The kill switch's sweep records that it cancelled the stamped order `alId` (functions/orders/gone.ts). */
  recordGone(stamp: string, alId: string): Promise<void>;
  /** A journal whose table cannot be reached. */
  unreachable(): OrderJournal;
}
type MakeWorld = (now: () => number) => JournalWorld;

/** Keys and stamps no other case uses (the DynamoDB cases share one table). */
let unique = 0;
const fresh = (what: string) => `${what}-${++unique}`;

const placed = { detailType: 'GTT Placed', detail: SAMPLE_SINGLE_DETAIL } as LifecycleEvent;

/** A resolvable promise: a send held at the broker until the case lets it answer. */
const deferred = <T>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

const describeJournalContract = (name: string, make: MakeWorld) =>
  describe(`OrderJournal contract: ${name}`, () => {
    let time = 0;
    const clock = {
      now: () => time,
      advance: (ms: number) => (time += ms),
    };
    const world = () => {
      time = 1_800_000_000_000 + unique * 1_000_000;
      return make(clock.now);
    };
    /** One write: counts its sends and reads of the books; `send` and `adopt` answer as the case says. */
    const write = (
      options: {
        stamp?: string | undefined;
        deadlineMs?: number;
        send?: () => Promise<Executed<{ al_id: string }>>;
        adopt?: () => Promise<Executed<{ al_id: string }> | undefined>;
      } = {},
    ) => {
      const calls = { sends: 0, adopts: 0 };
      const stamp = 'stamp' in options ? options.stamp : fresh('gw.stamp');
      const w: JournaledWrite<{ al_id: string }> = {
        stamp,
        deadline: clock.now() + (options.deadlineMs ?? 5_000),
        send: () => {
          calls.sends++;
          return options.send ? options.send() : Promise.resolve({ result: { al_id: 'A1' }, events: [placed] });
        },
        adopt: () => {
          calls.adopts++;
          return options.adopt ? options.adopt() : Promise.resolve(undefined);
        },
      };
      return { ...w, calls };
    };
    const unknown = () => Promise.reject(new BrokerTimeoutError('no reply in time', { outcome: 'unknown' }));
    const body = { qty: 1, price: '1500' };

    it('sends a key once: the same key and body again replays the result, without its events, and sends nothing', async () => {
      const journal = world().journal();
      const key = fresh('key');
      const first = write();
      await expect(journal.run(key, body, first)).resolves.toEqual({
        result: { al_id: 'A1' },
        replayed: false,
        events: [placed],
      });
      const again = write();
      await expect(journal.run(key, body, again)).resolves.toEqual({
        result: { al_id: 'A1' },
        replayed: true,
        events: [],
      });
      expect([first.calls.sends, again.calls.sends, again.calls.adopts]).toEqual([1, 0, 0]);
    });

    it('the same body in another key order or number form is the same request; another body is IDEMPOTENCY_KEY_REUSED', async () => {
      const journal = world().journal();
      const key = fresh('key');
      await journal.run(key, { qty: 1, price: '1500' }, write());
      await expect(journal.run(key, { price: '1500.0', qty: 1 }, write())).resolves.toMatchObject({ replayed: true });
      const other = write();
      await expect(journal.run(key, { qty: 2, price: '1500' }, other)).rejects.toMatchObject({
        code: 'IDEMPOTENCY_KEY_REUSED',
        outcome: 'not_executed',
      });
      expect(other.calls.sends).toBe(0);
    });

    it("a key is its operation's: the same key on another operation's journal is another write", async () => {
      const w = world();
      const key = fresh('key');
      await w.journal('PlaceGTTOrder').run(key, body, write());
      const cancel = write({ send: () => Promise.resolve({ result: { al_id: 'C1' } }) });
      await expect(w.journal('CancelGTTOrder').run(key, { al_id: 'A1' }, cancel)).resolves.toMatchObject({
        result: { al_id: 'C1' },
        replayed: false,
      });
      expect(cancel.calls.sends).toBe(1);
    });

    it('a key in flight is IDEMPOTENCY_IN_PROGRESS until its deadline, nothing sent twice; then its result replays', async () => {
      const journal = world().journal();
      const key = fresh('key');
      const reply = deferred<Executed<{ al_id: string }>>();
      const started = deferred<void>();
      const first = write({
        deadlineMs: 5_000,
        send: () => {
          started.resolve();
          return reply.promise;
        },
      });
      const running = journal.run(key, body, first);
      await started.promise;
      const twin = write();
      await expect(journal.run(key, body, twin)).rejects.toMatchObject({
        code: 'IDEMPOTENCY_IN_PROGRESS',
        outcome: 'not_executed',
        details: { retryAfterSeconds: 5 },
      });
      reply.resolve({ result: { al_id: 'A7' } });
      await expect(running).resolves.toMatchObject({ result: { al_id: 'A7' }, replayed: false });
      await expect(journal.run(key, body, twin)).resolves.toMatchObject({ result: { al_id: 'A7' }, replayed: true });
      expect(twin.calls.sends + twin.calls.adopts).toBe(0);
    });

    it('a send certainly not executed frees the key: the next run sends', async () => {
      const journal = world().journal();
      const key = fresh('key');
      const refused = write({
        send: () => Promise.reject(new BrokerRejectedError('bad price', { outcome: 'not_executed' })),
      });
      await expect(journal.run(key, body, refused)).rejects.toMatchObject({
        code: 'BROKER_REJECTED',
        outcome: 'not_executed',
      });
      const retry = write();
      await expect(journal.run(key, body, retry)).resolves.toMatchObject({ replayed: false });
      expect(retry.calls.sends).toBe(1);
    });

    it('an unknown outcome is settled by the books: not there while it may land, the retry is told so; found, adopted once', async () => {
      const journal = world().journal();
      const key = fresh('key');
      await expect(journal.run(key, body, write({ send: unknown }))).rejects.toMatchObject({
        code: 'BROKER_TIMEOUT',
        outcome: 'unknown',
      });
      clock.advance(1_000);
      const early = write();
      const refusal = await journal.run(key, body, early).catch((error: unknown) => error);
      expect(refusal).toMatchObject({ code: 'BROKER_TIMEOUT', outcome: 'unknown' });
      expect((refusal as Error).message).toMatch(/may still arrive until/);
      expect(early.calls).toEqual({ sends: 0, adopts: 1 });
      const found = write({ adopt: () => Promise.resolve({ result: { al_id: 'B9' }, events: [placed] }) });
      await expect(journal.run(key, body, found)).resolves.toEqual({
        result: { al_id: 'B9' },
        replayed: true,
        adopted: true,
        events: [placed],
      });
      expect(found.calls).toEqual({ sends: 0, adopts: 1 });
      const later = write();
      await expect(journal.run(key, body, later)).resolves.toEqual({
        result: { al_id: 'B9' },
        replayed: true,
        events: [],
      });
      expect(later.calls).toEqual({ sends: 0, adopts: 0 });
    });

    it('an unknown outcome not in the books once it can no longer land is sent once more, then replays', async () => {
      const journal = world().journal();
      const key = fresh('key');
      await journal.run(key, body, write({ send: unknown })).catch(() => undefined);
      // The late window runs from when the send ended (now), not from its deadline.
      clock.advance(LATE_WINDOW_MS - 1);
      await expect(journal.run(key, body, write())).rejects.toMatchObject({ outcome: 'unknown' });
      clock.advance(1);
      const retry = write({ send: () => Promise.resolve({ result: { al_id: 'A2' } }) });
      await expect(journal.run(key, body, retry)).resolves.toMatchObject({ result: { al_id: 'A2' }, replayed: false });
      expect(retry.calls).toEqual({ sends: 1, adopts: 1 });
      await expect(journal.run(key, body, write())).resolves.toMatchObject({ result: { al_id: 'A2' }, replayed: true });
    });

    it('a sender gone mid-write: 409 while it may land; then one of two retries takes it over, and the late first reply changes nothing', async () => {
      const journal = world().journal();
      const key = fresh('key');
      const stamp = fresh('gw.stamp');
      const reply = deferred<Executed<{ al_id: string }>>();
      const started = deferred<void>();
      const first = write({
        stamp,
        deadlineMs: 2_000,
        send: () => {
          started.resolve();
          return reply.promise;
        },
      });
      const lost = journal.run(key, body, first);
      await started.promise;
      clock.advance(2_001);
      const early = write({ stamp });
      await expect(journal.run(key, body, early)).rejects.toMatchObject({
        code: 'IDEMPOTENCY_IN_PROGRESS',
        outcome: 'not_executed',
        details: { retryAfterSeconds: LATE_WINDOW_MS / 1_000 },
      });
      expect(early.calls).toEqual({ sends: 0, adopts: 1 });
      clock.advance(LATE_WINDOW_MS);
      // Two retries at once: the one that takes the write over holds its send until the other has its answer.
      const held = deferred<Executed<{ al_id: string }>>();
      const sending = deferred<void>();
      const retries = [1, 2].map(() =>
        write({
          stamp,
          send: () => {
            sending.resolve();
            return held.promise;
          },
        }),
      );
      const runs = retries.map((r) => journal.run(key, body, r).catch((error: unknown) => error));
      await expect(Promise.race(runs)).resolves.toMatchObject({
        code: 'IDEMPOTENCY_IN_PROGRESS',
        outcome: 'not_executed',
      });
      await sending.promise;
      held.resolve({ result: { al_id: 'A3' } });
      const answers = await Promise.all(runs);
      expect(retries.map((r) => r.calls.sends).sort()).toEqual([0, 1]);
      expect(answers.filter((a) => (a as { result?: unknown }).result !== undefined)).toEqual([
        { result: { al_id: 'A3' }, replayed: false, events: [] },
      ]);
      reply.resolve({ result: { al_id: 'LATE' } });
      await lost;
      await expect(journal.run(key, body, write({ stamp }))).resolves.toMatchObject({
        result: { al_id: 'A3' },
        replayed: true,
      });
    });

    it('a write without a stamp whose outcome is unknown is only reported, never looked for nor sent again', async () => {
      const journal = world().journal();
      const key = fresh('key');
      await journal.run(key, body, write({ stamp: undefined, send: unknown })).catch(() => undefined);
      clock.advance(LATE_WINDOW_MS + 60_000);
      const retry = write({ stamp: undefined });
      const refusal = await journal.run(key, body, retry).catch((error: unknown) => error);
      expect(refusal).toMatchObject({ code: 'BROKER_TIMEOUT', outcome: 'unknown' });
      expect((refusal as Error).message).toMatch(/no stamp/);
      expect(retry.calls).toEqual({ sends: 0, adopts: 0 });
    });

    it('a write undone after it landed (the kill switch) replays its refusal; the undo is told the events were carried', async () => {
      const journal = world().journal();
      const key = fresh('key');
      const carried: boolean[] = [];
      const halted = new TradingHaltedError('the kill switch went on: cancelled', { outcome: 'undone' });
      const landed = write({
        send: () =>
          Promise.resolve({
            result: { al_id: 'A4' },
            events: [placed],
            landed: Promise.resolve((events: boolean) => {
              carried.push(events);
              return Promise.reject(halted);
            }),
          }),
      });
      await expect(journal.run(key, body, landed)).rejects.toMatchObject({ code: 'TRADING_HALTED', outcome: 'undone' });
      expect(carried).toEqual([true]);
      const retry = write();
      const replay = await journal.run(key, body, retry).catch((error: unknown) => error);
      expect(replay).toMatchObject({ code: 'TRADING_HALTED', outcome: 'undone' });
      expect((replay as Error).message).toMatch(/^Replay of idempotency key/);
      expect(retry.calls).toEqual({ sends: 0, adopts: 0 });
    });

    it('a key past its time to live is free again: another body is a new write', async () => {
      const journal = world().journal();
      const key = fresh('key');
      await journal.run(key, body, write());
      clock.advance(TTL_SECONDS * 1_000 + 1_000);
      const next = write({ send: () => Promise.resolve({ result: { al_id: 'A5' } }) });
      await expect(journal.run(key, { qty: 5 }, next)).resolves.toMatchObject({
        result: { al_id: 'A5' },
        replayed: false,
      });
    });

    it("keeps the records of stamps beside the keys, shared by every operation's journal", async () => {
      const w = world();
      const [place, modify] = [w.journal('PlaceGTTOrder'), w.journal('ModifyGTTOrder')];
      const [moved, bare, swept, by1, by2] = ['moved', 'bare', 'swept', 'by', 'by'].map(fresh);
      await modify.recordMove(moved!, 'A6', by1);
      await modify.recordMove(moved!, 'A6', by2);
      await modify.recordMove(bare!, 'A7', undefined);
      const move = await place.findMove(moved!);
      expect({ ...move, seenBy: [...(move?.seenBy ?? [])].sort() }).toEqual({ alId: 'A6', seenBy: [by1, by2].sort() });
      expect(await place.findMove(bare!)).toEqual({ alId: 'A7', seenBy: [] });
      expect(await place.findMove(fresh('never'))).toBeUndefined();
      expect(await place.findSeen(by1!)).toBe(moved);
      expect(await place.findSeen(fresh('never'))).toBeUndefined();
      expect(await place.goneOrder(swept!)).toBeUndefined();
      await w.recordGone(swept!, 'A8');
      expect(await place.goneOrder(swept!)).toBe('A8');
    });

    it('an unreachable table refuses before anything is sent: INTERNAL_ERROR, not executed', async () => {
      const journal = world().unreachable();
      const w = write();
      await expect(journal.run(fresh('key'), body, w)).rejects.toMatchObject({
        code: 'INTERNAL_ERROR',
        outcome: 'not_executed',
      });
      await expect(journal.findMove(fresh('stamp'))).rejects.toMatchObject({ outcome: 'not_executed' });
      expect(w.calls).toEqual({ sends: 0, adopts: 0 });
    });
  });

describe('on DynamoDB (dynalite)', () => {
  let dynamo: LocalDynamo;
  beforeAll(async () => {
    dynamo = await startLocalDynamo();
  });
  afterAll(() => dynamo?.close());
  const journalOn =
    (tableName: () => string, now: () => number) =>
    (operation = 'PlaceGTTOrder') =>
      new DynamoOrderJournal(operation, {
        tableName: tableName(),
        endpoint: dynamo.url,
        ttlSeconds: TTL_SECONDS,
        lateWindowMs: LATE_WINDOW_MS,
        now,
      });
  describeJournalContract('DynamoOrderJournal', (now) => ({
    journal: journalOn(() => dynamo.tableName, now),
    recordGone: (stamp, alId) =>
      recordGone({ tableName: dynamo.tableName, endpoint: dynamo.url, ttlSeconds: TTL_SECONDS }, stamp, alId),
    unreachable: () => journalOn(() => 'no-such-table', now)(),
  }));
});

describeJournalContract('MemoryOrderJournal', (now) => {
  const table = new MemoryJournalTable();
  const options = { lateWindowMs: LATE_WINDOW_MS, ttlSeconds: TTL_SECONDS, now, table };
  return {
    journal: (operation = 'PlaceGTTOrder') => new MemoryOrderJournal(operation, options),
    recordGone: (stamp, alId) => Promise.resolve(table.recordGone(stamp, alId)),
    unreachable: () => {
      const down = new MemoryJournalTable();
      down.unavailable = true;
      return new MemoryOrderJournal('PlaceGTTOrder', { ...options, table: down });
    },
  };
});
