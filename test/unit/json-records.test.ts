/**
 * The list reader (functions/base/broker/json-records.ts): whatever the chunking, the elements it hands on are exactly
 * what `JSON.parse` of the whole body gives, multi-byte characters and escapes split between chunks included; a body
 * that is not a well-formed array is refused, and a record past the bound too.
 */
import { describe, expect, it } from 'vitest';

import { JsonArraySplitter, NotAJsonArray, RecordTooLarge } from '../../functions/base/broker/json-records.js';

/** Feeds `text` in chunks cut at `cuts` (byte offsets) and returns the elements read. */
const split = (text: string, cuts: number[] = [], maxRecordBytes = 64 * 1024, wholeBelow = 0): unknown[] => {
  const bytes = Buffer.from(text, 'utf8');
  const out: unknown[] = [];
  const splitter = new JsonArraySplitter(
    (element, index) => {
      expect(index).toBe(out.length);
      out.push(element);
    },
    maxRecordBytes,
    wholeBelow,
  );
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    splitter.write(bytes.subarray(at, cut));
    at = cut;
  }
  splitter.end();
  expect(splitter.elements).toBe(out.length);
  return out;
};

/** Every way of cutting `text` into two chunks, and into one-byte chunks. */
const everyCut = (text: string) => {
  const length = Buffer.byteLength(text);
  const expected = JSON.parse(text) as unknown;
  for (let cut = 0; cut <= length; cut++) expect(split(text, [cut])).toEqual(expected);
  expect(
    split(
      text,
      Array.from({ length }, (_, i) => i),
    ),
  ).toEqual(expected);
};

const RECORD = {
  stat: 'Ok',
  al_id: '26112700000001',
  tsym: 'M&M-EQ',
  remarks: 'quote " backslash \\ brace } bracket ] comma , ₹ 日本 😀',
  oivariable: [{ var_name: 'x', d: '1490' }],
  place_order_params: { qty: 5, prc: '1500.50' },
};

describe('the list reader', () => {
  it('reads records, nested arrays, scalars and the empty list as JSON.parse does, cut anywhere', () => {
    everyCut(JSON.stringify([RECORD, { ...RECORD, al_id: '26112700000002' }]));
    everyCut(' [ [1, [2]], "a,]}", 3.5e2, true, null, {"a":{}} ] \n');
    everyCut('[]');
    everyCut('  [ ]  ');
    everyCut('["\\\\", "\\"", "\\u00e9"]');
  });

  it('reads a long list without ever holding more than one record', () => {
    const records = Array.from({ length: 5_000 }, (_, i) => ({ ...RECORD, al_id: String(26112700000000 + i) }));
    const text = JSON.stringify(records);
    // 4 KB chunks, as a socket hands them over; the bound is one record's size.
    const cuts = Array.from({ length: Math.floor(Buffer.byteLength(text) / 4096) }, (_, i) => (i + 1) * 4096);
    const read = split(text, cuts, 2 * Buffer.byteLength(JSON.stringify(RECORD)));
    expect(read).toHaveLength(5_000);
    expect(read.at(-1)).toEqual(records.at(-1));
  });

  it('refuses what is not a well-formed array', () => {
    for (const text of [
      '{"stat":"Not_Ok","emsg":"no data"}',
      '[1,]',
      '[,1]',
      '[1 2]',
      '[{"a":1}',
      '[{"a":1}} ]',
      '[{"a":1}]x',
      '[{"a":1},]',
      '[{"a":tru}]',
      '[',
      '',
    ]) {
      expect(() => split(text), text).toThrow(NotAJsonArray);
    }
  });

  it('reads a small reply whole for a sink without texts, as the scan does; past the bound it scans', () => {
    const texts = [
      JSON.stringify([RECORD, { ...RECORD, al_id: '26112700000002' }]),
      ' [ [1, [2]], "a,]}", 3.5e2, true, null, {"a":{}} ] \n',
      '[]',
      '  [ ]  ',
    ];
    for (const text of texts) {
      const length = Buffer.byteLength(text);
      // Wholly below the bound, crossing it in the middle, past it from the first chunk.
      for (const wholeBelow of [1 << 20, Math.floor(length / 2), 1]) {
        for (const cuts of [[], [Math.floor(length / 3)], Array.from({ length }, (_, i) => i)])
          expect(split(text, cuts, 64 * 1024, wholeBelow)).toEqual(JSON.parse(text));
      }
    }
    for (const text of ['{"stat":"Not_Ok"}', '[1,]', '[1 2]', '[{"a":1}', '[{"a":1}]x', '[{"a":1},]', '[', '']) {
      for (const wholeBelow of [1 << 20, 3]) {
        expect(() => split(text, [], 64 * 1024, wholeBelow), text).toThrow(NotAJsonArray);
      }
    }
  });

  it('refuses a record past the bound, whatever the chunking', () => {
    const big = JSON.stringify([{ a: 'x'.repeat(200) }]);
    expect(() => split(big, [], 100)).toThrow(RecordTooLarge);
    expect(() => split(big, [50, 120], 100)).toThrow(RecordTooLarge);
    expect(split(big, [50, 120], 300)).toHaveLength(1);
  });
});
