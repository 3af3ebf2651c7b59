/** `npm run emulator` as a user runs it, then the README's raw jData curl lines against it. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readmeBlock, READY_BOUND_MS, type Started, startScript } from '../support/processes.js';

const run = promisify(execFile);
const TOKEN = 'e2e-emulator-token-0001';
let started: Started;

beforeAll(async () => {
  started = await startScript(
    'emulator/main.ts',
    ['--port', '0', '--token', TOKEN],
    /listening on (http:\/\/127\.0\.0\.1:\d+)[\s\S]*session token \S+\n/,
  );
});

afterAll(async () => {
  await started?.stop();
});

describe('README: npm run emulator and its curl lines', () => {
  it('prints the demo account and token', () => {
    expect(started.output()).toMatch(/uid DEMO01\s+actid DEMO01/);
    expect(started.output()).toContain(`session token ${TOKEN}`);
  });

  it('places, lists, modifies, cancels and logs out over the jData wire format', async () => {
    const script = readmeBlock('emulator')
      .replace('E=http://127.0.0.1:9100', `E=${started.match[1]!}`)
      .replace('T=put-the-printed-token-here', `T=${TOKEN}`);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { timeout: READY_BOUND_MS });
    const [placed, listed, modified, cancelled, loggedOut] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown> & { al_id: string });
    expect(placed).toMatchObject({ stat: 'OI created' });
    expect(listed).toEqual([expect.objectContaining({ al_id: placed!.al_id, tsym: 'M&M-EQ', qty: 1 })]);
    expect(modified).toMatchObject({ stat: 'OI replaced', al_id: placed!.al_id });
    expect(cancelled).toMatchObject({ stat: 'OI deleted', al_id: placed!.al_id });
    expect(loggedOut).toMatchObject({ stat: 'Ok' });
  });

  it('refuses bad flags with a clear message and exit code 2', async () => {
    await expect(run(process.execPath, ['--import', 'tsx', 'emulator/main.ts', '--port', 'abc'])).rejects.toMatchObject(
      {
        code: 2,
        stderr: expect.stringMatching(/--port must be a whole number/),
      },
    );
  });
});
