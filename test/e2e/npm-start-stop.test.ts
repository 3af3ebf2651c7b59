/**
 * `npm start` ends with its parent: a signal to npm's own process (SIGTERM, SIGHUP, even SIGKILL, which npm cannot
 * pass on) ends every process under it and frees its ports (in a second or two when idle; waited for within one
 * generous bound, so a loaded machine is slower, never failed). npm forwards SIGTERM only to the `sh -c` that runs the
 * script, which dies without passing it on: the server watches its parent (local/parent-watch.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { CONDITION_BOUND_MS, NPM_START_WITH_EMULATOR, READY_BOUND_MS, waitUntil } from '../support/processes.js';

const ROOT = join(import.meta.dirname, '..', '..');
const spawned: ChildProcess[] = [];

// Each npm leads a process group of its own: whatever a failed case leaves behind (an orphaned server) ends here.
afterAll(() => {
  for (const child of spawned) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // the group is gone: nothing left
    }
  }
});

/** `npm start` on free ports; resolves with npm's process and the ports of the API and the emulator once ready. */
const npmStart = (): Promise<{ npm: ChildProcess; ports: number[] }> =>
  new Promise((resolve, reject) => {
    const npm = spawn('npm', ['start', '--', '--port', '0', '--emulator-port', '0', '--watch-interval', '0'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT' },
    });
    spawned.push(npm);
    let out = '';
    const timer = setTimeout(() => reject(new Error(`npm start did not get ready:\n${out}`)), READY_BOUND_MS);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = NPM_START_WITH_EMULATOR.exec(out);
      if (!match) return;
      clearTimeout(timer);
      resolve({ npm, ports: [match[1]!, match[2]!].map((url) => Number(new URL(url).port)) });
    };
    npm.stdout!.on('data', onData);
    npm.stderr!.on('data', onData);
  });

const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

describe('npm start ends with its parent', () => {
  it.each(['SIGTERM', 'SIGHUP', 'SIGKILL'] as const)(
    '%s to npm ends the server: the API and emulator ports are freed',
    async (signal) => {
      const { npm, ports } = await npmStart();
      expect(await Promise.all(ports.map(listening))).toEqual([true, true]);
      npm.kill(signal);
      await waitUntil(
        async () => !(await Promise.all(ports.map(listening))).some(Boolean),
        () => `ports ${ports.join(', ')} still answer after ${signal} to npm`,
        CONDITION_BOUND_MS,
      );
    },
  );
});
