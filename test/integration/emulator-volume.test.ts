/**
 * The broker emulator under volume, over real HTTP on 127.0.0.1: hundreds of places at once each get their own al_id
 * and are all listed, singles and OCOs; the request log stays bounded in bytes (not only in entries) under thousands
 * of large requests, and still answers. Kept out of the fast tier (`npm run test:fast` is unit and contract tests
 * without network fan-out); one request at a time is in test/contract/ (the log's redaction in
 * emulator-hardening.test.ts).
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { LOG_BODY_BYTES, LOG_TOTAL_BYTES } from '../../emulator/control/request-log.js';
import { jdata, send } from '../contract/jdata-client.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { type EmulatorFixture, useEmulator } from '../support/emulator-fixture.js';
import { ocoClient } from '../support/oco-client.js';
import { plainClient } from '../support/plain-client.js';

let emu: EmulatorFixture;
let ctl: EmulatorControl;
const { place, pending } = plainClient(() => emu);
const { placeOco } = ocoClient(() => emu);

/** Hundreds or thousands of requests: one generous bound per test, so a loaded machine is slower, never failed. */
const VOLUME_BOUND_MS = 180_000;

const fixture = useEmulator();
beforeEach(() => {
  emu = fixture();
  ctl = emu.control;
});

describe('many places at once', { timeout: VOLUME_BOUND_MS }, () => {
  it('500 places at once get 500 distinct al_ids, all listed', async () => {
    await ctl.switches({ acceptAnySymbol: true }); // 500 distinct symbols: more than the shipped list holds
    const replies = await Promise.all(Array.from({ length: 500 }, (_, i) => place({ tsym: `SYM${i}-EQ` })));
    const ids = new Set(replies.map((r) => r.al_id));
    expect(replies.every((r) => r.stat === 'OI created')).toBe(true);
    expect(ids.size).toBe(500);
    const listed = (await pending()) as { al_id: string }[];
    expect(new Set(listed.map((r) => r.al_id))).toEqual(ids);
  });

  it('200 OCO places at once get 200 distinct al_ids, all listed', async () => {
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => placeOco({ remarks: `r${i}` })));
    expect(replies.every((r) => r.stat === 'OI created')).toBe(true);
    const ids = new Set(replies.map((r) => r.al_id));
    expect(ids.size).toBe(200);
    const listed = (await pending()) as { al_id: string; remarks: string }[];
    expect(new Set(listed.map((r) => r.al_id))).toEqual(ids);
    expect(new Set(listed.map((r) => r.remarks)).size).toBe(200);
  });
});

/** Run `count` jobs, `width` at a time. */
const inBatches = async (count: number, width: number, job: (i: number) => Promise<unknown>) => {
  for (let start = 0; start < count; start += width) {
    await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, k) => job(start + k)));
  }
};
const readLog = async () => {
  const res = await fetch(`${emu.url}/_emulator/requests`);
  const text = await res.text();
  return {
    status: res.status,
    text,
    body: JSON.parse(text) as {
      requests: {
        seq: number;
        body: string;
        bodyLength: number;
        bodyTruncated: boolean;
        jData: unknown;
        jDataTruncated: boolean;
      }[];
      bytes: number;
    },
  };
};

describe('request log is bounded in bytes', { timeout: VOLUME_BOUND_MS }, () => {
  it('64 KiB unauthenticated posts are kept as 4 KiB excerpts with their length and a flag', async () => {
    const body = `jData=${JSON.stringify({ uid: 'DEMO01', pad: 'x'.repeat(63 * 1024) })}`;
    await inBatches(150, 15, () => send(emu.url, '/ClientAPI/PlaceGTTOrder', body, { 'Content-Type': 'text/plain' }));
    const log = await readLog();
    expect(log.status).toBe(200);
    expect(log.body.requests).toHaveLength(150);
    // Without the bound this answer is about 150 x 2 x 63 KiB = 19 MB.
    expect(log.text.length).toBeLessThan(150 * 2 * LOG_BODY_BYTES);
    for (const entry of log.body.requests) {
      expect(entry).toMatchObject({
        bodyTruncated: true,
        bodyLength: Buffer.byteLength(body),
        jData: null,
        jDataTruncated: true,
      });
      expect(Buffer.byteLength(entry.body)).toBeLessThanOrEqual(LOG_BODY_BYTES);
      expect(body.startsWith(entry.body)).toBe(true);
    }
  });

  it('the whole log stays under its byte cap by dropping the oldest entries, and still answers', async () => {
    // Each entry as large as the bounds allow (4 KiB of path, 4 KiB of body), so fewer requests fill the log.
    const body = `jData=${JSON.stringify({ uid: 'DEMO01', pad: 'y'.repeat(5 * 1024) })}`;
    const path = `/NorenWClientTP/GetEnabledGTTs?pad=${'p'.repeat(6 * 1024)}`;
    const count = Math.ceil((LOG_TOTAL_BYTES / (2 * LOG_BODY_BYTES)) * 1.3);
    await inBatches(count, 25, () => send(emu.url, path, body));
    const log = await readLog();
    expect(log.status).toBe(200);
    expect(log.body.bytes).toBeLessThanOrEqual(LOG_TOTAL_BYTES);
    expect(Buffer.byteLength(log.text)).toBeLessThanOrEqual(LOG_TOTAL_BYTES + 1024);
    const seqs = log.body.requests.map((r) => r.seq);
    expect(seqs.length).toBeLessThan(count);
    expect(seqs.at(-1)! - seqs[0]! + 1).toBe(seqs.length); // a contiguous tail: the oldest went first
    // Small requests are kept whole.
    await ctl.clearRequests();
    await jdata(emu.url, 'GetEnabledGTTs', { uid: 'DEMO01' }, emu.token);
    expect((await readLog()).body.requests[0]).toMatchObject({
      bodyTruncated: false,
      bodyLength: 22,
      jData: { uid: 'DEMO01' },
      jDataTruncated: false,
    });
  });
});
