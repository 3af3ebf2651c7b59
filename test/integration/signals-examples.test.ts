/**
 * Examples A and B of docs/reference/signals.md end to end on the local stack: the strategy created through the local API,
 * the exact TradingView and ChartInk bodies posted to its webhook URL over HTTP (202), the queue handing the message
 * to the SignalWorker, the part that acts placing through the operation table in-process, and the GTTs at the
 * emulator with the stated prices; the Signal Acted event carries the results.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';

let stack: LocalStack;
let keys = 0;

beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE });
});
afterAll(() => stack.close());
beforeEach(async () => {
  await emulatorControl(stack.emulator.url).reset();
});

const createStrategy = async (body: unknown) => {
  const res = await fetch(`${stack.api.url}/strategies`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': `signals-examples-${++keys}` },
    body: JSON.stringify(body),
  });
  const created = (await res.json()) as { webhookUrl: string };
  expect(res.status, JSON.stringify(created)).toBe(201);
  return created.webhookUrl;
};
/** Posts the body as the tool sends it, then waits for the worker and the events. */
const alert = async (webhookUrl: string, body: string) => {
  const res = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const reply = (await res.json()) as { signalId: string };
  expect(res.status, JSON.stringify(reply)).toBe(202);
  await stack.signalQueue.drained();
  await stack.eventsForwarded();
  return reply.signalId;
};
const placedAtBroker = async () =>
  (await emulatorControl(stack.emulator.url).requests())
    .filter((r) => r.operation === 'PlaceGTTOrder')
    .map((r) => r.jData);
const acted = (signalId: string) =>
  stack.eventBridge.events.find((e) => e['detail-type'] === 'Signal Acted' && e.detail.signalId === signalId)
    ?.detail as { results?: { tsym?: string; alId?: string }[] } | undefined;

describe('docs/reference/signals.md examples, posted to the webhook', () => {
  it('example A: TradingView buy INFY at 1500 -> a BUY GTT of 1 NSE INFY-EQ, trigger and limit 1492.50', async () => {
    const url = await createStrategy({
      name: 'example-a',
      source: 'tradingview',
      action: {
        kind: 'gtt',
        order: { exch: 'NSE', prd: 'C', prctyp: 'LMT', ret: 'DAY', qty: 1 },
        trigger: { offset: '-0.5%' },
        price: { offset: '-0.5%' },
      },
    });
    const signalId = await alert(url, '{"action":"buy","ticker":"INFY","exchange":"NSE","price":1500}');
    expect(await placedAtBroker()).toMatchObject([
      { exch: 'NSE', tsym: 'INFY-EQ', trantype: 'B', qty: '1', ai_t: 'LTP_B_O', d: '1492.50', prc: '1492.50' },
    ]);
    expect(acted(signalId)?.results).toMatchObject([{ tsym: 'INFY-EQ', alId: expect.any(String) }]);
  });

  it('example B: a ChartInk scan of SBIN and ITC -> one GTT each, 800.50/802.10 and 410.00/410.80', async () => {
    const url = await createStrategy({
      name: 'example-b',
      source: 'chartink',
      action: {
        kind: 'gtt',
        order: { exch: 'NSE', prd: 'C', prctyp: 'LMT', ret: 'DAY', qty: 1, trantype: 'B' },
        trigger: { offset: '0' },
        price: { offset: '0.2%' },
      },
    });
    const signalId = await alert(
      url,
      JSON.stringify({
        stocks: 'SBIN,ITC',
        trigger_prices: '800.5,410',
        triggered_at: '2:34 pm',
        scan_name: 'Short term breakouts',
        scan_url: 'short-term-breakouts',
        alert_name: 'Alert for Short term breakouts',
      }),
    );
    expect(await placedAtBroker()).toMatchObject([
      { tsym: 'SBIN-EQ', trantype: 'B', qty: '1', d: '800.50', prc: '802.10' },
      { tsym: 'ITC-EQ', trantype: 'B', qty: '1', d: '410.00', prc: '410.80' },
    ]);
    expect(acted(signalId)?.results).toMatchObject([{ tsym: 'SBIN-EQ' }, { tsym: 'ITC-EQ' }]);
  });
});
