/**
 * The trader's console under `npm start`: `GET /console/` and its files (console/build.ts builds them once, at the
 * first request), and `config.json` saying the page calls this same local API (`{"mode":"local"}`). Served with the
 * content security policy a deployment sends, so a page that needs an inline script or style fails here first.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';

import { buildConsoleSync } from '../console/build.js';

export interface PageReply {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

/** Answers a request for a page of the local API's own (GET or HEAD), or `undefined` when the path is not one. */
export type LocalPages = (method: string, pathname: string) => PageReply | undefined;

export const CONSOLE_PATH = '/console';

export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

const HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

const text = (status: number, body: string, headers: Record<string, string> = {}): PageReply => ({
  status,
  headers: { ...HEADERS, 'content-type': 'text/plain; charset=utf-8', ...headers },
  body,
});

/** Builds the console into a temporary folder and keeps its files in memory. */
const buildFiles = (): Map<string, Buffer> => {
  const dir = mkdtempSync(join(tmpdir(), 'gtt-console-'));
  try {
    return new Map(buildConsoleSync(dir).map((name) => [name, readFileSync(join(dir, name))]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

export const localConsole = (): LocalPages => {
  let files: Map<string, Buffer> | undefined;
  const config = Buffer.from(JSON.stringify({ mode: 'local' }));
  return (method, pathname) => {
    if (pathname !== CONSOLE_PATH && !pathname.startsWith(`${CONSOLE_PATH}/`)) return undefined;
    if (method !== 'GET' && method !== 'HEAD') return text(405, 'Method Not Allowed', { allow: 'GET, HEAD' });
    // The page's files are named relative to it: /console must be /console/.
    if (pathname === CONSOLE_PATH) return text(308, `${CONSOLE_PATH}/`, { location: `${CONSOLE_PATH}/` });
    const name = pathname.slice(CONSOLE_PATH.length + 1) || 'index.html';
    files ??= buildFiles();
    const body = name === 'config.json' ? config : files.get(name);
    if (body === undefined) return text(404, 'Not Found');
    return {
      status: 200,
      headers: { ...HEADERS, 'content-type': TYPES[extname(name)] ?? 'application/octet-stream' },
      body,
    };
  };
};
