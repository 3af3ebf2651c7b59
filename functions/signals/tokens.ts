/**
 * The webhook tokens and ids of signals: a token is 32 random bytes (base64url, 43 characters), shown once and
 * stored only as its SHA-256; a presented token is hashed, looked up by that hash, and the stored hash compared in
 * constant time (crypto.timingSafeEqual), so neither the lookup nor the comparison tells how close a guess was.
 */
import { createHash, randomBytes } from 'node:crypto';

/** A token as the webhook path carries it: 43 characters of base64url (32 bytes). */
export const TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const STRATEGY_ID = /^st[0-9a-f]{16}$/;
export const SIGNAL_ID = /^sg[0-9a-f]{24}$/;

export const newToken = (): string => randomBytes(32).toString('base64url');

export const sha256Hex = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

export const tokenHash = (token: string): string => sha256Hex(`signal-token\u0000${token}`);

/** A strategy's id from the Idempotency-Key that created it: the same key, the same strategy. */
export const strategyIdOf = (key: string): string => `st${sha256Hex(`strategy\u0000${key}`).slice(0, 16)}`;

/**
 * A signal's id: `sg`, the time it was made (milliseconds, 12 hex digits) and 6 random bytes, so ids sort by time
 * and `GET /signals` reads them newest first in key order (ids made before this rule sort anywhere).
 */
export const newSignalId = (now = Date.now()): string =>
  `sg${now.toString(16).padStart(12, '0')}${randomBytes(6).toString('hex')}`;

/** The webhook's path for a token (the route `POST /signals/{id}`, its `{id}` the token). */
export const webhookPath = (token: string): string => `/signals/${token}`;

/** The shortest piece of a token that is masked wherever it appears (a URL cut short still carries most of it). */
const TOKEN_PIECE = 12;
/** Any URL of the signal route (`…/signals/<token>`), whole or cut short. */
const SIGNAL_URL = /(\/signals\/)[^\s"'<>?#/\\]*/gi;

/**
 * An alert's text with no part of the webhook token left in it: every URL of the signal route, the token, and any
 * run of TOKEN_PIECE or more of its characters (ChartInk's own `webhook_url` field, a URL pasted into a message)
 * masked before anything stores, parses or logs the text.
 */
export const withoutToken = (text: string, token: string, mask: string): string => {
  let out = text.replace(SIGNAL_URL, `$1${mask}`);
  if (token.length < TOKEN_PIECE) return out;
  for (let size = token.length; size >= TOKEN_PIECE; size--)
    for (let start = 0; start + size <= token.length; start++) {
      const piece = token.slice(start, start + size);
      if (out.includes(piece)) out = out.split(piece).join(mask);
    }
  return out;
};
