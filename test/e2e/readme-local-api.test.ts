/**
 * `npm start` as a user runs it (a child process of `tsx local/start.ts`), then the README's curl block exactly as
 * written, with only the port changed.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
let child: ChildProcess;
let baseUrl: string;

const readmeBlock = (): string => {
  const readme = readFileSync('README.md', 'utf8');
  const match = /<!-- e2e-readme:start -->\s*```sh\n([\s\S]*?)```\s*<!-- e2e-readme:end -->/.exec(readme);
  if (!match) throw new Error('README has no e2e-readme block');
  return match[1]!;
};

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT' },
  });
  baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`npm start did not print its URL in time:\n${out}`)), 25_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /gtt-gateway local API\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`npm start exited early (${code}):\n${out}`)));
  });
}, 30_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

describe('README: npm start and the curl lines', () => {
  it('prints its routes and serves the OpenAPI document', async () => {
    const doc = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(['/client', '/gtt-orders', '/gtt-orders/enabled', '/gtt-orders/{alId}', '/session/logout']);
  });

  it('places, lists, modifies, cancels and logs out', async () => {
    const script = readmeBlock().replace('API=http://127.0.0.1:3000', `API=${baseUrl}`);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { timeout: 30_000 });
    const replies = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const [dry, placed, listed, modified, cancelled, client, loggedOut] = replies;
    expect(replies).toHaveLength(7);
    expect(dry).toMatchObject({ dryRun: true, request: { jData: { tsym: 'M%26M-EQ' } } });
    expect(placed).toMatchObject({ stat: 'OI created', idempotency: { key: 'readme-order-1', replayed: false } });
    expect(listed).toMatchObject({ orders: [{ al_id: placed!.al_id, tsym: 'M&M-EQ', qty: 1 }] });
    expect(modified).toMatchObject({ stat: 'OI replaced', al_id: placed!.al_id });
    expect(cancelled).toMatchObject({ stat: 'OI deleted', al_id: placed!.al_id });
    expect(client).toMatchObject({ stat: 'Ok', exarr: expect.any(Array) });
    expect(loggedOut).toMatchObject({ stat: 'Ok' });

    const after = await fetch(`${baseUrl}/gtt-orders`);
    expect(after.status).toBe(503);
    expect(await after.json()).toMatchObject({ error: { code: 'SESSION_EXPIRED' } });
  });

  it('answers unknown routes like API Gateway', async () => {
    const res = await fetch(`${baseUrl}/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not Found' });
  });
});
