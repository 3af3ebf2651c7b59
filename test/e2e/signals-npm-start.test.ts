/**
 * Issue 35's two examples as a trader meets them: `npm start` as a user runs it, the strategies created over its HTTP
 * API, then the exact bodies TradingView (as text/plain, which it sends when the alert message is typed in) and
 * ChartInk post to the webhook URL the strategy answered. The GTTs are read back through `GET /gtt-orders`, as the
 * trader would read them. The SignalWorker's sweep runs on its schedule there too, and on request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Started, startNpmStart, waitUntil } from '../support/processes.js';

let started: Started;
let api: string;

beforeAll(async () => {
  started = await startNpmStart();
  api = started.match[1]!;
});

afterAll(async () => {
  await started?.stop();
});

interface Pending {
  tsym: string;
  trantype: string;
  qty: string | number;
  d: string;
  prc: string;
}

const createStrategy = async (key: string, body: unknown): Promise<string> => {
  const res = await fetch(`${api}/strategies`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify(body),
  });
  const created = (await res.json()) as { webhookUrl: string };
  expect(res.status, JSON.stringify(created)).toBe(201);
  expect(created.webhookUrl.startsWith(`${api}/signals/`)).toBe(true);
  return created.webhookUrl;
};

/** The pending GTTs of these symbols once the worker acted (it runs off the request path): waited for. */
const pendingOf = async (symbols: string[], count: number): Promise<Pending[]> => {
  let orders: Pending[] = [];
  await waitUntil(
    async () => {
      const res = await fetch(`${api}/gtt-orders`);
      const list = (await res.json()) as { orders?: Pending[] } | Pending[];
      orders = (Array.isArray(list) ? list : (list.orders ?? [])).filter((o) => symbols.includes(o.tsym));
      return orders.length >= count;
    },
    () => `${orders.length} of ${count} pending GTTs of ${symbols.join(', ')}`,
  );
  return orders;
};

describe('signals under npm start', () => {
  it('example A: a TradingView text/plain alert places a BUY GTT of 1 INFY-EQ at 1492.50', async () => {
    const url = await createStrategy('e2e-dip-buy', {
      name: 'dip-buy',
      source: 'tradingview',
      action: {
        kind: 'gtt',
        order: { exch: 'NSE', prd: 'C', prctyp: 'LMT', ret: 'DAY', qty: 1 },
        trigger: { offset: '-0.5%' },
        price: { offset: '-0.5%' },
      },
    });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: '{"action":"buy","ticker":"INFY","exchange":"NSE","price":1500}',
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ signalId: expect.any(String) });
    const [gtt] = await pendingOf(['INFY-EQ'], 1);
    expect(gtt).toMatchObject({ tsym: 'INFY-EQ', trantype: 'B', d: '1492.50', prc: '1492.50' });
    expect(Number(gtt!.qty)).toBe(1);
  });

  it("example B: ChartInk's own body places one GTT per stock", async () => {
    const url = await createStrategy('e2e-breakouts', {
      name: 'breakouts',
      source: 'chartink',
      action: {
        kind: 'gtt',
        order: { exch: 'NSE', prd: 'C', prctyp: 'LMT', ret: 'DAY', qty: 1, trantype: 'B' },
        trigger: { offset: '0' },
        price: { offset: '0.2%' },
      },
    });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        stocks: 'SBIN,ITC',
        trigger_prices: '800.5,410',
        triggered_at: '2:34 pm',
        scan_name: 'Short term breakouts',
        scan_url: 'short-term-breakouts',
        alert_name: 'Alert for Short term breakouts',
        webhook_url: url,
      }),
    });
    expect(res.status).toBe(202);
    const orders = await pendingOf(['SBIN-EQ', 'ITC-EQ'], 2);
    expect(orders.map((o) => [o.tsym, o.trantype, o.d, o.prc]).sort()).toEqual([
      ['ITC-EQ', 'B', '410.00', '410.80'],
      ['SBIN-EQ', 'B', '800.50', '802.10'],
    ]);
  });

  it("announces the SignalWorker's sweep, and runs it at POST /_local/run/SignalWorker with its schedule's payload", async () => {
    expect(started.output()).toMatch(/Signal sweep\s+every 60 s/);
    expect(started.output()).toMatch(/POST\s+\/_local\/run\/SignalWorker\s+SignalWorker now/);
    const res = await fetch(`${api}/_local/run/SignalWorker`, { method: 'POST' });
    const body = (await res.json()) as Record<string, unknown>;
    // The queue delivered every signal above: nothing is pending two minutes after its receipt.
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toEqual({
      acted: [],
      refused: [],
      alreadyDone: [],
      unknown: [],
      notNow: [],
      abandoned: [],
      more: false,
    });
    // A direct invocation that is not the schedule's payload is refused, as Lambda's Invoke reports it.
    const other = await fetch(`${api}/_invoke/SignalWorker`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sweep: 'yes' }),
    });
    expect(other.headers.get('x-amz-function-error')).toBe('Unhandled');
    expect(await other.json()).toMatchObject({ errorType: 'ValidationFailed' });
  });
});
