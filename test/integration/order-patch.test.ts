/**
 * Changing one field of a pending order (PATCH), end to end on loopback: the local API, the real handlers, the
 * emulator, dynalite. The pending order is read, the changes laid over it and the full replacement sent; an ETag
 * and If-Match keep a change from overwriting one it did not see, and so does a second read right before sending.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import type { LocalStack } from '../../local/run-local.js';
import { jdata } from '../contract/jdata-client.js';
import { CLI_ORDER } from '../support/cli-orders.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { localApiReply } from '../support/local-api.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';
import { wireGtt } from '../support/wire-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let seq = 0;
const key = () => `patch-${Date.now()}-${++seq}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions on arbitrary JSON
type Json = Record<string, any>;
const api = localApiReply<Json>(() => stack.api.url);
const call = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
  const { status, headers: replied, body: json } = await api(method, path, body, headers);
  return { status, etag: replied.get('etag'), body: json };
};
const place = async (order: unknown = SAMPLE_ORDER, path = '/gtt-orders') => {
  const placed = await call('POST', path, order, { 'Idempotency-Key': key() });
  expect(placed.status).toBe(201);
  return String(placed.body.al_id);
};
const modifies = async () =>
  (await control.requests()).filter((r) => r.operation === 'ModifyGTTOrder' || r.operation === 'ModifyOCOOrder');

useLocalStack({ settings: { ...HIGH_ORDER_RATE, GUARDRAIL_MAX_QTY: 10 } }, (s, c) => {
  stack = s;
  control = c;
});
beforeEach(async () => {
  await control.clearFaults();
});
afterEach(async () => {
  await control.clearFaults();
});

describe('PATCH /gtt-orders/{alId}', () => {
  it('changes the trigger alone: the full replacement is sent, every other field as the broker held it', async () => {
    const alId = await place({ ...SAMPLE_ORDER, qty: 3, tag: 'keep-me' });
    const patched = await call('PATCH', `/gtt-orders/${alId}`, { d: '1495' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ stat: 'OI replaced', al_id: alId });
    const [sent] = await modifies();
    expect(sent!.jData).toMatchObject({
      al_id: alId,
      exch: 'NSE',
      tsym: 'M%26M-EQ', // URL-encoded on the wire, as every order's symbol
      qty: '3',
      prc: '1500',
      prd: 'C',
      trantype: 'B',
      prctyp: 'LMT',
      ret: 'DAY',
      ai_t: 'LTP_B_O',
      d: '1495',
      remarks: 'keep-me',
    });
    const held = await call('GET', `/gtt-orders/${alId}`);
    expect(held.body).toMatchObject({ d: '1495', qty: 3, prc: '1500', tag: 'keep-me' });
  });

  it('GET gives an ETag; a PATCH with it goes, a stale one is 412 ORDER_CHANGED naming the field, nothing sent', async () => {
    const alId = await place();
    const read = await call('GET', `/gtt-orders/${alId}`);
    expect(read.etag).toMatch(/^"s\.[0-9a-f]+"$/);
    // The same order read again has the same version.
    expect((await call('GET', `/gtt-orders/${alId}`)).etag).toBe(read.etag);
    // Someone else changes the quantity (a full PUT).
    expect((await call('PUT', `/gtt-orders/${alId}`, { ...SAMPLE_ORDER, qty: 2 })).status).toBe(200);
    const before = (await modifies()).length;
    const stale = await call('PATCH', `/gtt-orders/${alId}`, { d: '1480' }, { 'If-Match': read.etag! });
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatchObject({
      code: 'ORDER_CHANGED',
      outcome: 'not_executed',
      details: [{ field: 'qty', message: 'changed at the broker' }],
    });
    expect(await modifies()).toHaveLength(before);
    const fresh = (await call('GET', `/gtt-orders/${alId}`)).etag!;
    expect(fresh).not.toBe(read.etag);
    const ok = await call('PATCH', `/gtt-orders/${alId}`, { d: '1480' }, { 'If-Match': fresh });
    expect(ok.status).toBe(200);
    expect((await call('GET', `/gtt-orders/${alId}`)).body).toMatchObject({ qty: 2, d: '1480' });
  });

  it('two PATCHes with the same If-Match at once: one is sent, the other is 409 ORDER_BUSY; no change is lost', async () => {
    const alId = await place();
    const etag = (await call('GET', `/gtt-orders/${alId}`)).etag!;
    // A slow broker: the first PATCH's modify takes 3 s, the second arrives meanwhile (waited for up to a minute).
    await control.fault({ operation: 'ModifyGTTOrder', kind: 'delay', delayMs: 3_000, executed: true, times: 1 });
    const first = call('PATCH', `/gtt-orders/${alId}`, { d: '1470' }, { 'If-Match': etag });
    for (let i = 0; i < 6_000; i++) {
      if ((await control.requests()).some((r) => r.operation === 'ModifyGTTOrder')) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const second = await call('PATCH', `/gtt-orders/${alId}`, { qty: 5 }, { 'If-Match': etag });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'ORDER_BUSY', outcome: 'not_executed' });
    expect(second.body.error.message).toMatch(/read the order again \(GET \/gtt-orders\//);
    expect((await first).status).toBe(200);
    // What the first caller was told is what the broker holds; the second sent nothing and knows it.
    expect(await modifies()).toHaveLength(1);
    expect((await call('GET', `/gtt-orders/${alId}`)).body).toMatchObject({ d: '1470', qty: SAMPLE_ORDER.qty });
    // Once the first has ended, the second goes after reading again (its If-Match is stale now: 412, then 200).
    expect((await call('PATCH', `/gtt-orders/${alId}`, { qty: 5 }, { 'If-Match': etag })).status).toBe(412);
    const fresh = (await call('GET', `/gtt-orders/${alId}`)).etag!;
    expect((await call('PATCH', `/gtt-orders/${alId}`, { qty: 5 }, { 'If-Match': fresh })).status).toBe(200);
    expect((await call('GET', `/gtt-orders/${alId}`)).body).toMatchObject({ d: '1470', qty: 5 });
  });

  it("a retry of a change's key while it is in flight neither takes nor ends its lease: another change is ORDER_BUSY", async () => {
    const alId = await place();
    const etag = (await call('GET', `/gtt-orders/${alId}`)).etag!;
    const k = key();
    // A slow broker: P1's modify arrives and is carried out 4 s later, while its retry and another change come.
    await control.fault({ operation: 'ModifyGTTOrder', kind: 'delay', delayMs: 4_000, times: 1 });
    const p1 = call('PATCH', `/gtt-orders/${alId}`, { d: '1470' }, { 'Idempotency-Key': k, 'If-Match': etag });
    let p1Done = false;
    void p1.then(
      () => (p1Done = true),
      () => (p1Done = true),
    );
    for (let i = 0; i < 6_000 && !(await modifies()).length; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await modifies()).toHaveLength(1);
    // The same request again: the journal says it is in flight; the lease stays P1's.
    const retry = await call('PATCH', `/gtt-orders/${alId}`, { d: '1470' }, { 'Idempotency-Key': k, 'If-Match': etag });
    expect(retry.status).toBe(409);
    expect(retry.body.error).toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS', outcome: 'not_executed' });
    // Another change from the same read, with another key: refused while P1 is at the broker, nothing sent.
    const p2 = await call('PATCH', `/gtt-orders/${alId}`, { qty: 5 }, { 'Idempotency-Key': key(), 'If-Match': etag });
    expect(p1Done).toBe(false);
    expect(p2.status).toBe(409);
    expect(p2.body.error).toMatchObject({ code: 'ORDER_BUSY', outcome: 'not_executed' });
    expect((await p1).status).toBe(200);
    expect(await modifies()).toHaveLength(1);
    expect((await call('GET', `/gtt-orders/${alId}`)).body).toMatchObject({ d: '1470', qty: SAMPLE_ORDER.qty });
  });

  it('a change whose outcome is unknown keeps its lease; its own retry passes, settles it and gives it back', async () => {
    const alId = await place();
    const k = key();
    // The broker acts and the reply is lost: outcome unknown, the lease kept for the late window (15 s here).
    await control.fault({ operation: 'ModifyGTTOrder', kind: 'drop', executed: true, times: 1 });
    const lost = await call('PATCH', `/gtt-orders/${alId}`, { d: '1470' }, { 'Idempotency-Key': k });
    expect(lost.body.error).toMatchObject({ outcome: 'unknown' });
    const other = await call('PATCH', `/gtt-orders/${alId}`, { qty: 5 }, { 'Idempotency-Key': key() });
    expect(other.body.error).toMatchObject({ code: 'ORDER_BUSY', outcome: 'not_executed' });
    // Its own retry is not refused by the lease: the journal finds the write in the books and answers it.
    const retry = await call('PATCH', `/gtt-orders/${alId}`, { d: '1470' }, { 'Idempotency-Key': k });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ al_id: alId, idempotency: { key: k, replayed: true, adopted: true } });
    // Settled, the order is free for the next change at once.
    const next = await call('PATCH', `/gtt-orders/${alId}`, { qty: 5 }, { 'Idempotency-Key': key() });
    expect(next.status).toBe(200);
    expect(await modifies()).toHaveLength(2);
    expect((await call('GET', `/gtt-orders/${alId}`)).body).toMatchObject({ d: '1470', qty: 5 });
  });

  it('without If-Match: an order changed between the read and the send is 412, nothing sent', async () => {
    const alId = await place();
    // The PATCH's first read is answered at once and its reply held 3 s; meanwhile the order changes.
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'delay', delayMs: 3_000, executed: true, times: 1 });
    const patching = call('PATCH', `/gtt-orders/${alId}`, { d: '1480' });
    for (let i = 0; i < 6_000; i++) {
      if ((await control.requests()).some((r) => r.operation === 'GetPendingGTTOrder')) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // The trader changes it in the broker's own app meanwhile (a change through the gateway would wait for the
    // PATCH's lease: ORDER_BUSY, tested below).
    const outside = await jdata(
      stack.emulator.url,
      'ModifyGTTOrder',
      { ...wireGtt({ ...SAMPLE_ORDER, prc: '1499', qty: String(SAMPLE_ORDER.qty) }, stack.emulator), al_id: alId },
      stack.emulator.token,
    );
    expect(outside.body).toMatchObject({ stat: 'OI replaced' });
    const patched = await patching;
    expect(patched.status).toBe(412);
    expect(patched.body.error).toMatchObject({ code: 'ORDER_CHANGED', details: [{ field: 'prc' }] });
    expect(await modifies()).toHaveLength(1); // the outside change's only
    expect((await call('GET', `/gtt-orders/${alId}`)).body).toMatchObject({ prc: '1499', d: '1490' });
  });

  it('an idempotency key replays the first reply (If-Match and all), with no second read or send', async () => {
    const alId = await place();
    const etag = (await call('GET', `/gtt-orders/${alId}`)).etag!;
    const k = key();
    const first = await call('PATCH', `/gtt-orders/${alId}`, { qty: 2 }, { 'Idempotency-Key': k, 'If-Match': etag });
    expect(first.status).toBe(200);
    const again = await call('PATCH', `/gtt-orders/${alId}`, { qty: 2 }, { 'Idempotency-Key': k, 'If-Match': etag });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ al_id: alId, idempotency: { key: k, replayed: true } });
    expect(await modifies()).toHaveLength(1);
  });

  it('a dry run shows the merged order; guardrails judge the merged order; nothing is sent', async () => {
    const alId = await place();
    const dry = await call('PATCH', `/gtt-orders/${alId}?dryRun=true`, { prc: '1505' });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, request: { jData: { prc: '1505', d: '1490', qty: '1' } } });
    const tooMany = await call('PATCH', `/gtt-orders/${alId}`, { qty: 11 });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error).toMatchObject({ code: 'GUARDRAIL_REJECTED' });
    const offTick = await call('PATCH', `/gtt-orders/${alId}`, { prc: '1500.03' });
    expect(offTick.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'prc' }] });
    expect(await modifies()).toHaveLength(0);
  });

  it('a change to MKT drops the held limit price and says what was sent', async () => {
    const alId = await place();
    const patched = await call('PATCH', `/gtt-orders/${alId}`, { prctyp: 'MKT' });
    expect(patched.status).toBe(200);
    expect(patched.body.converted).toMatchObject({ from: 'MKT', to: 'LMT', price: '1497.45' });
  });

  it('the kill switch refuses a PATCH as it refuses a modify (423), nothing sent', async () => {
    const alId = await place();
    // The sweep cannot read the list, so the switch is on and the order is still pending.
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'http5xx', times: 1 });
    expect((await call('POST', '/kill-switch')).status).toBe(502);
    try {
      const refused = await call('PATCH', `/gtt-orders/${alId}`, { d: '1480' });
      expect(refused.status).toBe(423);
      expect(refused.body.error).toMatchObject({ code: 'TRADING_HALTED', outcome: 'not_executed' });
      expect(await modifies()).toHaveLength(0);
    } finally {
      expect((await call('DELETE', '/kill-switch')).body).toMatchObject({ halted: false });
    }
  });

  it.each([
    [{}, '(body)'],
    [{ quantity: 2 }, 'quantity'],
    [{ exch: 'BSE' }, 'exch'],
    [{ d: '1480', al_id: '1' }, 'al_id'],
  ])('refuses %j by name (%s); nothing is read or sent', async (body, field) => {
    const alId = await place();
    await control.clearRequests();
    const refused = await call('PATCH', `/gtt-orders/${alId}`, body);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((d: { field: string }) => d.field).join(' ')).toContain(field);
    expect(await control.requests()).toEqual([]);
  });

  it('an If-Match that is no ETag is said to be one, 400 not_executed, not taken for a change at the broker', async () => {
    const alId = await place();
    await control.clearRequests();
    for (const ifMatch of ['abc', '"s.0"', '"x.12345678"', 'W/"o.zz"']) {
      const bad = await call('PATCH', `/gtt-orders/${alId}`, { d: '1480' }, { 'If-Match': ifMatch });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({
        code: 'VALIDATION_FAILED',
        outcome: 'not_executed',
        details: [{ field: 'If-Match', message: 'not a valid ETag' }],
      });
      expect(bad.body.error.message).toContain('is not a valid ETag');
      expect(bad.body.error.message).not.toContain('changed');
    }
    // Nothing was read or sent for them; the ETag as it came (weak or not) still goes.
    expect(await control.requests()).toEqual([]);
    const etag = (await call('GET', `/gtt-orders/${alId}`)).etag!;
    expect((await call('PATCH', `/gtt-orders/${alId}`, { d: '1480' }, { 'If-Match': `W/${etag}` })).status).toBe(200);
  });

  it('an order that is not pending is 404 ORDER_NOT_FOUND; If-Match on a PUT is refused, never ignored', async () => {
    expect((await call('PATCH', '/gtt-orders/26112299999999', { d: '1480' })).body.error).toMatchObject({
      code: 'ORDER_NOT_FOUND',
    });
    const alId = await place();
    const put = await call('PUT', `/gtt-orders/${alId}`, SAMPLE_ORDER, { 'If-Match': '"s.0"' });
    expect(put.status).toBe(400);
    expect(put.body.error.details).toEqual([{ field: 'If-Match', message: 'not honoured here: use PATCH' }]);
  });
});

describe('gtt modify', () => {
  const gtt = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
    const code = await main([...args, '--url', stack.api.url], { GTT_API_URL: '' }, io);
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const reads = async () => (await control.requests()).filter((r) => r.operation === 'GetPendingGTTOrder').length;

  it('--trigger alone changes the trigger (PATCH); every flag is still a full replacement (PUT)', async () => {
    const alId = await place({ ...SAMPLE_ORDER, qty: 3 });
    await control.clearRequests();
    const one = await gtt('modify', alId, '--trigger', '1495');
    expect(one).toMatchObject({ code: 0, err: '' });
    expect(one.out).toMatch(new RegExp(`^modified al_id ${alId} \\(idempotency key `));
    expect(await reads()).toBe(2); // the order read, and read again right before sending
    expect((await call('GET', `/gtt-orders/${alId}`)).body).toMatchObject({ d: '1495', qty: 3, prc: '1500' });

    await control.clearRequests();
    const all = await gtt('modify', alId, ...CLI_ORDER);
    expect(all).toMatchObject({ code: 0, err: '' });
    expect(await reads()).toBe(1); // read once right before sending: the stamp it carries (docs/explanation/order-safety.md)
    expect((await call('GET', `/gtt-orders/${alId}`)).body).toMatchObject({ d: '1490', qty: 1 });
  });

  it('no flag, or --tsym in a partial modify, is a usage error naming the way forward; nothing is sent', async () => {
    const alId = await place();
    await control.clearRequests();
    const none = await gtt('modify', alId);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/modify needs what to change/);
    const symbol = await gtt('modify', alId, '--tsym', 'INFY-EQ', '--qty', '2');
    expect(symbol.code).toBe(2);
    expect(symbol.err).toMatch(/--exch and --tsym are the order's own/);
    expect(await control.requests()).toEqual([]);
  });
});

describe('PATCH /gtt-orders/oco/{alId}', () => {
  it('changes the stop-loss trigger alone; the target leg is sent as the broker held it', async () => {
    const alId = await place(
      {
        exch: 'NSE',
        tsym: 'M&M-EQ',
        target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1600', prd: 'C' } },
        stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1395', prd: 'C' } },
      },
      '/gtt-orders/oco',
    );
    const etag = (await call('GET', `/gtt-orders/${alId}`)).etag!;
    expect(etag).toMatch(/^"o\./);
    const patched = await call('PATCH', `/gtt-orders/oco/${alId}`, { stopLoss: { trigger: '1410' } });
    expect(patched.status).toBe(200);
    const held = await call('GET', `/gtt-orders/${alId}`);
    expect(held.body).toMatchObject({
      target: { trigger: '1600', order: { prc: '1600' } },
      stopLoss: { trigger: '1410', order: { prc: '1395' } },
    });
    const stale = await call('PATCH', `/gtt-orders/oco/${alId}`, { target: { trigger: '1610' } }, { 'If-Match': etag });
    expect(stale.status).toBe(412);
    expect(stale.body.error.details).toEqual([{ field: 'stopLoss.trigger', message: 'changed at the broker' }]);
  });
});
