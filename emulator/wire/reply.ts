/** What the request -> reply logic hands the listener, and the JSON helpers every operation uses. */

export interface EmulatorReply {
  status: number;
  body: string;
  contentType: string;
  /** A binary body (the symbol master's zip): sent instead of `body`, which then says what it is for the log. */
  bytes?: Buffer;
  /** Extra response headers (e.g. `location` of the OAuth redirect). */
  headers?: Record<string, string>;
  /** What the request log keeps instead of the parsed body (used where the real reply carries a secret). */
  logReply?: unknown;
  /**
   * For the listener: answer later (delay) or not at all (drop). `late`: the delayed work is carried out even if
   * the client gave up meanwhile (a broker whose queue was slow), not only when it waits.
   */
  fault?: { kind: 'delay'; ms: number; answer: () => EmulatorReply; late?: boolean } | { kind: 'drop' };
}

export const json = (status: number, body: unknown): EmulatorReply => ({
  status,
  body: JSON.stringify(body),
  contentType: 'application/json',
});
export const notOk = (emsg: string, status = 200): EmulatorReply => json(status, { stat: 'Not_Ok', emsg });
export const html = (status: number, body: string): EmulatorReply => ({
  status,
  body,
  contentType: 'text/html; charset=utf-8',
});
