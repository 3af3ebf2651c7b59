/**
 * Events as a trader sees them with `NOTIFY_WEBHOOK_URL=<url> npm start -- --watch-interval 1`: a loopback webhook
 * receiver gets `GTT Placed` for a place through the local API and `GTT Triggered` once the price crosses the
 * trigger, in EventBridge's envelope, and the console prints one line per event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Started, startWithWebhook, waitUntil, type WebhookRun } from '../support/processes.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let run: WebhookRun;
let started: Started;
let receiver: { url: string };
let received: WebhookRun['received'] = [];

beforeAll(async () => {
  run = await startWithWebhook();
  ({ started, received } = run);
  receiver = { url: run.url };
});

afterAll(() => run?.stop());

const waitFor = (what: () => boolean) =>
  waitUntil(what, () => `received ${JSON.stringify(received.map((r) => r.body['detail-type']))}\n${started.output()}`);

describe('npm start with a webhook', () => {
  it('the webhook receives GTT Placed, then GTT Triggered within seconds of the price crossing the trigger', async () => {
    const [, api, emulator] = started.match;
    expect(started.output()).toContain(`-> webhook ${receiver.url}/hook`);
    const placed = await fetch(`${api}/gtt-orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Idempotency-Key': 'e2e-events-1' },
      body: JSON.stringify(SAMPLE_ORDER),
    });
    expect(placed.status).toBe(201);
    const alId = String(((await placed.json()) as { al_id: string }).al_id);
    await waitFor(() => received.some((r) => r.body['detail-type'] === 'GTT Placed'));
    const first = received.find((r) => r.body['detail-type'] === 'GTT Placed')!;
    expect(first.body).toMatchObject({
      version: '0',
      source: 'gtt-gateway',
      id: expect.any(String),
      time: expect.any(String),
      detail: { al_id: alId, origin: 'gateway' },
    });
    expect(first.headers['content-type']).toContain('application/json');

    await fetch(`${emulator}/_emulator/ltp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ exch: 'NSE', tsym: 'M&M-EQ', ltp: 1480 }),
    });
    await waitFor(() => received.some((r) => r.body['detail-type'] === 'GTT Triggered'));
    expect(received.find((r) => r.body['detail-type'] === 'GTT Triggered')!.body).toMatchObject({
      detail: { al_id: alId, origin: 'watcher', status: 'TRIGGERED' },
    });
    // The same run publishes the fired order's fate after it; the webhook gets them one after the other.
    await waitFor(() => received.some((r) => r.body['detail-type'] === 'Order Filled'));
    expect(
      received.filter((r) => (r.body.detail as { al_id?: string }).al_id === alId).map((r) => r.body['detail-type']),
    ).toEqual(['GTT Placed', 'GTT Triggered', 'Order Filled']);
    await waitFor(() => /event +GTT Triggered +al_id=/.test(started.output()));
    expect(started.output()).toMatch(new RegExp(`event +GTT Placed +al_id=${alId} +NSE:M&M-EQ +B +trigger 1490`));
  });
});
