/**
 * `npm run workflow` as a user runs it: `npm start` as a child process, then the example state machine run locally
 * against it (infra/scripts/run-workflow.ts) as its own child process: the order placed under the execution name, the same
 * name again replayed, an OCO input placed beside it, a bad input refused before anything is sent, an expired
 * session caught into the Fail state, and no run against a URL that is not a local API.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { emulatorControl } from '../support/emulator-control.js';
import { readmeBlock, READY_BOUND_MS, type Started, startScript } from '../support/processes.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
let started: Started;
let baseUrl: string;
let emulatorUrl: string;
const TOKEN = 'wf-e2e-demo-token-0123456789';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const workflow = (args: string[], url?: string): Promise<Run> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'infra/scripts/run-workflow.ts', ...args, '--url', url ?? baseUrl],
      { timeout: READY_BOUND_MS, env: { ...process.env, GTT_API_URL: '' } },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : -1) : 0,
          stdout: stdout.toString(),
          stderr: stderr.toString(),
        }),
    );
  });

const order = SAMPLE_ORDER;
const oco = {
  exch: 'NSE',
  tsym: 'INFY-EQ',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1598', prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1390', prd: 'C' } },
};

type Output = {
  placed: { al_id: string; idempotency: { key: string; replayed: boolean } };
  ocoPlaced?: { al_id: string; idempotency: unknown };
  pending: { orders: { al_id: string }[] };
};

beforeAll(async () => {
  started = await startScript(
    'local/start.ts',
    ['--port', '0', '--watch-interval', '0', '--token', TOKEN],
    /gtt-gateway local API\s+(http:\/\/127\.0\.0\.1:\d+)\s+broker emulator\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Try:/,
  );
  baseUrl = started.match[1]!;
  emulatorUrl = started.match[2]!;
});

afterAll(async () => {
  await started?.stop();
});

// Each run is a child process of its own (about 2 s): more than the default 20 s per test under a loaded machine.
describe('npm run workflow against npm start', () => {
  it('places the order keyed by the execution name and lists it; the same name again replays', async () => {
    const first = await workflow([JSON.stringify({ order }), '--name', 'wf-e2e-1']);
    expect(first.code).toBe(0);
    const output = JSON.parse(first.stdout) as Output;
    expect(output.placed.idempotency).toEqual({ key: 'wf-e2e-1', replayed: false });
    expect(output.pending.orders.map((o) => o.al_id)).toContain(output.placed.al_id);
    expect(first.stderr).toMatch(/ok {6}Place GTT order\n {2}ok {6}OCO requested\?\n {2}ok {6}List pending GTT orders/);
    const again = await workflow([JSON.stringify({ order }), '--name', 'wf-e2e-1']);
    expect((JSON.parse(again.stdout) as Output).placed).toMatchObject({
      al_id: output.placed.al_id,
      idempotency: { replayed: true },
    });
    // The replay is visible: not the same ok lines as the first run.
    expect(again.stderr).toMatch(/ {2}replayed Place GTT order \(the key's first answer: nothing sent again\)\n/);
    expect(again.stderr).not.toMatch(/ok {6}Place GTT order/);
    expect(again.stderr).toMatch(/succeeded, replayed: 1 task\(s\) answered from the first run of wf-e2e-1/);
  });

  it('places the protective OCO too when the input has one', async () => {
    const run = await workflow([JSON.stringify({ order, oco }), '--name', 'wf-e2e-oco']);
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout) as Output;
    expect(output.ocoPlaced?.idempotency).toEqual({ key: 'wf-e2e-oco-oco', replayed: false });
    expect(output.pending.orders.map((o) => o.al_id)).toContain(output.ocoPlaced?.al_id);
  });

  it('refuses an input outside the schema before anything runs, naming the fields (exit 2)', async () => {
    const before = (await (await fetch(`${baseUrl}/gtt-orders`)).json()) as { orders: unknown[] };
    const run = await workflow([JSON.stringify({ order: { ...order, qty: -1, exch: undefined } })]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^workflow: the input does not fit docs\/workflow\/input\.schema\.json: .*order\.exch.*order\.qty/,
    );
    expect(run.stdout).toBe('');
    expect(((await (await fetch(`${baseUrl}/gtt-orders`)).json()) as { orders: unknown[] }).orders).toHaveLength(
      before.orders.length,
    );
    expect((await workflow(['not json'])).stderr).toMatch(/the input is not JSON/);
  });

  it('docs/how-to/step-functions-workflow.md: the block, as written but for the port', async () => {
    const script = readmeBlock('workflow').replace('http://127.0.0.1:3000', baseUrl);
    const { stdout, stderr } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: ROOT,
      timeout: READY_BOUND_MS,
    });
    const outputs = stdout.split(/\n(?=\{)/).map((text) => JSON.parse(text) as Output);
    expect(outputs.map((o) => o.placed.idempotency)).toEqual([
      { key: 'mm-dip-1', replayed: false },
      { key: 'mm-dip-1', replayed: true },
      { key: 'mm-dip-2', replayed: false },
    ]);
    expect(stderr.match(/^succeeded/gm)).toHaveLength(3);
  });

  it('runs only against a local API', async () => {
    const run = await workflow([JSON.stringify({ order })], 'https://a1b2c3d4e5.execute-api.ap-south-1.amazonaws.com');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is not a local API.*StartExecutionCommand/);
    const down = await workflow([JSON.stringify({ order })], 'http://127.0.0.1:9');
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/no local API at http:\/\/127\.0\.0\.1:9 .*npm start/);
  });
  it('an expired session is caught into the Fail state that says what to do (exit 1); last, as it ends the session', async () => {
    await emulatorControl(emulatorUrl).expire(TOKEN);
    const run = await workflow([JSON.stringify({ order }), '--name', 'wf-e2e-expired']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/caught {2}Place GTT order/);
    expect(run.stderr).toMatch(/failed: .*Store a fresh broker access token/);
    expect(run.stderr).not.toContain(TOKEN);
  });
});
