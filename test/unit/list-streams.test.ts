/**
 * Lists read as they arrive, without a network: a page of the pending list keeps and decodes only its own records
 * (functions/base/broker/page-records.ts) and answers what the whole list's decoding answers, cut anywhere, in every
 * dialect, while orders come and go between pages; the GttWatcher's read (functions/events/watcher/pending-stream.ts)
 * decodes only what changed since its snapshot.
 */
import { describe, expect, it } from 'vitest';

import { JsonArraySplitter } from '../../functions/base/broker/json-records.js';
import { decodeBrokerReply, listDecoder } from '../../functions/base/broker/reply.js';
import { listOrdersInput } from '../../functions/base/schemas/input.js';
import { compareIds } from '../../functions/base/schemas/paging.js';
import type { KnownOrder } from '../../functions/events/core/watcher-items.js';
import { PendingStream, recordHashOfText } from '../../functions/events/watcher/pending-stream.js';
import { getPendingGttOrders } from '../../functions/orders/operations.js';
import { pendingRecord } from '../support/pending-record.js';

const record = pendingRecord;

/** The body cut into chunks of `step` bytes, read by the transport's splitter into `decoder`. */
const feed = (body: string, onRecord: (r: unknown, i: number, text: string) => void, step: number, parse = true) => {
  const bytes = Buffer.from(body, 'utf8');
  const splitter = new JsonArraySplitter(onRecord, 64 * 1024, 0, parse);
  for (let at = 0; at < bytes.length; at += step) splitter.write(bytes.subarray(at, at + step));
  splitter.end();
  return splitter.elements;
};

type Page = { orders: { al_id: string; qty?: unknown }[]; nextCursor?: string };

/** One page as the gateway reads it: streamed (only the page decoded), or the whole list decoded then cut. */
const readPage = (records: unknown[], query: Record<string, unknown>, step: number, whole = false): Page => {
  const input = listOrdersInput.parse(query);
  const decoder = listDecoder(getPendingGttOrders, whole ? { ...input, limit: undefined } : input)!;
  const count = feed(JSON.stringify(records), decoder.onRecord, step);
  const reply = { status: 200, contentType: 'application/json', text: '', records: count };
  if (!whole) return decodeBrokerReply(getPendingGttOrders, reply, input, decoder) as Page;
  // The reference: every record decoded, then the operation's own page of them.
  return getPendingGttOrders.toResult(decoder.records as never, input) as Page;
};

/** The page the whole list gives: the body in one chunk, every record decoded, then the operation's own page. */
const reference = (records: unknown[], query: Record<string, unknown>): Page =>
  readPage(records, query, Number.MAX_SAFE_INTEGER, true);

describe('a page of the pending list read as it arrives', () => {
  const list = Array.from({ length: 40 }, (_, i) => record(String(26070100000 + ((i * 17) % 40)), { qty: i + 1 }));

  it('is the page the whole list gives, whatever the chunks, limit, cursor and filters', () => {
    for (const step of [1, 7, 64, 100_000]) {
      for (const limit of [1, 3, 40, 100]) {
        let cursor: string | undefined;
        do {
          const query = { limit: String(limit), ...(cursor ? { cursor } : {}) };
          const streamed = readPage(list, query, step);
          // The reference reads the body in one chunk: the chunks are what is under test, not the reference.
          expect(streamed).toEqual(reference(list, query));
          cursor = streamed.nextCursor;
        } while (cursor);
      }
    }
    const mixed = list.map((r, i) => (i % 3 ? r : { ...r, tsym: 'WIPRO-EQ', exch: 'BSE' }));
    const query = { limit: '5', tsym: 'WIPRO-EQ', exch: 'BSE' };
    expect(readPage(mixed, query, 13)).toEqual(readPage(mixed, query, 13, true));
    expect(readPage(mixed, query, 13).orders).toHaveLength(5);
  });

  it('reads the 2021 dialect (Al_id as a number, capitalised keys) as the whole list does', () => {
    const dialect = list.map(({ al_id, remarks, qty, ...rest }) => ({
      ...rest,
      Al_id: Number(al_id),
      Remarks: remarks,
      Qty: qty,
    }));
    const first = readPage(dialect, { limit: '7' }, 5);
    expect(first).toEqual(readPage(dialect, { limit: '7' }, 5, true));
    expect(first.orders.map((o) => o.al_id)).toEqual(
      dialect
        .map((r) => String(r.Al_id))
        .sort(compareIds)
        .slice(0, 7),
    );
  });

  it('covers every order that stays pending exactly once while others are placed and cancelled between pages', () => {
    let broker = [...list];
    const listed: string[] = [];
    let cursor: string | undefined;
    let next = 26070100100;
    const cancelled = new Set<string>();
    for (let page = 0; page < 100; page++) {
      const got = readPage(broker, { limit: '6', ...(cursor ? { cursor } : {}) }, 11);
      listed.push(...got.orders.map((o) => o.al_id));
      cursor = got.nextCursor;
      if (!cursor) break;
      // Between pages: one order placed (its id grows), one not yet listed cancelled, one already listed cancelled.
      broker.push(record(String(next++)));
      const ahead = broker.find((r) => compareIds(r.al_id, listed.at(-1)!) > 0 && !cancelled.has(r.al_id));
      const behind = broker.find((r) => listed.includes(r.al_id));
      for (const gone of [ahead, behind]) if (gone) cancelled.add(gone.al_id);
      broker = broker.filter((r) => !cancelled.has(r.al_id));
    }
    expect(cursor).toBeUndefined();
    expect(new Set(listed).size).toBe(listed.length);
    // Every order pending from the first page to the last is listed; no cancelled one after its cancel.
    for (const r of broker) expect(listed).toContain(r.al_id);
    const stayed = list.filter((r) => !cancelled.has(r.al_id)).map((r) => r.al_id);
    for (const id of stayed) expect(listed).toContain(id);
  });

  it('fails a page with BROKER_BAD_REPLY on a bad record of that page, and every page on a record without al_id', () => {
    const bad = [...list, record('26070100001', { qty: 'lots' })];
    expect(() => readPage(bad, { limit: '100' }, 50)).toThrow(expect.objectContaining({ code: 'BROKER_BAD_REPLY' }));
    const { al_id: _none, ...noId } = record('x');
    expect(() => readPage([...list, noId], { limit: '1' }, 50)).toThrow(
      expect.objectContaining({ code: 'BROKER_BAD_REPLY' }),
    );
  });
});

