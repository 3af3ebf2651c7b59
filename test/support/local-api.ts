/**
 * A test's caller of the local stack's HTTP API (`npm start`'s, `stack.api.url`): `localApi(() => stack.api.url)`
 * gives `api(method, path, body?, headers?)`, which sends `body` as JSON (a string as it is: raw JSON text, for the
 * tests of malformed bodies), with a content-type only when there is a body, and answers `{ status, body }`, the
 * reply's JSON; `localApiReply` answers the reply's headers and text too. The address is read at each call: the
 * stack starts in a `beforeAll`.
 */

export interface LocalApiReply<T> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export const localApiReply =
  <D = Record<string, unknown>>(url: () => string) =>
  async <T = D>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LocalApiReply<T>> => {
    const res = await fetch(`${url()}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: JSON.parse(text) as T };
  };

export const localApi = <D = Record<string, unknown>>(url: () => string) => {
  const call = localApiReply<D>(url);
  return async <T = D>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: T }> => {
    const { status, body: json } = await call<T>(method, path, body, headers);
    return { status, body: json };
  };
};
