/**
 * Where a request goes and what it carries: the broker's operation names, the paths they and the login pages answer
 * on, the body limit, and how a `jData=...&jKey=...` body and its session token are read.
 */
import type { Json } from '../state/orders.js';
import type { EmulatorState } from '../state/state.js';
import type { Switches } from '../state/switches.js';

export const OPERATIONS = [
  'PlaceGTTOrder',
  'PlaceOrder',
  'GetPendingGTTOrder',
  'GetEnabledGTTs',
  'ModifyGTTOrder',
  'CancelGTTOrder',
  'ClientDetails',
  'Logout',
  'PlaceOCOOrder',
  'ModifyOCOOrder',
  'CancelOCOOrder',
  'GetTrgOi',
  'GenAcsTok',
  'QuickAuth',
  'OrderBook',
  'PositionBook',
  'SingleOrdHist',
  'SearchScrip',
  'GetQuotes',
  'GetSecurityInfo',
  'TPSeries',
] as const;
export type BrokerOperation = (typeof OPERATIONS)[number];

/** Operations whose request may leave out `uid`; when it is there it must still be the session's user. */
export const UID_OPTIONAL: readonly BrokerOperation[] = ['GetTrgOi', 'CancelOCOOrder'];

/** The symbol master of an exchange, at the host's root as the family serves it: `/NSE_symbols.txt.zip` (or `.txt`). */
export const SYMBOL_MASTER_PATH = /^\/([A-Z]{2,4})_symbols\.txt(\.zip)?$/;

/** `/<any prefix>/<Operation>`, also with `//` before the operation and a trailing `/`, as real servers take them. */
export const OPERATION_PATH = /^\/[^/]+\/+([^/]+)\/?$/;
/**
 * The Noren login page in every form seen: `.../authorize/oauth` under any prefix (`/OAuthlogin`, `/NorenWeb2.0`),
 * `/OAuthlogin` itself and `/OAuthlogin/investor-entry-level/login`.
 */
export const LOGIN_PATH = /^(?:(?:\/[^/]+)*\/authorize\/oauth|\/OAuthlogin(?:\/investor-entry-level\/login)?)\/?$/;
/** Flattrade's token exchange (a JSON POST on its own host: here, on the emulator's). */
export const FLATTRADE_TOKEN_PATH = /^\/trade\/apitoken\/?$/;

export const MAX_BODY_BYTES = 64 * 1024;

export interface EmulatorRequest {
  method: string;
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  body: string;
  remoteAddress?: string;
  /** Set by the listener when the body was cut off at MAX_BODY_BYTES. */
  bodyTooLarge?: boolean;
}

/** The operation a path names, or null (unknown operation or no operation path at all). */
export const operationOf = (match: RegExpExecArray | null): BrokerOperation | null =>
  match && (OPERATIONS as readonly string[]).includes(match[1]!) ? (match[1] as BrokerOperation) : null;

/**
 * An operation's body: its jData object and the `&jKey=` tail, if any; or why it is refused (the text after
 * `Invalid Input : `).
 */
export const readJData = (req: EmulatorRequest): { fields: Json; jKey: string | undefined } | { refusal: string } => {
  if (req.bodyTooLarge || Buffer.byteLength(req.body) > MAX_BODY_BYTES) {
    return { refusal: `request body exceeds ${MAX_BODY_BYTES} bytes` };
  }
  if (!req.body.startsWith('jData=')) return { refusal: 'body must be jData=<json object>' };
  let text = req.body.slice('jData='.length);
  let jKey: string | undefined;
  const jKeyAt = text.lastIndexOf('&jKey=');
  if (jKeyAt >= 0) {
    jKey = text.slice(jKeyAt + '&jKey='.length);
    text = text.slice(0, jKeyAt);
  }
  let jData: unknown;
  try {
    jData = JSON.parse(text);
  } catch {
    return { refusal: 'jData is not valid JSON' };
  }
  if (typeof jData !== 'object' || jData === null || Array.isArray(jData))
    return { refusal: 'jData must be a JSON object' };
  return { fields: jData as Json, jKey };
};

/**
 * The session token a request authenticates with, by how the token was issued: Bearer for OAuth access tokens (and
 * the demo token), `&jKey=` for QuickAuth and Flattrade tokens. The other way round only when switched on. Never a
 * token in jData. Undefined when neither is acceptable.
 */
export const sessionToken = (
  state: EmulatorState,
  switches: Switches,
  req: EmulatorRequest,
  jKey: string | undefined,
): string | undefined => {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  const jKeyToken = jKey === undefined ? undefined : safeDecode(jKey);
  const bearerOk = bearer !== undefined && (!state.jkeyTokens.has(bearer) || switches.acceptJKeyTokenAsBearer);
  const jKeyOk = jKeyToken !== undefined && (state.jkeyTokens.has(jKeyToken) || switches.acceptJKey);
  return bearer !== undefined ? (bearerOk ? bearer : undefined) : jKeyOk ? jKeyToken : undefined;
};

/** A `jKey` value as sent (URL-encoded by careful clients, raw by others). */
const safeDecode = (value: string): string => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};
