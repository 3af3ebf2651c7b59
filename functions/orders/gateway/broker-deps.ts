/**
 * How long one broker attempt may take, written once: the deployment's BROKER_TIMEOUT_MS, ended a second before the
 * invocation's deadline (so our own timeout fires, not Lambda's) and, for an order write, by the end of its bound
 * (every attempt of the write ends by then: docs/explanation/order-safety.md, "The late window"); never under MIN_ATTEMPT_MS.
 */
import type { BrokerCallDeps } from '../../base/broker/call-broker.js';
import type { BrokerSession } from '../../base/broker/session.js';
import type { GatewayConfig } from '../../base/runtime/config.js';

/** The shortest broker attempt: a shorter timeout would only turn a reply on its way into an unknown outcome. */
export const MIN_ATTEMPT_MS = 100;

/** Lambda's longest invocation: the deadline of a caller that gave none. */
const LONGEST_INVOCATION_MS = 15 * 60_000;

/** The epoch ms by which an invocation must end, from a Lambda context (or a caller without one). */
export const deadlineOf = (context: { getRemainingTimeInMillis?: () => number } | undefined): number =>
  Date.now() +
  (typeof context?.getRemainingTimeInMillis === 'function'
    ? context.getRemainingTimeInMillis()
    : LONGEST_INVOCATION_MS);

/** An attempt's timeout, read when the attempt starts. */
export const attemptTimeout =
  (brokerTimeoutMs: number, deadline: number, endsBy = Number.POSITIVE_INFINITY) =>
  (): number =>
    Math.max(MIN_ATTEMPT_MS, Math.min(brokerTimeoutMs, deadline - Date.now() - 1_000, endsBy - Date.now()));

/** The session as the path's steps hold it: the current one (cached) and a fresh read of the secret. */
export interface SessionReads {
  session: () => Promise<BrokerSession>;
  refreshSession: () => Promise<BrokerSession>;
}

/** A broker call's deps: the deployment's broker, the session, and the attempt's timeout by `deadline` (and `endsBy`). */
export const brokerDeps = (
  config: Pick<GatewayConfig, 'brokerBaseUrl' | 'brokerAuth' | 'brokerTimeoutMs'>,
  session: SessionReads,
  deadline: number,
  endsBy?: number,
): BrokerCallDeps => ({
  baseUrl: config.brokerBaseUrl,
  auth: config.brokerAuth,
  timeoutMs: attemptTimeout(config.brokerTimeoutMs, deadline, endsBy),
  session: session.session,
  refreshSession: session.refreshSession,
});
