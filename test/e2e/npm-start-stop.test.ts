/**
 * `npm start` ends with its parent: a signal to npm's own process (SIGTERM, SIGHUP, even SIGKILL, which npm cannot
 * pass on) ends every process under it and frees its ports within a few seconds. npm forwards SIGTERM only to the
 * `sh -c` that runs the script, which dies without passing it on: the server watches its parent (local/parent-watch.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { NPM_START_WITH_EMULATOR } from '../support/processes.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FREED_WITHIN_MS = 6_000;
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
    const timer = setTimeout(() => reject(new Error(`npm start did not get ready:\n${out}`)), 40_000);
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

/** How long until no port listens any more (or undefined: still listening after `limitMs`). */
const freedAfter = async (ports: number[], limitMs: number): Promise<number | undefined> => {
  const start = Date.now();
  while (Date.now() - start < limitMs) {
    if (!(await Promise.all(ports.map(listening))).some(Boolean)) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
};

describe('npm start ends with its parent', () => {
  it.each(['SIGTERM', 'SIGHUP', 'SIGKILL'] as const)(
    '%s to npm frees the API and emulator ports within a few seconds',
    async (signal) => {
      const { npm, ports } = await npmStart();
      expect(await Promise.all(ports.map(listening))).toEqual([true, true]);
      npm.kill(signal);
      const freed = await freedAfter(ports, FREED_WITHIN_MS);
      expect(
        freed,
        `ports ${ports.join(', ')} still answer ${FREED_WITHIN_MS} ms after ${signal} to npm`,
      ).toBeDefined();
    },
    60_000,
  );
});
