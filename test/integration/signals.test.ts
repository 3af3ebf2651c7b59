/**
 * Signals on loopback (functions/signals/, docs/reference/signals.md): strategies through the local API, alerts posted to the
 * webhook over real HTTP, the signal queue (local/sqs.ts) handing each message to the SignalWorker, dynalite, and
 * the outbox's events through the EventForwarder. The actor here records what it is asked to act on (the part that
 * acts has tests of its own): the proof is what reached it, and how often.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import type { SignalRecord } from '../../functions/base/schemas/signals.js';
import type { SignalActor } from '../../functions/signals/signal-actor.js';
import { createSignalWebhook } from '../../functions/signals/webhook.js';
import { lambdaContext } from '../../local/lambda-context.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { localApiReply } from '../support/local-api.js';
import { captureLogger } from '../support/logs.js';
import { GTT_STRATEGY_INPUT } from '../support/signals.js';

let stack: LocalStack;
let keys = 0;
const acted: SignalRecord[] = [];
/** Fails the first try of a signal whose alert names FLAKY, to show the queue delivers it again. */
const flaky = new Set<string>();
const actor: SignalActor = (signal) => {
  if (signal.alerts.some((a) => a.ticker === 'FLAKY') && !flaky.has(signal.signalId)) {
    flaky.add(signal.signalId);
    return Promise.reject(new Error('a transient failure'));
  }
  acted.push(signal);
  return Promise.resolve({
    state: 'acted',
    results: signal.alerts.map((a) => ({ ticker: a.ticker ?? '?', dryRun: true })),
  });
};

beforeAll(async () => {
  stack = await startLocalStack({ signals: { actor, retryDelayMs: 20 } });
});
afterAll(() => stack.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies read field by field
const api = localApiReply<Record<string, any>>(() => stack.api.url);

const strategy = async (overrides: Record<string, unknown> = {}) => {
  const res = await api(
    'POST',
    '/strategies',
    {
      name: 'test',
      ...GTT_STRATEGY_INPUT,
      ...overrides,
    },
    { 'Idempotency-Key': `signals-test-${++keys}` },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { strategyId: string; webhookUrl: string };
};

const post = (url: string, body: string, contentType = 'application/json') =>
  fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body }).then(async (res) => ({
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as Record<string, any>, // eslint-disable-line @typescript-eslint/no-explicit-any -- replies read field by field
  }));

const TV = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ action: 'BUY', ticker: 'INFY', exchange: 'NSE', price: 1500, ...extra });

/** A ChartInk strategy: ChartInk sends no side, so the strategy names it. */
const CHARTINK = {
  source: 'chartink',
  action: {
    kind: 'gtt',
    order: { exch: 'NSE', prd: 'C', qty: 1, trantype: 'B' },
    trigger: { offset: '0' },
    price: { offset: '0' },
  },
};

/** The API's payload v2 event of an alert posted to the webhook with `token` in its path. */
const webhookEvent = (token: string, body: string, contentType = 'text/plain') => ({
  version: '2.0',
  routeKey: 'POST /signals/{id}',
  rawPath: `/signals/${token}`,
  rawQueryString: '',
  headers: { 'content-type': contentType },
  pathParameters: { id: token },
  requestContext: {
    domainName: 'test.local',
    http: { method: 'POST', path: `/signals/${token}`, sourceIp: '127.0.0.1' },
    routeKey: 'POST /signals/{id}',
    stage: '$default',
  },
  body,
  isBase64Encoded: false,
});

const settled = async () => {
  await stack.signalQueue.drained();
  await stack.eventsForwarded();
};
const eventsOf = (signalId: string) =>
  stack.eventBridge.events.filter((e) => e.detail.signalId === signalId).map((e) => e['detail-type']);

