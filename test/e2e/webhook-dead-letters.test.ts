/**
 * `NOTIFY_WEBHOOK_URL=<url> npm start` with a webhook that keeps failing: the event is not dropped after the last
 * attempt; npm start says it gave up and where it kept it, and the dead-letter file holds the event.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Listening, listenOnLoopback } from '../../local/loopback.js';
import { READY_BOUND_MS, type Started, startScript, waitUntil } from '../support/processes.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let started: Started;
let receiver: Listening;
let attempts = 0;
const dir = mkdtempSync(join(tmpdir(), 'gtt-e2e-dead-letters-'));
const file = join(dir, 'dead-letters.jsonl');

beforeAll(async () => {
  receiver = await listenOnLoopback(
    http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        attempts++;
        res.writeHead(503).end();
      });
    }),
  );
  started = await startScript(
    'local/start.ts',
    ['--port', '0', '--watch-interval', '0', '--dead-letters', file],
    /gtt-gateway local API\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Login on loopback[\s\S]*session --url/,
    READY_BOUND_MS,
    { NOTIFY_WEBHOOK_URL: `${receiver.url}/hook`, NOTIFY_ON: 'all' },
  );
});

afterAll(async () => {
  await started?.stop();
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm start with a failing webhook', () => {
  it('keeps the undelivered event as a dead letter and says so', async () => {
    expect(started.output()).toContain(`Webhook dead letters    ${file}`);
    const [, api] = started.match;
    const placed = await fetch(`${api}/gtt-orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Idempotency-Key': 'e2e-dead-1' },
      body: JSON.stringify(SAMPLE_ORDER),
    });
    expect(placed.status).toBe(201);
    const alId = String(((await placed.json()) as { al_id: string }).al_id);
    // Five attempts with backoff (about 3 s), then the dead letter: waited for.
    await waitUntil(
      () => /gave up on GTT Placed/.test(started.output()),
      () => `no dead letter reported:\n${started.output()}`,
    );
    expect(started.output()).toMatch(
      new RegExp(
        `webhook: gave up on GTT Placed \\S+ after 5 attempt\\(s\\) \\(HTTP 503\\): kept as a dead letter in ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
      ),
    );
    expect(attempts).toBe(5);
    const letters = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { event: { 'detail-type': string; detail: { al_id: string } }; attempts: number },
      );
    expect(letters).toEqual([
      expect.objectContaining({
        attempts: 5,
        event: expect.objectContaining({
          'detail-type': 'GTT Placed',
          detail: expect.objectContaining({ al_id: alId }),
        }),
      }),
    ]);
  });
});
