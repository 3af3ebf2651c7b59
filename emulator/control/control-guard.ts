/**
 * The emulator's control surface (`/_emulator/...`) can mint session tokens, move prices and inject faults, so a web
 * page in a browser must not reach it: the same rules as the local API. The `Host` must be this emulator
 * (`127.0.0.1:<port>` or `localhost:<port>`: a DNS-rebound name is refused), an `Origin`, if sent, must be this
 * emulator's own, and a request with a body (or a Content-Type) must be `application/json` (forms and text/plain are
 * what another site can send without a preflight). `curl` and the tests' `fetch` pass: no Origin, a JSON body.
 */
import type { EmulatorReply } from '../wire/reply.js';

export interface ControlRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  body: string;
}

const refuse = (status: number, error: string): EmulatorReply => ({
  status,
  body: JSON.stringify({ error }),
  contentType: 'application/json',
});

const isControlPath = (path: string): boolean => {
  const bare = path.split('?')[0] ?? '';
  return bare === '/_emulator' || bare.startsWith('/_emulator/');
};

const isJson = (contentType: string): boolean => /^application\/json\s*(;|$)/i.test(contentType.trim());

const shown = (text: string): string => JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text);

/** The refusal for a control request that breaks the rules, or undefined when it may go on (or is not one). */
export const guardControl = (req: ControlRequest, port: number): EmulatorReply | undefined => {
  if (!isControlPath(req.path)) return undefined;
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  const host = (req.headers.host ?? '').toLowerCase();
  if (!hosts.includes(host)) {
    return refuse(403, `Host ${shown(host)} is not this emulator (${hosts.join(' or ')}); nothing was done`);
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !hosts.map((h) => `http://${h}`).includes(origin.toLowerCase())) {
    return refuse(
      403,
      `Requests from ${shown(origin)} are refused: only this emulator's own origin may use its control surface; nothing was done`,
    );
  }
  const contentType = req.headers['content-type'];
  if ((req.body !== '' || contentType !== undefined) && !isJson(contentType ?? '')) {
    return refuse(
      415,
      `A control request body must be sent as Content-Type: application/json (got ${contentType === undefined ? 'none' : shown(contentType)}); nothing was done`,
    );
  }
  return undefined;
};