describe('strategies', () => {
  it('POST answers the webhook URL once; GET never shows the token', async () => {
    const created = await strategy({ name: 'shown-once' });
    expect(created.strategyId).toMatch(/^st[0-9a-f]{16}$/);
    expect(created.webhookUrl).toMatch(new RegExp(`^${stack.api.url}/signals/[A-Za-z0-9_-]{43}$`));
    const token = created.webhookUrl.split('/').pop()!;
    const one = await api('GET', `/strategies/${created.strategyId}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ strategyId: created.strategyId, name: 'shown-once', mode: 'live' });
    const list = await api('GET', '/strategies');
    expect(list.body.strategies.map((s: { strategyId: string }) => s.strategyId)).toContain(created.strategyId);
    expect(JSON.stringify([one.body, list.body])).not.toContain(token);
    expect(JSON.stringify([one.body, list.body])).not.toContain('webhookUrl');
  });

  it('an unknown strategy is 404; a bad body 400 naming the field', async () => {
    expect((await api('GET', '/strategies/st0000000000000000')).body.error.code).toBe('STRATEGY_NOT_FOUND');
    const bad = await api(
      'POST',
      '/strategies',
      { name: 'x', source: 'fax', action: { kind: 'kill-switch' } },
      {
        'Idempotency-Key': `signals-test-${++keys}`,
      },
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.error.details)).toContain('source');
  });

  it('a rotated token stops at once; the new one works; a deleted strategy refuses its URL', async () => {
    const created = await strategy();
    const rotated = await api('POST', `/strategies/${created.strategyId}/token`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhookUrl).not.toBe(created.webhookUrl);
    const old = await post(created.webhookUrl, TV({ id: 'rot-1' }));
    expect(old.status).toBe(401);
    expect(old.body.error.code).toBe('SIGNAL_TOKEN_INVALID');
    expect((await post(rotated.body.webhookUrl as string, TV({ id: 'rot-2' }))).status).toBe(202);
    expect((await api('DELETE', `/strategies/${created.strategyId}`)).body).toEqual({
      strategyId: created.strategyId,
      deleted: true,
    });
    expect((await post(rotated.body.webhookUrl as string, TV({ id: 'rot-3' }))).status).toBe(401);
  });
});

describe('the webhook', () => {
  it('records, queues and acts once: 202, Signal Received then Signal Acted', async () => {
    const { webhookUrl, strategyId } = await strategy({ name: 'acts' });
    const res = await post(webhookUrl, TV({ id: 'acts-1' }));
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({ signalId: expect.stringMatching(/^sg[0-9a-f]{24}$/), state: 'received', alerts: 1 });
    await settled();
    const mine = acted.filter((s) => s.signalId === res.body.signalId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      strategyId,
      alerts: [{ side: 'B', ticker: 'INFY', exchange: 'NSE', price: '1500', id: 'acts-1' }],
    });
    expect(eventsOf(res.body.signalId as string)).toEqual(['Signal Received', 'Signal Acted']);
  });

  it('a wrong token is 401 with no detail; nothing is recorded or queued', async () => {
    const sent = stack.signalQueue.sent.length;
    const res = await post(`${stack.api.url}/signals/${'A'.repeat(43)}`, TV());
    expect(res.status).toBe(401);
    expect(res.body.error.message).not.toContain('A'.repeat(43));
    expect((await post(`${stack.api.url}/signals/short`, TV())).status).toBe(401);
    expect(stack.signalQueue.sent.length).toBe(sent);
  });

  it('a body over 8 KiB is 413', async () => {
    const { webhookUrl } = await strategy();
    const res = await post(webhookUrl, TV({ note: 'x'.repeat(9_000) }));
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a strategy over its rate is 429 with Retry-After', async () => {
    const { webhookUrl } = await strategy({ ratePerMinute: 2 });
    // Five at a limit of two: even split by a minute's end, one side holds three.
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push(await post(webhookUrl, TV({ id: `rate-${i}` })));
    const limited = replies.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited[0]!.body.error.code).toBe('RATE_LIMITED');
  });

  it('the same alert twice is acted on once: 200 with the first signal and duplicate: true', async () => {
    const { webhookUrl } = await strategy();
    const first = await post(webhookUrl, TV({ id: 'dup-1' }));
    const again = await post(webhookUrl, TV({ id: 'dup-1', price: 1501 }));
    const body = TV({ ticker: 'TCS' });
    const third = await post(webhookUrl, body);
    const fourth = await post(webhookUrl, body);
    expect(first.status).toBe(202);
    expect(again).toMatchObject({ status: 200, body: { signalId: first.body.signalId, duplicate: true } });
    expect(fourth).toMatchObject({ status: 200, body: { signalId: third.body.signalId, duplicate: true } });
    await settled();
    expect(acted.filter((s) => s.signalId === first.body.signalId)).toHaveLength(1);
    expect(acted.filter((s) => s.signalId === third.body.signalId)).toHaveLength(1);
  });

  it('the allowlist refuses other addresses (403) and takes its own', async () => {
    const closed = await strategy({ allowIps: ['10.1.2.3'] });
    const tradingview = await strategy({ allowIps: 'tradingview' });
    const open = await strategy({ allowIps: ['127.0.0.1'] });
    expect((await post(closed.webhookUrl, TV())).status).toBe(403);
    expect((await post(tradingview.webhookUrl, TV())).status).toBe(403);
    expect((await post(open.webhookUrl, TV())).status).toBe(202);
  });

  it("reads TradingView's text/plain body", async () => {
    const { webhookUrl } = await strategy();
    const res = await post(
      webhookUrl,
      '{"action":"sell","ticker":"SBIN","price":"800.5"}',
      'text/plain; charset=utf-8',
    );
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await settled();
    expect(acted.find((s) => s.signalId === res.body.signalId)?.alerts).toEqual([
      { side: 'S', ticker: 'SBIN', price: '800.5' },
    ]);
  });

  it("reads ChartInk's body as one alert per stock", async () => {
    const { webhookUrl } = await strategy(CHARTINK);
    const res = await post(
      webhookUrl,
      JSON.stringify({
        stocks: 'SBIN,ITC',
        trigger_prices: '800.5,410',
        triggered_at: '2:34 pm',
        scan_name: 'Short term breakouts',
        scan_url: 'short-term-breakouts',
        alert_name: 'Alert for Short term breakouts',
        webhook_url: webhookUrl,
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.alerts).toBe(2);
    await settled();
    expect(acted.find((s) => s.signalId === res.body.signalId)?.alerts).toEqual([
      { ticker: 'SBIN', price: '800.5' },
      { ticker: 'ITC', price: '410' },
    ]);
  });

  it('a body it cannot read is 400 naming the fields and the shape, and a Signal Refused', async () => {
    const { webhookUrl, strategyId } = await strategy();
    const res = await post(webhookUrl, JSON.stringify({ action: 'hold', price: 'cheap' }));
    expect(res.status).toBe(400);
    const fields = (res.body.error.details as { field: string }[]).map((d) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['action', 'price']));
    expect(res.body.error.message).toContain('"action": "buy" | "sell"');
    const notJson = await post(webhookUrl, 'buy INFY now', 'text/plain');
    expect(notJson.status).toBe(400);
    await stack.eventsForwarded();
    const refused = stack.eventBridge.events.filter(
      (e) => e['detail-type'] === 'Signal Refused' && e.detail.strategyId === strategyId,
    );
    expect(refused).toHaveLength(2);
    expect(refused[0]!.detail).toMatchObject({ code: 'VALIDATION_FAILED', source: 'tradingview' });
    expect(String(refused[0]!.detail.reason)).toContain('action must be buy or sell');
  });

  it('a message the worker failed on is delivered again and completed once', async () => {
    const { webhookUrl } = await strategy();
    const res = await post(webhookUrl, TV({ ticker: 'FLAKY', id: 'flaky-1' }));
    expect(res.status).toBe(202);
    await settled();
    expect(flaky.has(res.body.signalId as string)).toBe(true);
    expect(acted.filter((s) => s.signalId === res.body.signalId)).toHaveLength(1);
    expect(eventsOf(res.body.signalId as string)).toEqual(['Signal Received', 'Signal Acted']);
    expect(stack.signalQueue.deadLetters).toEqual([]);
  });
});

describe('what the webhook logs', () => {
  it('never the token; the body only as a bounded preview', async () => {
    const { webhookUrl } = await strategy();
    const token = webhookUrl.split('/').pop()!;
    const captured = captureLogger();
    const webhook = createSignalWebhook({ env: stack.config as Record<string, string>, logger: captured.logger });
    const event = (body: string, pathToken = token) => webhookEvent(pathToken, body);
    const long = TV({ id: 'log-1', note: 'n'.repeat(2_000) });
    const ok = (await webhook(event(long), lambdaContext('SignalWebhook'))) as { statusCode: number };
    expect(ok.statusCode).toBe(202);
    const wrong = (await webhook(event(long, 'B'.repeat(43)), lambdaContext('SignalWebhook'))) as {
      statusCode: number;
    };
    expect(wrong.statusCode).toBe(401);
    const text = captured.lines.join('\n');
    expect(text).toContain('signal received');
    expect(text).not.toContain(token);
    expect(text).not.toContain('B'.repeat(43));
    expect(text).not.toContain('n'.repeat(300));
  });

  it("no part of the token is stored or logged, whatever field carries it (ChartInk's webhook_url)", async () => {
    const { webhookUrl } = await strategy(CHARTINK);
    const token = webhookUrl.split('/').pop()!;
    const captured = captureLogger();
    const webhook = createSignalWebhook({ env: stack.config as Record<string, string>, logger: captured.logger });
    // ChartInk sends its own webhook_url first; a trader may paste the URL, or most of the token, anywhere else.
    const body = JSON.stringify({
      webhook_url: webhookUrl,
      stocks: 'SBIN',
      trigger_prices: '800.5',
      triggered_at: '2:34 pm',
      scan_name: `copied ${token.slice(0, 37)}`,
      scan_url: 'breakouts',
      alert_name: `see ${webhookUrl.slice(0, -6)}`,
    });
    const reply = (await webhook(webhookEvent(token, body, 'application/json'), lambdaContext('SignalWebhook'))) as {
      statusCode: number;
      body: string;
    };
    expect(reply.statusCode, reply.body).toBe(202);
    const { signalId } = JSON.parse(reply.body) as { signalId: string };
    await settled();
    const stored = acted.find((s) => s.signalId === signalId);
    expect(stored?.alerts).toEqual([{ ticker: 'SBIN', price: '800.5' }]);
    const seen = [captured.lines.join('\n'), JSON.stringify(stored)];
    expect(seen[0]).toContain('signal received');
    expect(stored?.preview).toContain('/signals/<redacted>');
    // Not one run of 8 of the token's characters anywhere.
    for (const text of seen)
      for (let i = 0; i + 8 <= token.length; i++) expect(text).not.toContain(token.slice(i, i + 8));
  });
});

describe('the command line', () => {
  it('strategy-create prints the URL once; signal-test posts a sample alert to it; rotate and delete', async () => {
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
    const gtt = (...args: string[]) => main([...args, '--url', stack.api.url], {}, io);
    const body = { name: 'cli', ...CHARTINK };
    expect(await gtt('strategy-create', '--body', JSON.stringify(body), '--mode', 'paper'), out.join('\n')).toBe(0);
    const created = out.pop()!;
    const strategyId = /st[0-9a-f]{16}/.exec(created)![0];
    const url = /(http\S+\/signals\/[A-Za-z0-9_-]{43})/.exec(created)![1]!;
    expect(created).toContain('paper');
    expect(await gtt('strategies')).toBe(0);
    expect(out.pop()).toContain(strategyId);
    expect(await gtt('strategy', strategyId)).toBe(0);
    expect(out.pop()).not.toContain(url.split('/').pop()!);

    expect(await gtt('signal-test', strategyId, '--webhook-url', url), out.join('\n')).toBe(0);
    const sent = out.pop()!;
    expect(sent).toMatch(/^sent \{"stocks":"INFY"/);
    expect(sent).toMatch(/HTTP 202 \{"signalId":"sg[0-9a-f]{24}"/);
    await settled();
    const signalId = /sg[0-9a-f]{24}/.exec(sent)![0];
    expect(acted.find((s) => s.signalId === signalId)?.alerts).toEqual([{ ticker: 'INFY', price: '1500' }]);

    expect(await gtt('strategy-rotate', strategyId)).toBe(0);
    expect(out.pop()).not.toContain(url);
    expect(await gtt('signal-test', strategyId, '--webhook-url', url)).toBe(3);
    expect(out.pop()).toContain('HTTP 401');
    expect(await gtt('strategy-delete', strategyId)).toBe(0);
    expect(out.pop()).toBe(`deleted ${strategyId}`);
    expect(await gtt('strategy', strategyId)).toBe(3);
    expect(await gtt('signal-test', strategyId, '--webhook-url', 'https://example.com/x')).not.toBe(0);
  });
});
