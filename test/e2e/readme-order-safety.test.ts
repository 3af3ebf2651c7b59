/** The README's order-safety block against `GUARDRAIL_MAX_QTY=100 npm start`, exactly as written but for the port. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readmeBlock, READY_BOUND_MS, type Started, startNpmStart } from '../support/processes.js';

const run = promisify(execFile);
let started: Started;

beforeAll(async () => {
  started = await startNpmStart([], {
    GUARDRAIL_MAX_QTY: '100',
  });
});
afterAll(async () => {
  await started?.stop();
});

describe('README: idempotency, guardrails and dry run against npm start', () => {
  it('replays, refuses reuse and missing keys, enforces the guardrail, and dry-runs', async () => {
    const script = readmeBlock('safety').replace('API=http://127.0.0.1:3000', `API=${started.match[1]!}`);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { timeout: READY_BOUND_MS });
    const replies = stdout
      .trim()
      .split('\n')
      .map((line) => {
        const at = line.lastIndexOf(' ');
        return { body: JSON.parse(line.slice(0, at)) as Record<string, any>, status: Number(line.slice(at + 1)) }; // eslint-disable-line @typescript-eslint/no-explicit-any -- arbitrary JSON replies
      });
    const [first, retry, reuse, noKey, guard, dry] = replies;
    expect(replies).toHaveLength(6);
    expect(first).toMatchObject({
      status: 201,
      body: { stat: 'OI created', idempotency: { key: 'safety-demo-1', replayed: false } },
    });
    expect(retry).toMatchObject({ status: 201, body: { al_id: first!.body.al_id, idempotency: { replayed: true } } });
    expect(reuse).toMatchObject({ status: 422, body: { error: { code: 'IDEMPOTENCY_KEY_REUSED' } } });
    expect(noKey).toMatchObject({
      status: 400,
      body: { error: { code: 'VALIDATION_FAILED', details: [{ field: 'Idempotency-Key' }] } },
    });
    expect(guard).toMatchObject({
      status: 422,
      body: { error: { code: 'GUARDRAIL_REJECTED', details: { rule: 'maxQty', limit: '100' } } },
    });
    expect(dry).toMatchObject({
      status: 200,
      body: { dryRun: true, request: { jData: { tsym: 'L%26TFH-EQ', qty: '75' } } },
    });
    expect(started.output()).toMatch(/Settings\s+\{"GUARDRAIL_MAX_QTY":"100"\}/);
    expect(started.output()).toMatch(/Guardrails\s+max qty 100; max order value 2500000 /);
  });

  it('refuses a bad setting at start with a clear message', async () => {
    await expect(
      run(process.execPath, ['--import', 'tsx', 'local/start.ts', '--port', '0'], {
        env: { ...process.env, GUARDRAIL_MAX_QTY: 'lots' },
        timeout: READY_BOUND_MS,
      }),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/GUARDRAIL_MAX_QTY must be a positive whole number/),
    });
  });
});
