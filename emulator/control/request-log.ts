/**
 * The request log of the control surface (`GET /_emulator/requests`), bounded by entry count AND by bytes, and
 * redacted: session tokens (known ones anywhere, any `jKey` tail, any Bearer value), login secrets (`pwd`,
 * `factor2`, `appkey`, `checksum`, `code` values) and the configured passwords/secrets never appear in it, and neither
 * do tokens that login replies hand out.
 */

/** At most this many bytes of a body (and of a parsed jData) are kept per entry. */
export const LOG_BODY_BYTES = 4 * 1024;
/** At most this many bytes of a reply are kept per entry (longer ones are kept as truncated text). */
export const LOG_REPLY_BYTES = 16 * 1024;
/** The whole log stays under this many bytes (as JSON); the oldest entries go first. */
export const LOG_TOTAL_BYTES = 8 * 1024 * 1024;
export const LOG_MAX_ENTRIES = 10_000;

export const REDACTED = '<redacted>';
/** jData fields whose values are secrets (login): replaced wherever they occur. */
export const SECRET_FIELDS = ['pwd', 'factor2', 'appkey', 'checksum', 'code', 'request_code', 'api_secret'] as const;
/** Reply fields that carry a freshly issued token. */
const TOKEN_FIELDS = new Set(['access_token', 'susertoken', 'refresh_token', 'token']);

export interface LoggedRequest {
  seq: number;
  at: string;
  method: string;
  path: string;
  operation: string | null;
  contentType: string | null;
  authorization: string | null;
  authUid: string | null;
  /** Redacted, then cut to LOG_BODY_BYTES. */
  body: string;
  /** Length of the body as received, in bytes. */
  bodyLength: number;
  bodyTruncated: boolean;
  bodyContainedToken: boolean;
  /** Redacted; null when the body was not a jData object or its JSON is longer than LOG_BODY_BYTES. */
  jData: Record<string, unknown> | null;
  jDataTruncated: boolean;
  status: number;
  /** The parsed, redacted reply; text cut to LOG_REPLY_BYTES when longer (then `replyTruncated`). */
  reply: unknown;
  replyTruncated: boolean;
}

type Json = Record<string, unknown>;

/** Cut a string to at most `max` UTF-8 bytes without leaving half a character. */
export const truncateUtf8 = (text: string, max: number): string => {
  if (Buffer.byteLength(text) <= max) return text;
  return Buffer.from(text)
    .subarray(0, max)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
};

const SECRET_FIELD_PATTERN = new RegExp(
  `"(${SECRET_FIELDS.join('|')})"(\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*"|[^,}\\]\\s]+)`,
  'g',
);
const TOKEN_FIELD_PATTERN = new RegExp(`"(${[...TOKEN_FIELDS].join('|')})"(\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*")`, 'g');

export class RequestLog {
  private entries: LoggedRequest[] = [];
  private readonly sizes = new Map<LoggedRequest, number>();
  private totalBytes = 0;
  private seq = 0;

  /**
   * @param secrets literal strings never to show: every token issued so far (a live view) and the configured
   *   password, secrets and seed. Each is replaced by `<redacted>` wherever it occurs.
   */
  constructor(private readonly secrets: () => Iterable<string>) {}

  list(): LoggedRequest[] {
    return this.entries;
  }

