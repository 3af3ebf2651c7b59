/**
 * Redaction of secret values from every text that leaves the gateway: error replies (`message`, `brokerMessage`,
 * `details`), stored idempotency replays, log lines and events. A broker, proxy or WAF that reflects the request
 * (an error page quoting the body, an `emsg` echoing a header) must not hand the access token to the caller.
 *
 * Two nets: the secret values this container knows (every session token it has read, remembered here by the
 * session source), wherever they appear, plain or percent-encoded; and anything shaped like one (`Bearer …`,
 * `Basic …`, `jKey=…`, `"accessToken":"…"`, `susertoken=…`) whatever its value.
 */
import { GatewayError } from './errors.js';

export const REDACTED = '<redacted>';

/** Shorter values are not treated as secrets (a token is far longer): `1` must not be redacted from every text. */
const MIN_SECRET_LENGTH = 8;
/** The tokens of the last few sessions are enough: an older one has long stopped working. */
const MAX_KNOWN = 8;
/** Each known secret with its percent-encoded form (the same string when encoding changes nothing). */
const known: { plain: string; encoded: string }[] = [];

/** Remember a secret value (a session token) so that no text leaving the gateway carries it. */
export const rememberSecret = (value: string | undefined): void => {
  if (value === undefined || value.length < MIN_SECRET_LENGTH || known.some((k) => k.plain === value)) return;
  known.push({ plain: value, encoded: encodeURIComponent(value) });
  if (known.length > MAX_KNOWN) known.shift();
};

/** Whether a text holds a known secret value (plain or percent-encoded). */
export const holdsKnownSecret = (text: string): boolean =>
  known.some((secret) => text.includes(secret.plain) || text.includes(secret.encoded));

/** `Bearer xyz`, `Basic xyz`: a credential of 8 or more characters with a digit (so `basic order` stays as it is). */
const AUTH_SCHEME = /\b(Bearer|Basic)(\s+|%20|\+)(?=[A-Za-z0-9\-._~+/%]*\d)[A-Za-z0-9\-._~+/%]{8,}=*/gi;
/** `jKey=xyz`, `"accessToken":"xyz"`, `susertoken: xyz`, `access_token=xyz`. */
const TOKEN_PAIR = /\b(jKey|access_?token|accessToken|susertoken)(["']?\s*(?::|=|%3A|%3D)\s*["']?)[^\s"'&,;}<>]+/gi;

/** The shortest text either net redacts anything in. */
const SHORTEST_MATCH = 6;
/** A word every match of AUTH_SCHEME (`bearer`, `basic`) or TOKEN_PAIR (`key`, `token`) holds, in any case. */
const SHAPE_WORDS = /key|token|bearer|basic/i;

/** The text with every known secret value and every token-shaped pair replaced by `mask`. */
export const redactText = (text: string, mask: string = REDACTED): string => {
  // Shorter than anything either net matches (a known secret is 8 or more, `jKey=x` 6): most values of a record.
  if (text.length < SHORTEST_MATCH) return text;
  let out = text;
  // Every string of every record of a reply passes here: look before splitting (most hold no secret).
  for (const { plain, encoded } of known) {
    if (out.includes(plain)) out = out.split(plain).join(mask);
    if (encoded !== plain && out.includes(encoded)) out = out.split(encoded).join(mask);
  }
  // Every shape-matched text names one of these words: a cheap look first (most texts hold none).
  if (!SHAPE_WORDS.test(out)) return out;
  return out.replace(AUTH_SCHEME, (_match, scheme: string) => `${scheme} ${mask}`).replace(TOKEN_PAIR, `$1$2${mask}`);
};

/**
 * Every string of a JSON-like value redacted (keys included), to a bounded depth; anything else as it is. A value in
 * which nothing changed is returned as it was, not copied: a list of thousands of records is walked, not rebuilt.
 */
export const redactDeep = <T>(value: T, depth = 0): T => {
  if (typeof value === 'string') return redactText(value) as T;
  if (depth > 32 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, i) => {
      const redacted = redactDeep(item, depth + 1);
      if (redacted !== item) (copy ??= [...value])[i] = redacted;
    });
    return (copy ?? value) as T;
  }
  // Copied only from the first key or value that changed (most objects hold no secret: walked, not rebuilt).
  let copy: [string, unknown][] | undefined;
  const entries = Object.entries(value);
  for (let i = 0; i < entries.length; i++) {
    const [key, item] = entries[i]!;
    const newKey = redactText(key);
    const newItem = redactDeep(item, depth + 1);
    if (!copy && (newKey !== key || newItem !== item)) copy = entries.slice(0, i);
    copy?.push([newKey, newItem]);
  }
  return copy ? (Object.fromEntries(copy) as T) : value;
};

/** The error with its message, broker message and details redacted (in place: its class and cause stay). */
export const redactError = <E extends GatewayError>(error: E): E => {
  error.message = redactText(error.message);
  // `brokerMessage` and `details` are read-only to callers; redaction is the one place that rewrites them.
  const fields = error as { brokerMessage?: string; details?: unknown };
  if (fields.brokerMessage !== undefined) fields.brokerMessage = redactText(fields.brokerMessage);
  if (fields.details !== undefined) fields.details = redactDeep(fields.details);
  return error;
};

/** Anything thrown, with a GatewayError redacted. */
export const redactThrown = (error: unknown): unknown => (error instanceof GatewayError ? redactError(error) : error);
