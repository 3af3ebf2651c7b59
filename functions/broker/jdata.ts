/**
 * The broker's wire format (docs/broker-wire.md): `POST {base}/ClientAPI/<Operation>`, `Content-Type: text/plain`,
 * body `jData=<json>`, `Authorization: Bearer <token>`. The token is never part of jData.
 */
import { InternalError } from '../contract/errors.js';
import type { JData } from '../contract/operation.js';

export type { JData };

export interface BrokerRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * docs/broker-wire.md: special characters in `tsym` must be URL-encoded. encodeURIComponent covers the ones that break the
 * broker's form parsing (`&`, `=`, `+`, `%`, space) and leaves plain symbols such as `RELIANCE-EQ` unchanged.
 */
export const encodeSymbol = (tsym: string): string => encodeURIComponent(tsym);

export const encodeJDataBody = (fields: JData): string => `jData=${JSON.stringify(fields)}`;

export const buildBrokerRequest = (baseUrl: string, operation: string, fields: JData, accessToken: string): BrokerRequest => {
  const body = encodeJDataBody(fields);
  // Defence in depth: no code path may put the token into the body.
  if (body.includes(accessToken)) {
    throw new InternalError('Refusing to send a request whose jData contains the access token');
  }
  return {
    url: `${baseUrl.replace(/\/+$/, '')}/ClientAPI/${operation}`,
    headers: { 'Content-Type': 'text/plain', Authorization: `Bearer ${accessToken}` },
    body,
  };
};