  clear(): void {
    this.entries = [];
    this.sizes.clear();
    this.totalBytes = 0;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  redactText(text: string): string {
    let out = text;
    for (const secret of this.secrets()) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out
      .replace(SECRET_FIELD_PATTERN, `"$1"$2"${REDACTED}"`)
      .replace(TOKEN_FIELD_PATTERN, `"$1"$2"${REDACTED}"`)
      .replace(/&jKey=[^&]*$/, `&jKey=${REDACTED}`);
  }

  /** A copy of a JSON value with secret fields, token fields and secret literals replaced. */
  redactValue(value: unknown): unknown {
    if (typeof value === 'string') return this.redactText(value);
    if (Array.isArray(value)) return value.map((v) => this.redactValue(v));
    if (typeof value === 'object' && value !== null) {
      const out: Json = {};
      for (const [key, v] of Object.entries(value as Json)) {
        out[key] =
          (SECRET_FIELDS as readonly string[]).includes(key) || TOKEN_FIELDS.has(key) ? REDACTED : this.redactValue(v);
      }
      return out;
    }
    return value;
  }

  start(req: {
    method: string;
    path: string;
    operation: string | null;
    headers: Record<string, string | undefined>;
    body: string;
    bodyContainedToken: boolean;
  }): LoggedRequest {
    const authorization = req.headers.authorization;
    const bodyLength = Buffer.byteLength(req.body);
    const redactedBody = this.redactText(req.body);
    const entry: LoggedRequest = {
      seq: ++this.seq,
      at: new Date().toISOString(),
      method: req.method,
      path: truncateUtf8(this.redactText(req.path), LOG_BODY_BYTES),
      operation: req.operation,
      contentType: req.headers['content-type'] === undefined ? null : truncateUtf8(req.headers['content-type'], 256),
      authorization:
        authorization === undefined
          ? null
          : truncateUtf8(this.redactText(authorization).replace(/^(Bearer\s+)\S+$/i, `$1${REDACTED}`), 256),
      authUid: null,
      body: truncateUtf8(redactedBody, LOG_BODY_BYTES),
      bodyLength,
      bodyTruncated: false,
      bodyContainedToken: req.bodyContainedToken,
      jData: null,
      jDataTruncated: false,
      status: 0,
      reply: null,
      replyTruncated: false,
    };
    entry.bodyTruncated = entry.body.length < redactedBody.length;
    this.entries.push(entry);
    this.sizes.set(entry, 0);
    this.account(entry);
    return entry;
  }

  setJData(entry: LoggedRequest, jData: Json): void {
    const redacted = this.redactValue(jData) as Json;
    if (Buffer.byteLength(JSON.stringify(redacted)) > LOG_BODY_BYTES) {
      entry.jData = null;
      entry.jDataTruncated = true;
    } else {
      entry.jData = redacted;
    }
    this.account(entry);
  }

  setAuthUid(entry: LoggedRequest, uid: string): void {
    entry.authUid = uid;
    this.account(entry);
  }

  /** `reply` is the parsed reply (or its text); it is redacted and bounded here. */
  setReply(entry: LoggedRequest, status: number, reply: unknown): void {
    entry.status = status;
    const raw = typeof reply === 'string' ? reply : JSON.stringify(reply);
    if (raw !== undefined && raw.length > 2 * LOG_REPLY_BYTES) {
      // A long reply (a list of thousands of orders) is kept cut anyway: redact a head twice as long as what is kept,
      // as text (the same patterns), so no secret that starts in the kept part is cut before it is matched, and the
      // megabytes after it are never walked.
      entry.reply = truncateUtf8(this.redactText(raw.slice(0, 2 * LOG_REPLY_BYTES)), LOG_REPLY_BYTES);
      entry.replyTruncated = true;
      this.account(entry);
      return;
    }
    const redacted = this.redactValue(reply);
    const text = typeof redacted === 'string' ? redacted : JSON.stringify(redacted);
    if (text !== undefined && Buffer.byteLength(text) > LOG_REPLY_BYTES) {
      entry.reply = truncateUtf8(text, LOG_REPLY_BYTES);
      entry.replyTruncated = true;
    } else {
      entry.reply = redacted;
      entry.replyTruncated = false;
    }
    this.account(entry);
  }

  /** Re-measure an entry and drop the oldest ones while the log is over its caps. */
  private account(entry: LoggedRequest): void {
    const old = this.sizes.get(entry);
    if (old === undefined) return; // already dropped (a late reply of an old request)
    const size = Buffer.byteLength(JSON.stringify(entry)) + 1;
    this.sizes.set(entry, size);
    this.totalBytes += size - old;
    while (this.entries.length > 1 && (this.totalBytes > LOG_TOTAL_BYTES || this.entries.length > LOG_MAX_ENTRIES)) {
      const dropped = this.entries.shift()!;
      this.totalBytes -= this.sizes.get(dropped) ?? 0;
      this.sizes.delete(dropped);
    }
  }
}
