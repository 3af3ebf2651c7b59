/**
 * The one-order read decodes only the asked order's records of the pending list (functions/base/broker/one-record.ts)
 * and answers exactly what decoding the whole list answers: the same order, the same ORDER_NOT_FOUND, the same
 * BROKER_BAD_REPLY for a bad record of that order or one without a usable al_id, in every dialect of the list and
 * whatever chunks the reply arrives in. What differs on purpose: a bad record of another order no longer fails it.
 */
import { describe, expect, it } from 'vitest';

import { toCanonicalDialect } from '../../functions/base/broker/dialects.js';
import { JsonArraySplitter } from '../../functions/base/broker/json-records.js';
import { rawIdOf } from '../../functions/base/broker/page-records.js';
import { decodeBrokerReply, listDecoder, recordSchema } from '../../functions/base/broker/reply.js';
import { toGatewayError } from '../../functions/base/contract/errors.js';
import { getGttOrder } from '../../functions/orders/operations.js';
import { pendingRecord } from '../support/pending-record.js';

const record = pendingRecord;

/** The whole list decoded, as before one-record.ts: the same operation without `oneRecord`. */
const wholeListRead = { ...getGttOrder, oneRecord: undefined };

/** What a read of `alId` answers: its result, or its error's code, message and details. */
const read = (operation: typeof getGttOrder, body: string, alId: string, step: number): unknown => {
  const input = { al_id: alId };
  const decoder = listDecoder(operation, input)!;
  const bytes = Buffer.from(body, 'utf8');
  const splitter = new JsonArraySplitter(decoder.onRecord, 64 * 1024);
  for (let at = 0; at < bytes.length; at += step) splitter.write(bytes.subarray(at, at + step));
  splitter.end();
  const reply = { status: 200, contentType: 'application/json', text: '', records: splitter.elements };
  try {
    return { result: decodeBrokerReply(operation, reply, input, decoder) };
  } catch (thrown) {
    const error = toGatewayError(thrown);
    return { code: error.code, message: error.message, details: error.details };
  }
};

const ids = Array.from({ length: 12 }, (_, i) => String(26070100000 + i));
const canonical = ids.map((id, i) => record(id, { qty: i + 1 }));
const in2021 = (r: ReturnType<typeof record>, asNumber: boolean) => {
  const { al_id, token, remarks, qty, prc, ...rest } = r;
  return { ...rest, Al_id: asNumber ? Number(al_id) : al_id, Token: token, Remarks: remarks, Qty: qty, Prc: prc };
};

const LISTS: Record<string, unknown[]> = {
  noren: canonical,
  '2021 (Al_id a number)': canonical.map((r) => in2021(r, true)),
  '2021 (Al_id a string)': canonical.map((r) => in2021(r, false)),
  'al_id a number': canonical.map((r) => ({ ...r, al_id: Number(r.al_id) })),
  // The canonical key wins over its variant, whichever comes first.
  'both spellings': canonical.map((r, i) => ({ Al_id: ids[(i + 1) % ids.length], ...r })),
  'a duplicate al_id': [...canonical, record(ids[3]!, { qty: 99 })],
  'the asked order malformed': canonical.map((r, i) => (i === 3 ? { ...r, qty: 'lots' } : r)),
  'an order malformed twice': [...canonical, record(ids[3]!, { qty: 'lots' })],
  'a record without al_id': [...canonical.slice(0, 5), { ...canonical[5], al_id: undefined }, ...canonical.slice(6)],
  'an al_id not whole': [...canonical, record('0', { al_id: 1.5 })],
  'an al_id not digits': [...canonical, record(' 26070100003')],
  empty: [],
};

/** A record with a usable al_id other than `alId` that the record schema refuses. */
const refusedOther = (r: unknown, alId: string): boolean => {
  const id = rawIdOf(r);
  return id !== undefined && id !== alId && !recordSchema(getGttOrder).safeParse(toCanonicalDialect(r)).success;
};

describe('the one-order read of the pending list', () => {
  for (const [dialect, list] of Object.entries(LISTS)) {
    it(`answers what the whole list's decoding answers: ${dialect}`, () => {
      const body = JSON.stringify(list);
      for (const alId of [ids[0]!, ids[3]!, ids[11]!, '26070199999']) {
        // A record of another order that the whole list's decoding refuses is not read: the reference is the
        // whole list without it.
        const others = JSON.stringify(list.filter((r) => !refusedOther(r, alId)));
        for (const step of [1, 3, 17, 600, body.length + 1]) {
          const expected = read(wholeListRead, others, alId, step);
          expect(read(getGttOrder, body, alId, step)).toEqual(expected);
        }
      }
    });
  }

  it('finds the order, says ORDER_NOT_FOUND and BROKER_BAD_REPLY as before', () => {
    const body = (list: unknown[]) => JSON.stringify(list);
    expect(read(getGttOrder, body(LISTS['2021 (Al_id a number)']!), ids[3]!, 7)).toMatchObject({
      result: { al_id: ids[3], qty: 4, source: 'broker' },
    });
    expect(read(getGttOrder, body(canonical), '26070199999', 7)).toMatchObject({ code: 'ORDER_NOT_FOUND' });
    expect(read(getGttOrder, body(LISTS['the asked order malformed']!), ids[3]!, 7)).toMatchObject({
      code: 'BROKER_BAD_REPLY',
      details: { issues: [{ path: '3.qty' }] },
    });
    expect(read(getGttOrder, body(LISTS['a record without al_id']!), ids[0]!, 7)).toMatchObject({
      code: 'BROKER_BAD_REPLY',
    });
  });

  it('no longer fails on a bad record of another order (it is not decoded)', () => {
    const body = JSON.stringify(LISTS['the asked order malformed']);
    expect(read(wholeListRead, body, ids[0]!, 50)).toMatchObject({ code: 'BROKER_BAD_REPLY' });
    expect(read(getGttOrder, body, ids[0]!, 50)).toMatchObject({ result: { al_id: ids[0] } });
  });
});
