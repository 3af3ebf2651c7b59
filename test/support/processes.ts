/**
 * Running the project's commands as a user would, and the README's shell blocks, in end-to-end tests: each waited for
 * by its ready line and what it does by a condition, within one generous bound (READY_BOUND_MS, CONDITION_BOUND_MS).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';

import { listenOnLoopback } from '../../local/loopback.js';
import { docPages } from './doc-pages.js';

/**
 * The shell block between `<!-- e2e-NAME:start -->` and `<!-- e2e-NAME:end -->`, wherever it lives now: README.md
 * or one page of docs/. A block found twice is an error, so a test can never run a stale copy.
 */
export const readmeBlock = (name: string): string => {
  const pages = ['README.md', ...docPages()];
  const pattern = new RegExp(`<!-- e2e-${name}:start -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\s*<!-- e2e-${name}:end -->`);
  const found = pages.flatMap((page) => {
    const match = pattern.exec(readFileSync(page, 'utf8'));
    return match ? [match[1]!] : [];
  });
  if (found.length !== 1)
    throw new Error(`expected one e2e-${name} block in README.md and docs/, found ${found.length}`);
  return found[0]!;
};

export interface Started {
  child: ChildProcess;
  match: RegExpExecArray;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * How long a started command may take to print its ready line: one generous bound, never a guess at its speed. The
 * harness waits for the line itself, so an idle machine is not slowed; `npm start` took 32 s on two cores under load.
 */
export const READY_BOUND_MS = 120_000;
/** How long to wait for what a started command does in answer to a test: a webhook delivered, a line printed. */
export const CONDITION_BOUND_MS = 60_000;

/**
 * Resolves once `holds()` is true, checked every 100 ms; past `boundMs` it fails with `seen()` (what there was
 * instead). A condition, never a sleep: an idle machine moves on at once, a loaded one has the whole bound.
 */
export const waitUntil = async (
  holds: () => boolean | Promise<boolean>,
  seen: () => string,
  boundMs = CONDITION_BOUND_MS,
): Promise<void> => {
  const end = Date.now() + boundMs;
  while (!(await holds())) {
    if (Date.now() > end) throw new Error(`the condition did not hold within ${boundMs / 1000} s; ${seen()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** Starts `node --import tsx <script> ...args` and resolves once its output matches `ready`. */
export const startScript = (
  script: string,
  args: string[],
  ready: RegExp,
  timeoutMs = READY_BOUND_MS,
  env: Record<string, string> = {},
): Promise<Started> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT', ...env },
    });
    let out = '';
    const stop = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    };
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${script} printed no ready line in ${timeoutMs / 1000} s:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stdout!.on('data', (more: Buffer) => (out += more.toString()));
        resolve({ child, match, output: () => out, stop });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited early (${code}):\n${out}`));
    });
  });

/** `npm start`'s banner once it is ready: group 1 is the local API's URL. */
export const NPM_START_READY = /gtt-gateway local API\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Try:/;

/** `npm start` (local/start.ts) on a free port with more `args`; resolves once ready (match[1] is the API's URL). */
export const startNpmStart = (args: string[] = [], env: Record<string, string> = {}): Promise<Started> =>
  startScript('local/start.ts', ['--port', '0', ...args], NPM_START_READY, READY_BOUND_MS, env);

/** `npm start`'s banner with its broker emulator's URL too: match[1] the API, match[2] the emulator. */
export const NPM_START_WITH_EMULATOR =
  /gtt-gateway local API\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*broker emulator\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Login on loopback[\s\S]*session --url/;

export interface WebhookRun {
  started: Started;
  /** The receiver's address (npm start posts to `<url>/hook`). */
  url: string;
  /** Every body the loopback webhook received, parsed, with its headers. */
  received: { headers: IncomingHttpHeaders; body: Record<string, unknown> }[];
  stop(): Promise<void>;
}

/**
 * A loopback webhook receiver (answering 200) and `npm start -- --watch-interval 1` posting every event to it
 * (`NOTIFY_ON=all` unless `env` says otherwise).
 */
export const startWithWebhook = async (env: Record<string, string> = {}): Promise<WebhookRun> => {
  const received: WebhookRun['received'] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(body) as Record<string, unknown> });
      res.writeHead(200).end('{}');
    });
  });
  const receiver = await listenOnLoopback(server);
  const started = await startScript(
    'local/start.ts',
    ['--port', '0', '--watch-interval', '1'],
    NPM_START_WITH_EMULATOR,
    READY_BOUND_MS,
    {
      NOTIFY_WEBHOOK_URL: `${receiver.url}/hook`,
      NOTIFY_ON: 'all',
      ...env,
    },
  );
  return {
    started,
    url: receiver.url,
    received,
    stop: async () => {
      await started.stop();
      await receiver.close();
    },
  };
};
