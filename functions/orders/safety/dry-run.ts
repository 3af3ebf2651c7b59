/** Dry run: the exact request the gateway would send, with the token masked, and no broker call. */
import { type BrokerAuth, buildBrokerRequest } from '../../base/broker/jdata.js';
import type { AnyOperation } from '../../base/contract/operation.js';
import type { JData } from '../../base/contract/operation.js';
import type { BrokerSession } from '../../base/schemas/session.js';
import type { CheckedRules } from './market-rules.js';

export interface DryRunResult {
  dryRun: true;
  operation: string;
  request: { method: 'POST'; url: string; headers: Record<string, string>; body: string; jData: JData };
  /** The exchange's rules checked, with their values (place and modify of a GTT or an OCO). */
  exchangeRules?: CheckedRules;
}

export const dryRun = (
  operation: AnyOperation,
  input: unknown,
  session: BrokerSession,
  baseUrl: string,
  auth: BrokerAuth = 'bearer',
  algoId?: string,
  exchangeRules?: CheckedRules,
): DryRunResult => {
  const jData = operation.toJData(input as never, session, algoId ? { algoId } : {});
  const request = buildBrokerRequest(baseUrl, operation.broker, jData, session.accessToken, auth);
  // The token shown nowhere: masked in the header (bearer) or after `&jKey=` (jkey).
  const headers = auth === 'bearer' ? { ...request.headers, Authorization: 'Bearer <redacted>' } : request.headers;
  const body = auth === 'jkey' ? request.body.replace(/&jKey=[^&]*$/, '&jKey=<redacted>') : request.body;
  return {
    dryRun: true,
    operation: operation.name,
    request: {
      method: 'POST',
      url: request.url,
      headers,
      body,
      jData,
    },
    ...(exchangeRules ? { exchangeRules } : {}),
  };
};
