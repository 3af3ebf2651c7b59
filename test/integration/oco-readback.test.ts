/**
 * An OCO read back once placed (functions/orders/gateway/oco-readback.ts, docs/explanation/order-safety.md "An OCO
 * read back"): the real handlers behind the local API, the emulator over loopback, dynalite. Held as asked: the
 * reply says `verified: true`. Held with its legs swapped (the emulator's `swappedLegs` fault, the trap of this
 * family): cancelled at once through the order core's cancel, answered OCO_LEGS_MISMATCH naming what was asked and
 * what is held, nothing left live, the events said; the same key replays that answer without a second place or
 * cancel. The read-back failing or finding nothing: not cancelled, `verified: false` with the reason. And as the
 * command line and an assistant's confirm show it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import type { DeliveredEvent } from '../../local/eventbridge.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { CLI_OCO } from '../support/cli-orders.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { callTool, remoteMcpClient } from '../support/mcp-tools.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';

let stack: LocalStack;
let control: EmulatorControl;
const events: DeliveredEvent[] = [];
let n = 0;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions on arbitrary JSON
const http = localApi<Record<string, any>>(() => stack.api.url);
const OCO = {
  exch: 'NSE',
  tsym: 'INFY-EQ',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1600', prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1390', prd: 'C' } },
};
const newKey = () => `oco-readback-${Date.now()}-${++n}`;
const place = (key: string) => http('POST', '/gtt-orders/oco', OCO, { 'Idempotency-Key': key });
const pendingIds = async () =>
  (await control.orders(stack.emulator.uid)).filter((o) => o.state === 'pending').map((o) => o.al_id);
const calls = async (operation: string) => (await control.requests()).filter((r) => r.operation === operation).length;

beforeAll(async () => {
  stack = await startLocalStack({ onEvent: (e) => events.push(e), settings: HIGH_ORDER_RATE });
  control = emulatorControl(stack.emulator.url);
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(async () => {
  await control.clearFaults();
  await control.clearRequests();
  events.length = 0;
});

describe('an OCO read back once placed', () => {
  it('held as asked: placed and verified, one read of the pending list, no cancel', async () => {
    const placed = await place(newKey());
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body).toMatchObject({ stat: 'OI created', verified: true });
    expect(placed.body.unverified).toBeUndefined();
    expect(await pendingIds()).toContain(placed.body.al_id);
    expect(await calls('GetPendingGTTOrder')).toBe(1);
    expect(await calls('CancelGTTOrder')).toBe(0);
  });

  it('held with its legs swapped: cancelled at once, OCO_LEGS_MISMATCH naming both, the key replays it', async () => {
    await control.fault({ operation: 'PlaceOCOOrder', kind: 'swappedLegs' });
    const key = newKey();
    const placed = await place(key);
    expect(placed.status, JSON.stringify(placed.body)).toBe(422);
    const error = placed.body.error;
    expect(error).toMatchObject({ code: 'OCO_LEGS_MISMATCH', outcome: 'undone', details: { cancelled: true } });
    const alId = error.details.al_id as string;
    expect(error.details.differences).toEqual(
      expect.arrayContaining([
        { field: 'target.trigger', asked: '1600', held: '1400' },
        { field: 'stopLoss.trigger', asked: '1400', held: '1600' },
      ]),
    );
    expect(error.message).toMatch(/target\.trigger asked 1600, held 1400/);
    expect(error.message).toMatch(/cancelled at once; nothing of it is live/);
    // Nothing left live at the broker: the emulator's books hold it cancelled.
    expect(await pendingIds()).not.toContain(alId);
    const books = await control.orders(stack.emulator.uid);
    expect(books.find((o) => o.al_id === alId)?.state).toBe('cancelled');
    expect(await calls('PlaceOCOOrder')).toBe(1);
    expect(await calls('CancelGTTOrder')).toBe(1);
    // Said as events: its placement, then its cancellation.
    await stack.eventsForwarded();
    const said = events.filter((e) => (e.detail as { al_id?: string }).al_id === alId).map((e) => e['detail-type']);
    expect(said).toEqual(expect.arrayContaining(['GTT Placed', 'GTT Cancelled']));

    // The same key: the same answer, neither a second place nor a second cancel.
    const again = await place(key);
    expect(again.status).toBe(422);
    expect(again.body.error).toMatchObject({ code: 'OCO_LEGS_MISMATCH', outcome: 'undone', details: { al_id: alId } });
    expect(again.body.error.message).toMatch(/^Replay of idempotency key/);
    expect(await calls('PlaceOCOOrder')).toBe(1);
    expect(await calls('CancelGTTOrder')).toBe(1);
  });

  it('held otherwise and the cancel fails: STILL LIVE, its al_id named, and the key replays that', async () => {
    await control.fault({ operation: 'PlaceOCOOrder', kind: 'swappedLegs' });
    await control.fault({ operation: 'CancelGTTOrder', kind: 'notOk', message: 'Invalid Input : cancel refused' });
    const key = newKey();
    const placed = await place(key);
    expect(placed.status, JSON.stringify(placed.body)).toBe(422);
    const error = placed.body.error;
    expect(error).toMatchObject({ code: 'OCO_LEGS_MISMATCH', outcome: 'executed', details: { cancelled: false } });
    const alId = error.details.al_id as string;
    expect(error.message).toContain(
      `STILL LIVE at the broker and must be cancelled by hand now: DELETE /gtt-orders/${alId}`,
    );
    expect(await pendingIds()).toContain(alId);
    const again = await place(key);
    expect(again.body.error).toMatchObject({ code: 'OCO_LEGS_MISMATCH', outcome: 'executed' });
    expect(await calls('PlaceOCOOrder')).toBe(1);
    expect(await calls('CancelGTTOrder')).toBe(1);
    expect((await http('DELETE', `/gtt-orders/${alId}`)).status).toBe(200);
  });

  it('the read-back fails: not cancelled, verified false with the reason; the key replays it', async () => {
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'http5xx', times: 10 });
    const key = newKey();
    const placed = await place(key);
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body).toMatchObject({ stat: 'OI created', verified: false });
    expect(placed.body.unverified).toMatch(
      /pending list could not be read right after the place \(BROKER_UNAVAILABLE\)/,
    );
    expect(await pendingIds()).toContain(placed.body.al_id);
    expect(await calls('CancelGTTOrder')).toBe(0);
    await control.clearFaults();
    const reads = await calls('GetPendingGTTOrder');
    const again = await place(key);
    expect(again.body).toMatchObject({ al_id: placed.body.al_id, verified: false, idempotency: { replayed: true } });
    expect(await calls('PlaceOCOOrder')).toBe(1);
    expect(await calls('GetPendingGTTOrder')).toBe(reads);
  });

  it('the read-back finds nothing (fired at once, or a stale list): not cancelled, verified false', async () => {
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'notOk', message: 'no data' });
    const placed = await place(newKey());
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body).toMatchObject({ verified: false });
    expect(placed.body.unverified).toMatch(/was not in the broker's pending list right after it was placed/);
    expect(await pendingIds()).toContain(placed.body.al_id);
    expect(await calls('CancelGTTOrder')).toBe(0);
  });
});

describe('as the command line and an assistant show it', () => {
  const gtt = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(
      [...args, '--url', stack.api.url],
      {},
      { out: (t) => out.push(t), err: (t) => err.push(t) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('place-oco says the legs were verified; held otherwise, the error, its outcome and what next (exit 4)', async () => {
    const placed = await gtt('place-oco', ...CLI_OCO);
    expect(placed, placed.err).toMatchObject({ code: 0, err: '' });
    expect(placed.out).toMatch(/^placed OCO al_id \d+ \(idempotency key .+\); legs verified at the broker$/);

    await control.fault({ operation: 'PlaceOCOOrder', kind: 'swappedLegs' });
    const trapped = await gtt('place-oco', ...CLI_OCO);
    expect(trapped.code).toBe(4);
    expect(trapped.err).toMatch(/^error OCO_LEGS_MISMATCH \(HTTP 422\): The broker took this OCO/);
    expect(trapped.err).toContain('target.trigger asked 1600, held 1400');
    expect(trapped.err).toContain('outcome: undone');
    expect(trapped.err).toContain('next: nothing of it is live');
  });

  it('an assistant confirming an OCO held otherwise gets the error as data: cancelled, nothing live', async () => {
    const created = await http(
      'POST',
      '/assistants',
      { name: 'oco-readback', scopes: ['read', 'trade'], limits: {} },
      {
        'Idempotency-Key': newKey(),
      },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const client = await remoteMcpClient(stack.api.url, created.body.token as string);
    try {
      const preview = (await callTool(client, 'place_oco', OCO)).structuredContent!;
      expect(preview.confirmationId).toEqual(expect.any(String));
      await control.fault({ operation: 'PlaceOCOOrder', kind: 'swappedLegs' });
      const confirmed = await callTool(client, 'confirm', { confirmationId: preview.confirmationId });
      expect(confirmed.isError).toBe(true);
      const error = confirmed.structuredContent?.error as Record<string, unknown>;
      expect(error).toMatchObject({ code: 'OCO_LEGS_MISMATCH', outcome: 'undone', details: { cancelled: true } });
      expect(await pendingIds()).not.toContain((error.details as { al_id: string }).al_id);
    } finally {
      await client.close();
    }
  });
});
