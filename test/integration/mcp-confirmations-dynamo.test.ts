/**
 * The remote server's previews in DynamoDB (functions/mcp/confirmations.ts) with the real SDK client on dynalite:
 * taken `first` exactly once even by ten confirms at once, then `again` until it expires; a peek marks nothing; the
 * first confirm's answer is kept and a later take answers it; an expired, unknown or malformed id is not
 * confirmable; an id is found only under the assistant that previewed it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DynamoConfirmationStore } from '../../functions/mcp/confirmations.js';
import { LOCAL_EVENTS_TABLE, type LocalDynamo, startLocalDynamo } from '../../local/dynamodb.js';
import { newConfirmation } from '../../mcp/confirmations.js';
import type { GatewayRequest } from '../../mcp/port.js';

const REQUEST: GatewayRequest = { operation: 'PlaceGTTOrder', body: { tsym: 'INFY-EQ', qty: 1, d: '1490' } };

let dynamo: LocalDynamo;
const store = (owner: string) =>
  new DynamoConfirmationStore({ tableName: LOCAL_EVENTS_TABLE, owner, endpoint: dynamo.url });

beforeAll(async () => {
  dynamo = await startLocalDynamo({ extraTables: [{ name: LOCAL_EVENTS_TABLE, key: 'pk', sortKey: 'sk' }] });
});
afterAll(() => dynamo?.close());

describe('DynamoConfirmationStore', () => {
  it('one of ten confirms at once is first, the others again; it stays confirmable (again) until it expires', async () => {
    const now = Date.now();
    const c = newConfirmation(REQUEST, 'summary', now, 120_000, 'as0000000000000001');
    const mine = store('as0000000000000001');
    await mine.put(c);
    const taken = await Promise.all(Array.from({ length: 10 }, () => mine.take(c.id, now + 1_000)));
    expect(taken.filter((t) => t.state === 'first')).toHaveLength(1);
    expect(taken.filter((t) => t.state === 'again')).toHaveLength(9);
    expect(taken[0]).toMatchObject({ confirmation: { id: c.id, request: REQUEST, summary: 'summary' } });
    expect(await mine.take(c.id, now + 119_000)).toMatchObject({ state: 'again' });
    expect(await mine.take(c.id, now + 120_001)).toEqual({ state: 'expired' });
  });

  it("answers unknown for another assistant's id, an id never issued and one of another shape", async () => {
    const now = Date.now();
    const c = newConfirmation(REQUEST, 'summary', now, 120_000, 'as0000000000000002');
    await store('as0000000000000002').put(c);
    expect(await store('as0000000000000003').take(c.id, now)).toEqual({ state: 'unknown' });
    expect(await store('as0000000000000002').take('00000000-0000-4000-8000-000000000000', now)).toEqual({
      state: 'unknown',
    });
    expect(await store('as0000000000000002').take("x' OR 1=1", now)).toEqual({ state: 'unknown' });
    // The rightful assistant still finds it first: the other's attempt marked nothing.
    expect(await store('as0000000000000002').take(c.id, now)).toMatchObject({ state: 'first' });
  });

  it("peek marks nothing; the first confirm's answer is kept and answered to every later take", async () => {
    const now = Date.now();
    const c = newConfirmation(REQUEST, 'summary', now, 120_000, 'as0000000000000005');
    const mine = store('as0000000000000005');
    await mine.put(c);
    expect(await Promise.all([mine.peek(c.id, now), mine.peek(c.id, now)])).toEqual([
      { state: 'first', confirmation: c },
      { state: 'first', confirmation: c },
    ]);
    expect(await mine.peek('00000000-0000-4000-8000-000000000000', now)).toEqual({ state: 'unknown' });
    expect(await mine.peek("x' OR 1=1", now)).toEqual({ state: 'unknown' });
    const answer = { structuredContent: { confirmed: true, result: { al_id: '7' } }, isError: false };
    await mine.settle(c.id, answer); // not taken yet: nothing kept
    expect(await mine.take(c.id, now)).toEqual({ state: 'first', confirmation: c });
    expect(await mine.peek(c.id, now)).toEqual({ state: 'again', confirmation: c });
    await mine.settle(c.id, answer);
    const later = await Promise.all([mine.take(c.id, now), mine.peek(c.id, now)]);
    expect(later).toEqual([
      { state: 'again', confirmation: c, answer },
      { state: 'again', confirmation: c, answer },
    ]);
    expect(await mine.peek(c.id, now + 120_001)).toEqual({ state: 'expired' });
    // Another assistant's settle of the id keeps nothing under this one.
    await store('as0000000000000006').settle(c.id, { structuredContent: { x: 1 }, isError: true });
    expect(await mine.take(c.id, now)).toEqual({ state: 'again', confirmation: c, answer });
  });

  it('a preview spent by a put with expiresAt 0 answers expired', async () => {
    const now = Date.now();
    const c = newConfirmation(REQUEST, 'summary', now, 120_000, 'as0000000000000004');
    const mine = store('as0000000000000004');
    await mine.put(c);
    await mine.put({ ...c, expiresAt: 0 });
    expect(await mine.take(c.id, now)).toEqual({ state: 'expired' });
  });
});
