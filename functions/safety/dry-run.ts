/** Dry run: the exact request the gateway would send, with the token masked, and no broker call. */
import type { AnyOperation } from '../contract/operation.js';
import { buildBrokerRequest } from '../broker/jdata.js';
import type { BrokerSession } from '../schemas/session.js';

export interface DryRunResult {
  dryRun: true;
  operation: string;
  request: { method: 'POST'; url: string; headers: Record<string, string>; body: string; jData: Record<string, string> };
}

export const dryRun = (operation: AnyOperation, input: unknown, session: BrokerSession, baseUrl: string): DryRunResult => {
  const jData = operation.toJData(input as never, session);
  const request = buildBrokerRequest(baseUrl, operation.name, jData, session.accessToken);
  return {
    dryRun: true,
    operation: operation.name,
    request: {
      method: 'POST',
      url: request.url,
      headers: { ...request.headers, Authorization: 'Bearer <redacted>' },
      body: request.body,
      jData,
    },
  };
};
