/**
 * The GttWatcher reads the session secret once per cycle at most, counted at the local Secrets Manager (the real
 * SDK client's GetSecretValue calls): a steady cycle, a cycle that reads the triggered history and the order book
 * too, a cycle whose secret was marked logged out, and the next one after a login (seen at once, still one read).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LOCAL_SECRET_ID, type LocalStack, startLocalStack } from '../../local/run-local.js';
import { fireOutside, placeOutside } from '../support/outside-orders.js';

let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack();
});
afterAll(async () => {
  await stack?.close();
});

/** One watcher run, and the secret reads it made. */
const cycle = async () => {
  const before = stack.secrets.getCallCount(LOCAL_SECRET_ID);
  const run = await stack.watch();
  return { run, reads: stack.secrets.getCallCount(LOCAL_SECRET_ID) - before };
};

describe('the watcher reads the session secret once per cycle', () => {
  it('one read per cycle: baseline, steady, with history and the order book, logged out and back', async () => {
    await placeOutside(stack.emulator);
    const baseline = await cycle();
    expect(baseline.run.status).toBe('baseline');
    expect(baseline.reads).toBe(1);

    // Each cycle reads it again (a renewal minutes ago must be seen), never twice.
    for (let i = 0; i < 3; i++) {
      const steady = await cycle();
      expect(steady.run).toMatchObject({ status: 'ok', pending: 1 });
      expect(steady.reads).toBe(1);
    }

    // Fired orders: the history is not empty, so the run reads the order book as well: still one secret read.
    const fired = await fireOutside(stack.emulator, 2);
    const withHistory = await cycle();
    expect(withHistory.run.published.filter((p) => p.detailType === 'GTT Triggered')).toHaveLength(fired.length);
    expect(withHistory.reads).toBe(1);

    // A secret marked logged out: the run says the session is dead, after the same one read (no retry re-reads it).
    const session = JSON.parse(stack.secrets.getSecret(LOCAL_SECRET_ID)!) as Record<string, unknown>;
    stack.secrets.setSecret(LOCAL_SECRET_ID, JSON.stringify({ ...session, loggedOutAt: new Date().toISOString() }));
    const dead = await cycle();
    expect(dead.run.status).toBe('session-dead');
    expect(dead.reads).toBe(1);
    // Logged in again: the next run sees it at once.
    stack.secrets.setSecret(LOCAL_SECRET_ID, JSON.stringify(session));
    const back = await cycle();
    expect(back.run.status).toBe('ok');
    expect(back.reads).toBe(1);
  });
});
