/**
 * Under `npm start` every function runs in one process. The watcher's, the OAuth function's and the TOTP renewal's
 * log lines must carry their own function name and a request id of their own invocation, not those of the gateway
 * handler that ran last (which put its context on the function set's logger).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { logger } from '../../functions/base/runtime/logger.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
const lines: string[] = [];

beforeAll(async () => {
  // The function set's logger and every logger made from here on write INFO lines (the suite's default is SILENT).
  logger.setLogLevel('INFO');
  vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
  // A classic (TOTP) deployment, so the scheduled renewal is one of its functions.
  stack = await startLocalStack({ sessionRenewal: true });
  vi.unstubAllEnvs();
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
});
afterAll(async () => {
  vi.restoreAllMocks();
  logger.setLogLevel('SILENT');
  await stack?.close();
});

/** The JSON log lines with this message. */
const logged = (message: string) =>
  lines
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.message === message);

describe('local log context', () => {
  it('watcher, OAuth and renewal lines name their own function and invocation, not the last gateway handler', async () => {
    expect(await stack.watch()).toMatchObject({ status: 'baseline' });
    const placed = await fetch(`${stack.api.url}/gtt-orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Idempotency-Key': 'log-context-1' },
      body: JSON.stringify(SAMPLE_ORDER),
    });
    expect(placed.status).toBe(201);
    const placeLines = logged('operation succeeded');
    expect(placeLines.at(-1)).toMatchObject({ function_name: 'PlaceGTTOrder' });
    const placeRequest = placeLines.at(-1)!.function_request_id;

    await stack.watch();
    await stack.watch();
    const runs = logged('watcher run');
    expect(runs.length).toBeGreaterThanOrEqual(2);
    for (const run of runs) expect(run).toMatchObject({ function_name: 'GttWatcher' });
    const ids = runs.map((r) => r.function_request_id);
    expect(ids).not.toContain(placeRequest);
    expect(new Set(ids).size).toBe(ids.length);

    expect(await stack.renew()).toMatchObject({ stat: 'Ok', method: 'totp' });
    expect(logged('session renewed').at(-1)).toMatchObject({ function_name: 'SessionRenewal' });
    expect(logged('session renewed').at(-1)!.function_request_id).not.toBe(placeRequest);

    expect((await fetch(`${stack.api.url}/session/oauth/start`)).status).toBe(200);
    const oauth = logged('request').at(-1);
    expect(oauth).toMatchObject({
      function_name: 'OAuthCallback',
      access: { route: expect.stringContaining('/session/oauth/start') },
    });
    expect(oauth!.function_request_id).not.toBe(placeRequest);
  });
});
