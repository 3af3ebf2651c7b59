/**
 * Logout ends the session everywhere, not just in this container. It reads the secret fresh, ends the token the
 * secret holds, marks the secret logged out (so every function answers SESSION_EXPIRED without calling the broker
 * once it reads the secret), and also ends the token this container still held if that one is different (a renewal
 * since it was cached, or a stale token left by an earlier Logout that the broker refused).
 */
import { ConfigurationError, SessionExpiredError } from '../contract/errors.js';
import type { AnyOperation } from '../contract/operation.js';
import { annotate, type BrokerCallDeps, type BrokerCallResult, sendOnce } from './call-broker.js';
import type { BrokerSession, SessionSource } from './session.js';

export interface LogoutDeps extends Omit<BrokerCallDeps, 'session' | 'refreshSession'> {
  sessions: Pick<SessionSource, 'cached' | 'fresh' | 'markLoggedOut'>;
  /**
   * Tells every container the session ended (the account's control item, orders/safety/trading-controls.ts): their next
   * order re-reads the secret, whatever token the broker would still accept. Absent without a control table.
   */
  sessionEnded?: (uid: string) => Promise<void>;
  now?: () => Date;
}

/** Sends Logout with one token: its reply, or `expired` when the broker says the token is already dead. */
const endToken = async (operation: AnyOperation, input: unknown, session: BrokerSession, deps: LogoutDeps) => {
  try {
    return { reply: await sendOnce(operation, input, session, deps) };
  } catch (error) {
    if (error instanceof SessionExpiredError) return { expired: error };
    throw annotate(operation, error);
  }
};

export const logoutEverywhere = async (
  operation: AnyOperation,
  input: unknown,
  deps: LogoutDeps,
): Promise<BrokerCallResult> => {
  const held = await deps.sessions.cached();
  const secret = await deps.sessions.fresh();
  let attempts = 0;
  let result: unknown;
  let expired: SessionExpiredError | undefined;

  if (secret.loggedOutAt === undefined) {
    attempts += 1;
    // A failure here (timeout, 5xx, Not_Ok) leaves the secret as it was: the token may still work.
    const ended = await endToken(operation, input, secret, deps);
    if ('reply' in ended) result = ended.reply;
    else expired = ended.expired;
    try {
      await deps.sessions.markLoggedOut(secret, deps.now?.() ?? new Date());
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ConfigurationError(
        `The broker ended the session, but the secret could not be marked logged out, so functions will keep reading its token (the broker refuses it): ${reason}`,
        { cause: error, outcome: 'unknown' },
      );
    }
    try {
      await deps.sessionEnded?.(secret.uid);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ConfigurationError(
        `The session is ended and the secret marked logged out, but the control table could not be told, so a warm function may send an order with the old token until its secret cache expires: ${reason}`,
        { cause: error, outcome: 'unknown' },
      );
    }
  }

  if (held.loggedOutAt === undefined && held.accessToken !== secret.accessToken) {
    attempts += 1;
    const ended = await endToken(operation, input, held, deps);
    if ('reply' in ended) result ??= ended.reply;
    else expired ??= ended.expired;
  }

  if (result !== undefined) return { result, attempts };
  const error = new SessionExpiredError(
    secret.loggedOutAt === undefined
      ? 'The broker session had already expired; the secret is now marked logged out. Log in again to store a new token.'
      : `The broker session was already logged out at ${secret.loggedOutAt}; nothing was left to end. Log in again to store a new token.`,
    {
      ...(expired?.brokerMessage === undefined ? {} : { brokerMessage: expired.brokerMessage }),
      outcome: 'not_executed',
    },
  );
  throw error;
};
