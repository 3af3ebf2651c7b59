/**
 * `npm run emulator` as a user starts it (a child process): with the login flags it prints the credentials it was
 * given and logs in with them; with `--dialect` it speaks that dialect; bad flags exit with code 2. The emulator's
 * behaviour over HTTP is in test/contract/ (its dialects in emulator-dialect.test.ts).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { control, send, sha256, totpNow } from '../contract/jdata-client.js';
import { type Started, startScript } from '../support/processes.js';

const run = promisify(execFile);
const SEED = 'JBSWY3DPEHPK3PXPJBSWY3DP';
let started: Started;

beforeAll(async () => {
  started = await startScript(
    'emulator/main.ts',
    [
      '--port',
      '0',
      '--password',
      'cli-password',
      '--totp-seed',
      SEED,
      '--api-secret',
      'cli-api-secret',
      '--oauth-secret',
      'cli-oauth-secret',
      '--oauth-redirect-url',
      'http://127.0.0.1:1/cb',
    ],
    /listening on (http:\/\/127\.0\.0\.1:\d+)[\s\S]*login page \S+\n/,
  );
});
afterAll(async () => {
  await started?.stop();
});

describe('emulator CLI: login flags', () => {
  it('prints the QuickAuth credentials and the OAuth app', () => {
    expect(started.output()).toMatch(
      /QuickAuth\s+password cli-password\s+totp seed JBSWY3DPEHPK3PXPJBSWY3DP\s+api secret cli-api-secret/,
    );
    expect(started.output()).toMatch(
      /OAuth app\s+client id DEMO01_U\s+secret cli-oauth-secret\s+redirect http:\/\/127\.0\.0\.1:1\/cb/,
    );
  });

  it('logs in with them', async () => {
    const url = started.match[1]!;
    const fields = {
      source: 'API',
      apkversion: '1.0.0',
      uid: 'DEMO01',
      pwd: sha256('cli-password'),
      factor2: totpNow(SEED),
      vc: 'DEMO01_U',
      appkey: sha256('DEMO01|cli-api-secret'),
      imei: 'cli',
    };
    expect((await send(url, '/NorenWClientTP/QuickAuth', `jData=${JSON.stringify(fields)}`)).body).toMatchObject({
      stat: 'Ok',
    });
    expect(await control(url, 'GET', 'oauth')).toEqual({
      status: 200,
      body: { clientId: 'DEMO01_U', redirectUrl: 'http://127.0.0.1:1/cb' },
    });
  });

  it('refuses a weak password with exit code 2', async () => {
    await expect(
      run(process.execPath, ['--import', 'tsx', 'emulator/main.ts', '--port', '0', '--password', 'short']),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/password must be 8 to 256/),
    });
  });
});

describe('emulator CLI: --dialect', () => {
  it('npm run emulator -- --dialect flattrade starts in it', async () => {
    const own = await startScript(
      'emulator/main.ts',
      ['--port', '0', '--token', 'flattrade-dialect-token', '--dialect', 'flattrade'],
      /listening on (http:\/\/127\.0\.0\.1:\d+)/,
    );
    try {
      const { body } = await control(own.match[1]!, 'GET', 'dialect');
      expect(body).toEqual({ dialect: 'flattrade' });
    } finally {
      await own.stop();
    }
  });

  it('refuses an unknown --dialect with exit code 2', async () => {
    await expect(
      run(process.execPath, ['--import', 'tsx', 'emulator/main.ts', '--port', '0', '--dialect', 'x']),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/--dialect must be noren, 2021 or flattrade/) });
  });
});
