/** The account and its broker session: enabled alert types, the client record, logout, the browser login, session. */
import { EXIT_CODES } from '../../exit-codes.js';
import type { SessionStatus } from '../../types.js';
import { command, may } from '../command.js';
import { istTime } from '../render.js';

/** How often `login` asks whether the new session has arrived. */
export const LOGIN_POLL_MS = 2_000;

const sessionText = (r: SessionStatus): string =>
  [
    `account   ${r.uid ?? '?'}${r.actid && r.actid !== r.uid ? ` (${r.actid})` : ''}`,
    `since     ${r.since ? istTime(r.since) : 'unknown (not written by a login of the gateway)'}${r.method ? ` via ${r.method}` : ''}`,
    `status    ${r.alive ? 'alive' : `NOT usable: ${r.code ?? '?'}${r.reason ? ` (${r.reason})` : ''}`}`,
  ].join('\n');

/** Waits, or stops early when the command is interrupted. */
const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export const enabled = command({
  name: 'enabled',
  flags: [],
  summary: 'the alert types enabled for the account',
  run: ({ client, callOptions }) => client.enabled(callOptions),
  render: (r) => `enabled alert types: ${r.ai_ts.map((a) => a.ai_t ?? '?').join(', ')}`,
});

export const clientRecord = command({
  name: 'client',
  flags: [],
  summary: "the account's client record",
  run: ({ client, callOptions }) => client.clientDetails(callOptions),
  render: (r) =>
    [
      `account   ${r.actid}${r.cliname ? ` (${r.cliname})` : ''}`,
      `status    ${r.act_sts ?? '-'}`,
      `exchanges ${r.exarr.join(', ')}`,
    ].join('\n'),
});

export const logout = command({
  name: 'logout',
  flags: [],
  summary: 'end the broker session (never retried)',
  run: ({ client, callOptions }) => client.logout(callOptions),
  render: () => 'logged out: the session token no longer works (store a fresh one to continue)',
});

export const login = command({
  name: 'login',
  flags: [may('wait', 'SECONDS')],
  summary:
    "start a browser login: print the broker's login page to open, then wait (default 600 s, 0: do not wait) " +
    'until the gateway holds the new session (exit 5 if none arrives)',
  input: (f) => {
    const text = f.str('wait');
    if (text === undefined) return 600;
    const seconds = Number(text);
    if (!/^\d+$/.test(text) || seconds > 3_600)
      f.problem(`--wait must be a whole number of seconds from 0 to 3600, got ${JSON.stringify(text)}`);
    return seconds;
  },
  render: 'self',
  run: async ({ client, callOptions, io, json, signal }, waitSeconds) => {
    // What the session was before: the new one is the one written after it.
    const before = await client.session(callOptions).catch(() => undefined);
    const start = await client.startLogin(callOptions);
    if (!json) {
      io.out(
        `Open this page in a browser and sign in as ${start.uid} (the link works until ${istTime(start.expiresAt)}):\n\n  ${start.authorizeUrl}\n`,
      );
    }
    if (waitSeconds === 0) {
      if (json) io.out(JSON.stringify(start, null, 2));
      return EXIT_CODES.OK;
    }
    if (!json) io.out(`waiting up to ${waitSeconds} s for the broker's redirect ...`);
    const deadline = Date.now() + waitSeconds * 1_000;
    while (Date.now() < deadline) {
      await sleep(Math.min(LOGIN_POLL_MS, Math.max(0, deadline - Date.now())), signal);
      if (signal?.aborted) return EXIT_CODES.INTERRUPTED;
      const now = await client.session(callOptions).catch(() => undefined);
      if (now?.alive && now.since !== undefined && now.since !== before?.since) {
        io.out(json ? JSON.stringify({ login: start, session: now }, null, 2) : `logged in: ${sessionText(now)}`);
        return EXIT_CODES.OK;
      }
    }
    io.err(
      json
        ? JSON.stringify({ error: { code: 'LOGIN_TIMEOUT', message: `no new session within ${waitSeconds} s` } })
        : `no new session within ${waitSeconds} s: run login again`,
    );
    return EXIT_CODES.SESSION_EXPIRED;
  },
});

export const session = command({
  name: 'session',
  flags: [],
  summary: 'the session the gateway trades with: account, since when, alive or not (exit 5 when not)',
  run: ({ client, callOptions }) => client.session(callOptions),
  render: sessionText,
  exitCode: (r) => (r.alive ? EXIT_CODES.OK : EXIT_CODES.SESSION_EXPIRED),
});
