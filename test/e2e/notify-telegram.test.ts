/**
 * A preview of the deployed Telegram notification under npm start: `NOTIFY_FORMAT=telegram NOTIFY_TELEGRAM_CHAT_ID=...
 * NOTIFY_WEBHOOK_URL=<loopback> npm start` with the default NOTIFY_ON. The loopback receiver gets `{chat_id, text}`
 * bodies built by the same builder as the stack's formatter for the fired GTT and its order, and nothing for
 * GTT Placed (not in the default list). The webhook delivers in order, one at a time, so once GTT Triggered arrived
 * a forwarded GTT Placed (published before it) would already be there.
 */
import { spawnSync } from 'node:child_process';
import http from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Listening, listenOnLoopback } from '../../local/loopback.js';
import { READY_BOUND_MS, type Started, startScript, waitUntil } from '../support/processes.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let started: Started;
let receiver: Listening;
const received: Record<string, unknown>[] = [];

beforeAll(async () => {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  receiver = await listenOnLoopback(server);
  started = await startScript(
    'local/start.ts',
    ['--port', '0', '--watch-interval', '1'],
    /gtt-gateway local API\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*broker emulator\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Login on loopback[\s\S]*session --url/,
    READY_BOUND_MS,
    {
      NOTIFY_WEBHOOK_URL: `${receiver.url}/bot123:TEST/sendMessage`,
      NOTIFY_FORMAT: 'telegram',
      NOTIFY_TELEGRAM_CHAT_ID: '-1001234',
    },
  );
});

afterAll(async () => {
  await started?.stop();
  await receiver?.close();
});

const texts = () => received.map((body) => String(body.text));
const waitFor = (what: () => boolean) =>
  waitUntil(what, () => `received ${JSON.stringify(texts())}\n${started.output()}`);

describe('npm start with NOTIFY_FORMAT=telegram', () => {
  it('the webhook gets a Telegram message for the fired GTT and its fill, and nothing for GTT Placed', async () => {
    const [, api, emulator] = started.match;
    expect(started.output()).toMatch(
      /Webhook format, events +telegram: GTT Triggered, Order Filled, Order Rejected, Order Cancelled, GTT Removed, Session Expired, Kill Switch/,
    );
    const placed = await fetch(`${api}/gtt-orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Idempotency-Key': 'e2e-notify-1' },
      body: JSON.stringify({ ...SAMPLE_ORDER, qty: 2 }),
    });
    expect(placed.status).toBe(201);
    const alId = String(((await placed.json()) as { al_id: string }).al_id);
    await waitFor(() => /event +GTT Placed +al_id=/.test(started.output()));

    await fetch(`${emulator}/_emulator/ltp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ exch: 'NSE', tsym: 'M&M-EQ', ltp: 1480 }),
    });
    await waitFor(() => texts().some((t) => t.startsWith('Order Filled')));
    for (const body of received) expect(Object.keys(body).sort()).toEqual(['chat_id', 'text']);
    expect(received.every((body) => body.chat_id === '-1001234')).toBe(true);
    expect(texts()[0]).toMatch(
      new RegExp(
        `^GTT Triggered: Buy 2 NSE:M&M-EQ @ 1500 LMT fired at 1490\\nstatus TRIGGERED.*\\nal_id ${alId} · \\(watcher\\)$`,
      ),
    );
    expect(texts().find((t) => t.startsWith('Order Filled'))).toMatch(
      new RegExp(`^Order Filled: Buy 2 NSE:M&M-EQ\\norder \\d+ filled 2 @ [\\d.]+\\nal_id ${alId} · \\(watcher\\)$`),
    );
    expect(texts().filter((t) => t.startsWith('GTT Placed'))).toEqual([]);
    // The bot token in the URL never travels in a message.
    expect(JSON.stringify(received)).not.toContain('123:TEST');
  });
});

describe('npm start with a bad notification setting', () => {
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'local/start.ts', '--port', '0'], {
      env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT', NOTIFY_WEBHOOK_URL: 'http://127.0.0.1:9/hook', ...env },
      encoding: 'utf8',
      timeout: READY_BOUND_MS,
    });

  it('refuses a NOTIFY_ON name that is no detail-type, in one line listing them, and a Telegram format without a chat id', () => {
    const badName = run({ NOTIFY_ON: 'GTT Triggered,Order Filed' });
    expect(badName.status).toBe(2);
    expect(badName.stderr.trim()).toMatch(
      /^NOTIFY_ON names no detail-type "Order Filed": use a comma-separated list of GTT Placed, [^\n]* \(or all\)$/,
    );
    const noChat = run({ NOTIFY_FORMAT: 'telegram' });
    expect(noChat.status).toBe(2);
    expect(noChat.stderr).toMatch(/NOTIFY_TELEGRAM_CHAT_ID is required with NOTIFY_FORMAT=telegram/);
  });
});
