/**
 * The end-of-day logout: after the market closes (India time), the session the deployment traded with is logged out
 * at the broker and the secret is marked logged out, as the 2026 rules want API sessions ended before the next
 * trading day. It is the operation table's own Logout, done everywhere (base/broker/logout.ts): the token in the secret,
 * read fresh, is ended and blanked. The next morning's login (the trader's, or the TOTP renewal) writes a new one.
 * Already logged out (or expired at the broker) is success: there is nothing left to end.
 */
import type { Logger } from '@aws-lambda-powertools/logger';

import { logoutEverywhere } from '../base/broker/logout.js';
import { SessionSource } from '../base/broker/session.js';
import { SessionExpiredError } from '../base/contract/errors.js';
import { shellHandler } from '../base/middleware/function-shell.js';
import { logout } from '../orders/operations.js';
import { dynamoTradingControls } from '../orders/safety/trading-controls.js';
import { parseSessionConfig } from './config.js';

export interface EndOfDayResult {
  stat: 'Ok';
  /** `logged-out`: a live session was ended now; `already`: nothing was live (logged out, or expired at the broker). */
  outcome: 'logged-out' | 'already';
  uid: string;
  loggedOutAt: string;
}

export const createEndOfDayLogout = (options: { env?: Record<string, string | undefined>; logger: Logger }) =>
  shellHandler<unknown, EndOfDayResult>(
    { logger: options.logger, logFailures: true, trigger: 'schedule' },
    async () => {
      const config = parseSessionConfig(options.env);
      const sessions = new SessionSource({
        secretId: config.brokerSecretId,
        maxAgeSeconds: 1,
        endpoint: config.secretsManagerEndpoint,
      });
      const wire = {
        baseUrl: config.brokerBaseUrl,
        auth: config.brokerAuth,
        timeoutMs: () => config.brokerTimeoutMs,
      };
      let outcome: EndOfDayResult['outcome'] = 'logged-out';
      try {
        const controls = config.controlTableName
          ? dynamoTradingControls({
              controlTableName: config.controlTableName,
              // The session's end only: no permit is taken here.
              orderRatePerSecond: 1,
              orderRatePerMinute: 1,
              dynamodbEndpoint: config.dynamodbEndpoint,
            })
          : undefined;
        await logoutEverywhere(
          logout,
          {},
          {
            ...wire,
            sessions,
            ...(controls ? { sessionEnded: (uid: string) => controls.endSession(uid) } : {}),
          },
        );
      } catch (error) {
        // Nothing live to end: the secret is (now) marked logged out either way.
        if (!(error instanceof SessionExpiredError)) throw error;
        outcome = 'already';
      }
      const after = await sessions.fresh();
      const loggedOutAt = after.loggedOutAt ?? new Date().toISOString();
      options.logger.info('session logged out for the night', { session: { uid: after.uid, outcome, loggedOutAt } });
      return { stat: 'Ok', outcome, uid: after.uid, loggedOutAt };
    },
  );
