/** Talking jData to a running emulator over HTTP, the way clients of the real broker do (contract tests). */
import { createHash } from 'node:crypto';

import { TOTP } from 'otpauth';

export interface Sent {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
}

export const TIME = /^\d{2}:\d{2}:\d{2} \d{2}-\d{2}-\d{4}$/;

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** POST (or another method) any body to any path of the emulator. */
export const send = async (
  baseUrl: string,
  path: string,
  body: string | undefined,
  headers: Record<string, string> = {},
  method = 'POST',
): Promise<Sent> => {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    redirect: 'manual',
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
};

/** `jData=<json>` with `Authorization: Bearer <token>` (null: no header) to `/ClientAPI/<op>` or another prefix. */
export const jdata = (baseUrl: string, op: string, fields: unknown, token: string | null, prefix = '/ClientAPI') =>
  send(baseUrl, `${prefix}/${op}`, `jData=${JSON.stringify(fields)}`, {
    'Content-Type': 'text/plain',
    ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
  });

/** Python's `json.dumps(value)` with its default separators (`, ` and `: `) and ASCII escaping. */
export const pyJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(pyJson).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${pyJson(k)}: ${pyJson(v)}`)
      .join(', ')}}`;
  }
  if (typeof value === 'string')
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  return JSON.stringify(value);
};

/** Python's `urllib.parse.quote_plus`. */
export const quotePlus = (text: string): string =>
  encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');

export const totpNow = (seed: string, timestamp = Date.now()): string =>
  new TOTP({ secret: seed, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp });

/** A control-surface call that returns status and JSON instead of throwing on 4xx. */
export const control = async (
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> => {
  const res = await fetch(`${baseUrl}/_emulator/${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
