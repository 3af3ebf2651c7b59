/**
 * The MCP server's confirmations (mcp/confirmations.ts): an id is taken first once, then answers `again` until it
 * expires; an expired or unknown id is refused; the id is bound to the SHA-256 of the request's canonical JSON, so a
 * stored request that changed, or a confirm naming another request's hash, is refused.
 */
import { describe, expect, it } from 'vitest';

import {
  canonicalJson,
  MemoryConfirmationStore,
  newConfirmation,
  refusal,
  requestHash,
} from '../../mcp/confirmations.js';
import type { GatewayRequest } from '../../mcp/port.js';

const REQUEST: GatewayRequest = { operation: 'PlaceGTTOrder', body: { tsym: 'INFY-EQ', qty: 1, d: '1490' } };

describe('canonical JSON and the request hash', () => {
  it('the same request in any key order has one text and one hash; any change of a value changes the hash', () => {
    const reordered: GatewayRequest = { body: { d: '1490', qty: 1, tsym: 'INFY-EQ' }, operation: 'PlaceGTTOrder' };
    expect(canonicalJson(reordered)).toBe(canonicalJson(REQUEST));
    expect(canonicalJson(REQUEST)).toBe('{"body":{"d":"1490","qty":1,"tsym":"INFY-EQ"},"operation":"PlaceGTTOrder"}');
    expect(requestHash(reordered)).toBe(requestHash(REQUEST));
    expect(requestHash(REQUEST)).toMatch(/^[0-9a-f]{64}$/);
    expect(requestHash({ ...REQUEST, body: { ...REQUEST.body, qty: 2 } })).not.toBe(requestHash(REQUEST));
    expect(requestHash({ ...REQUEST, operation: 'PlaceOCOOrder' })).not.toBe(requestHash(REQUEST));
  });
});

describe('MemoryConfirmationStore', () => {
  it('is taken first once, then again (to replay) until it expires; after expiry it is refused', async () => {
    const store = new MemoryConfirmationStore();
    const c = newConfirmation(REQUEST, 'summary', 1_000, 120_000);
    await store.put(c);
    const first = await store.take(c.id, 2_000);
    expect(first).toMatchObject({ state: 'first', confirmation: { id: c.id, hash: requestHash(REQUEST) } });
    expect(refusal(first)).toBeUndefined();
    expect(await store.take(c.id, 3_000)).toMatchObject({ state: 'again' });
    expect(await store.take(c.id, 121_000)).toMatchObject({ state: 'again' });
    const expired = await store.take(c.id, 121_001);
    expect(expired).toEqual({ state: 'expired' });
    expect(refusal(expired)).toContain('expired');
    expect(await store.take(c.id, 121_002)).toEqual({ state: 'unknown' });
  });

  it('two confirms at once: only one is first', async () => {
    const store = new MemoryConfirmationStore();
    const c = newConfirmation(REQUEST, 'summary', 0);
    await store.put(c);
    const states = (await Promise.all([store.take(c.id, 1), store.take(c.id, 1), store.take(c.id, 1)])).map(
      (t) => t.state,
    );
    expect(states.sort()).toEqual(['again', 'again', 'first']);
  });

  it('peek marks nothing: a confirm refused after a peek leaves the id to be taken first', async () => {
    const store = new MemoryConfirmationStore();
    const c = newConfirmation(REQUEST, 'summary', 0);
    await store.put(c);
    const peeked = await store.peek(c.id, 1);
    expect(peeked).toMatchObject({ state: 'first' });
    // A confirm naming another request's hash is refused on what peek found...
    expect(refusal(peeked, 'f'.repeat(64))).toContain('changed since it was previewed');
    expect(await store.peek(c.id, 1)).toMatchObject({ state: 'first' });
    // ...and the plain confirm after it still takes the id first (the one confirm that may send).
    expect(await store.take(c.id, 2)).toMatchObject({ state: 'first' });
    expect(await store.peek(c.id, 3)).toMatchObject({ state: 'again' });
    expect(await store.peek('nope', 3)).toEqual({ state: 'unknown' });
  });

  it("keeps the first confirm's answer: a later take answers it (to replay), none before it is settled", async () => {
    const store = new MemoryConfirmationStore();
    const c = newConfirmation(REQUEST, 'summary', 0);
    await store.put(c);
    const answer = { structuredContent: { confirmed: true, result: { al_id: '7' } }, isError: false };
    // Not taken yet: nothing to keep.
    await store.settle(c.id, answer);
    expect(await store.take(c.id, 1)).toEqual({ state: 'first', confirmation: c });
    expect(await store.take(c.id, 2)).toEqual({ state: 'again', confirmation: c });
    await store.settle(c.id, answer);
    answer.structuredContent.confirmed = false;
    expect(await store.take(c.id, 3)).toEqual({
      state: 'again',
      confirmation: c,
      answer: { structuredContent: { confirmed: true, result: { al_id: '7' } }, isError: false },
    });
  });

  it('an unknown id is refused saying to preview again', async () => {
    const taken = await new MemoryConfirmationStore().take('nope', 0);
    expect(refusal(taken)).toMatch(/No preview has this confirmationId.*preview the change again/);
    expect(refusal(taken)).toContain('a client that starts a server per call cannot confirm');
  });

  it('keeps its own copy: a request changed after put is not what take answers', async () => {
    const store = new MemoryConfirmationStore();
    const request = structuredClone(REQUEST);
    const c = newConfirmation(request, 'summary', 0);
    await store.put(c);
    (c.request.body as Record<string, unknown>).qty = 100;
    const taken = await store.take(c.id, 1);
    expect(taken.state === 'first' && taken.confirmation.request.body?.qty).toBe(1);
  });
});

describe('refusal: the hash binding', () => {
  it('refuses a stored request that no longer matches its hash, and a confirm naming another hash', () => {
    const c = newConfirmation(REQUEST, 'summary', 0);
    const tampered = { ...c, request: { ...REQUEST, body: { ...REQUEST.body, qty: 9 } } };
    expect(refusal({ state: 'first', confirmation: tampered })).toContain('no longer matches');
    expect(refusal({ state: 'first', confirmation: c }, 'f'.repeat(64))).toContain('changed since it was previewed');
    expect(refusal({ state: 'first', confirmation: c }, c.hash)).toBeUndefined();
  });

  it('gives each preview a new id that lives for the TTL', () => {
    const a = newConfirmation(REQUEST, 's', 10, 500);
    const b = newConfirmation(REQUEST, 's', 10, 500);
    expect(a.id).not.toBe(b.id);
    expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.expiresAt).toBe(510);
    expect(a.hash).toBe(b.hash);
  });
});
