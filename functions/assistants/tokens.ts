/**
 * Assistant tokens and ids: a token is `gtta_` and 32 random bytes (base64url, 43 characters), shown once and stored
 * only as its SHA-256; a presented token is checked for its shape first (nothing longer is hashed or looked up), then
 * hashed, looked up by that hash, and the stored hash compared in constant time (base/aws/token-holders.ts).
 */
import { createHash, randomBytes } from 'node:crypto';

/** The prefix that tells an assistant token at a glance (in a config file, a log, a secret scanner's rule). */
export const TOKEN_PREFIX = 'gtta_';
export const ASSISTANT_TOKEN = /^gtta_[A-Za-z0-9_-]{43}$/;
/** The longest text taken as a token at all: anything longer is refused before any work. */
export const TOKEN_MAX_LENGTH = TOKEN_PREFIX.length + 43;
export const ASSISTANT_ID = /^as[0-9a-f]{16}$/;

export const newToken = (): string => `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The token's hash as stored (its own domain: never equal to a strategy token's hash). */
export const tokenHash = (token: string): string => sha256Hex(`assistant-token\u0000${token}`);

/** Whether `value` has a token's shape: a string of the exact length and alphabet (junk is refused here, cheaply). */
export const isTokenShaped = (value: unknown): value is string =>
  typeof value === 'string' && value.length === TOKEN_MAX_LENGTH && ASSISTANT_TOKEN.test(value);

/** An assistant's id from the Idempotency-Key that created it: the same key, the same assistant. */
export const assistantIdOf = (key: string): string => `as${sha256Hex(`assistant\u0000${key}`).slice(0, 16)}`;
