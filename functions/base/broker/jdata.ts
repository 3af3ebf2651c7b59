/**
 * The broker's wire format (docs/explanation/broker-wire.md): `POST {base}/ClientAPI/<Operation>`, `Content-Type: text/plain`,
 * body `jData=<json>`, `Authorization: Bearer <token>`. The token is never part of jData.
 */
import { ValidationFailedError } from '../contract/errors.js';
import type { JData } from '../contract/operation.js';

export type { JData };

export interface BrokerRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * docs/explanation/broker-wire.md: special characters in `tsym` must be URL-encoded. encodeURIComponent covers the ones that break the
 * broker's form parsing (`&`, `=`, `+`, `%`, space) and leaves plain symbols such as `RELIANCE-EQ` unchanged.
 */
export const encodeSymbol = (tsym: string): string => encodeURIComponent(tsym);

export const encodeJDataBody = (fields: JData): string => `jData=${JSON.stringify(fields)}`;

/** How the session travels: `Authorization: Bearer` (OAuth deployments, the default) or `&jKey=` (classic ones). */
export type BrokerAuth = 'bearer' | 'jkey';

/**
 * `{base}/<Operation>`, where the base URL carries the deployment's path prefix (`.../NorenWClientTP`); a base URL
 * without a path gets the documented `/ClientAPI`. Trailing slashes of the base are dropped, so `base/` and `base`
 * give the same URL.
 */
export const brokerUrl = (baseUrl: string, operation: string): string => {
  const base = baseUrl.replace(/\/+$/, '');
  const hasPath = new URL(base).pathname.replace(/\/+$/, '') !== '';
  return `${base}${hasPath ? '' : '/ClientAPI'}/${operation}`;
};

/** A session-less request (GenAcsTok, QuickAuth): no Authorization header, no jKey. */
export const buildLoginRequest = (baseUrl: string, operation: string, fields: JData): BrokerRequest => ({
  url: brokerUrl(baseUrl, operation),
  headers: { 'Content-Type': 'text/plain' },
  body: encodeJDataBody(fields),
});

export const buildBrokerRequest = (
  baseUrl: string,
  operation: string,
  fields: JData,
  accessToken: string,
  auth: BrokerAuth = 'bearer',
): BrokerRequest => {
  const jData = encodeJDataBody(fields);
  // Defence in depth: no code path may put the token into jData. Only the caller's input can bring it there (a
  // field equal to the token): a 400 that does not say why, so it confirms no guess; the field is not named either.
  if (jData.includes(accessToken) || (accessToken.length > 0 && jData.includes(encodeURIComponent(accessToken)))) {
    throw new ValidationFailedError(
      'The request holds a value the gateway does not send to the broker; nothing was sent.',
      {
        details: [{ field: '(input)', message: 'holds a value the gateway does not send' }],
      },
    );
  }
  const url = brokerUrl(baseUrl, operation);
  if (auth === 'jkey') {
    return { url, headers: { 'Content-Type': 'text/plain' }, body: `${jData}&jKey=${encodeURIComponent(accessToken)}` };
  }
  return { url, headers: { 'Content-Type': 'text/plain', Authorization: `Bearer ${accessToken}` }, body: jData };
};
