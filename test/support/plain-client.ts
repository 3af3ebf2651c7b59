/**
 * The emulator contract tests' plain client: jData posted under /ClientAPI with a Bearer token, as a client written
 * for the real broker sends it, to the emulator the test's fixture started; and the GTT place and pending list.
 */
import { type EmulatorFixture, gttJData } from './emulator-fixture.js';

export const TIME = /^\d{2}:\d{2}:\d{2} \d{2}-\d{2}-\d{4}$/;

export interface Sent {
  status: number;
  body: unknown;
  text: string;
}

/** The helpers, bound to the fixture `current()` returns at call time (set in the test file's beforeEach). */
export const plainClient = (current: () => EmulatorFixture) => {
  const order = (over: Record<string, string> = {}) => gttJData(current(), over);
  const post = async (
    op: string,
    body: string,
    headers: Record<string, string> = {},
    method = 'POST',
  ): Promise<Sent> => {
    const res = await fetch(`${current().url}/ClientAPI/${op}`, {
      method,
      headers,
      ...(method === 'GET' ? {} : { body }),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, text };
  };
  const call = (op: string, jData: unknown, token: string | null = current().token, contentType = 'text/plain') =>
    post(op, `jData=${JSON.stringify(jData)}`, {
      'Content-Type': contentType,
      ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
    });
  const place = async (over: Record<string, string> = {}) =>
    (await call('PlaceGTTOrder', order(over))).body as { al_id: string; stat: string };
  const pending = async () => (await call('GetPendingGTTOrder', { uid: current().uid })).body;
  return { order, post, call, place, pending };
};
