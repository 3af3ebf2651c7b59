/**
 * A bracket plan as a trader runs it (docs/reference/plans.md): `npm start -- --watch-interval 1` with a loopback webhook
 * (every detail-type), a plan created through the local API, the price crossing the entry, then `Plan Step` with
 * the OCO exit arriving at the webhook while the exit is pending at the broker emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Started, startWithWebhook, waitUntil, type WebhookRun } from '../support/processes.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let run: WebhookRun;
let started: Started;
/** The bodies the webhook received so far. */
const received = () => run.received.map((r) => r.body);

beforeAll(async () => {
  run = await startWithWebhook();
  started = run.started;
});

afterAll(() => run?.stop());

const waitFor = (what: () => boolean) =>
  waitUntil(what, () => `received ${JSON.stringify(received().map((r) => r['detail-type']))}`);

describe('npm start: a bracket plan', () => {
  it('LTP crosses the entry: Plan Step with the OCO exit reaches the webhook, and the exit is pending', async () => {
    const [, api, emulator] = started.match;
    const created = await fetch(`${api}/plans`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Idempotency-Key': 'e2e-plan-1' },
      body: JSON.stringify({
        kind: 'bracket',
        entry: { ...SAMPLE_ORDER, qty: 3 },
        target: { trigger: '1600', price: '1600' },
        stopLoss: { trigger: '1400', price: '1400' },
      }),
    });
    expect(created.status).toBe(201);
    const { planId } = (await created.json()) as { planId: string };
    await waitFor(() => received().some((r) => r['detail-type'] === 'Plan Armed'));

    await fetch(`${emulator}/_emulator/ltp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ exch: 'NSE', tsym: SAMPLE_ORDER.tsym, ltp: 1480 }),
    });
    await waitFor(() => received().some((r) => r['detail-type'] === 'Plan Step'));
    const step = received().find((r) => r['detail-type'] === 'Plan Step')!;
    expect(step).toMatchObject({
      source: 'gtt-gateway',
      detail: { planId, kind: 'bracket', state: 'exit-armed', step: 'exit-armed', origin: 'watcher' },
    });
    const exitId = String((step.detail as { al_id: string }).al_id);
    const pending = (await (await fetch(`${api}/gtt-orders?limit=1000`)).json()) as {
      orders: { al_id: string; type: string; target?: { order: { trantype: string; qty: string | number } } }[];
    };
    const exit = pending.orders.find((o) => o.al_id === exitId);
    expect(exit).toMatchObject({ type: 'oco', target: { order: { trantype: 'S' } } });
    expect(Number(exit!.target!.order.qty)).toBe(3);
  });
});