describe("the watcher's read of the pending list", () => {
  const texts = (records: unknown[]) => records.map((r) => JSON.stringify(r));

  const run = (records: unknown[] | string, snapshot: Record<string, KnownOrder>, attachFirst: boolean) => {
    const stream = new PendingStream();
    const decoder = stream.decoder();
    if (attachFirst) stream.attach(snapshot);
    // As the transport hands them to this decoder: texts only.
    expect(decoder.unparsed).toBe(true);
    feed(typeof records === 'string' ? records : JSON.stringify(records), decoder.onRecord, 9, false);
    decoder.finish!();
    if (!attachFirst) stream.attach(snapshot);
    return stream;
  };

  it('decodes only what changed since the snapshot, before or after the snapshot arrives', () => {
    const records = [record('1'), record('2'), record('3')];
    const known = (text: string): KnownOrder => ({ view: {} as never, hash: 'h', recordHash: recordHashOfText(text) });
    // Order 2's copy holds another text; order 3 is new. An unchanged text is not checked again, so a snapshot
    // that holds this (schema-failing) text for order 1 proves it is not decoded.
    const two = texts(records)[1];
    const odd = { ...record('1'), qty: 'not a number' };
    const snapshot = { '1': known(JSON.stringify(odd)), '2': known(`${two!} `) };
    for (const attachFirst of [true, false]) {
      const stream = run([odd, records[1], records[2]], snapshot, attachFirst);
      const orders = stream.orders();
      expect(orders.map((o) => ('unchanged' in o ? `=${o.al_id}` : o.al_id))).toEqual(['=1', '2', '3']);
      const read = orders.filter((o) => !('unchanged' in o));
      expect(read.map((o) => stream.hashOf(o as never))).toEqual(texts([records[1], records[2]]).map(recordHashOfText));
    }
  });

  it('fails with BROKER_BAD_REPLY on a changed record that does not have the documented shape, or is not JSON', () => {
    const stream = run([record('1'), { ...record('2'), qty: 'lots' }], {}, false);
    expect(() => stream.orders()).toThrow(expect.objectContaining({ code: 'BROKER_BAD_REPLY' }));
    for (const attachFirst of [true, false]) {
      const notJson = run(`[${JSON.stringify(record('1'))}, {"al_id": "2", "qty": 01}]`, {}, attachFirst);
      expect(() => notJson.orders()).toThrow(
        expect.objectContaining({
          code: 'BROKER_BAD_REPLY',
          details: expect.objectContaining({ issues: [{ path: '1', message: 'not JSON' }] }),
        }),
      );
    }
  });

  it('hands each record on with its text as it came (a scalar with the spaces before its separator)', () => {
    const body = ' [ {"a" : "x]\\"}"} ,\n[1, 2], "s" ] ';
    const seen: string[] = [];
    feed(body, (_r, _i, text) => seen.push(text), 1);
    expect(seen).toEqual(['{"a" : "x]\\"}"}', '[1, 2]', '"s" ']);
  });
});
