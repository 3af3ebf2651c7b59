/**
 * The classic deployments' morning login: QuickAuth with the credentials secret, then a new version of the
 * session secret. A failed login leaves the old secret untouched and fails the invocation with a clear error
 * (so the function's error alarm fires); no password, seed or token is in it.
 */
import type { Logger } from '@aws-lambda-powertools/logger';

import { ConfigurationError } from '../base/contract/errors.js';
import { shellHandler } from '../base/middleware/function-shell.js';
import { envName } from '../base/runtime/env.js';
import { loginCredentialsSchema } from '../base/schemas/session.js';
import { quickAuth } from './broker-login.js';
import { parseSessionConfig, required } from './config.js';
import { publishSessionRenewed } from './renewed-event.js';
import { readJsonSecret, secretsClient, writeSession } from './secrets.js';

export interface RenewalResult {
  stat: 'Ok';
  method: 'totp';
  uid: string;
  actid: string;
  renewedAt: string;
}

export const createSessionRenewal = (options: { env?: Record<string, string | undefined>; logger: Logger }) =>
  // The shell every function runs in: the invocation's context on each log line, one line per failure.
  shellHandler<unknown, RenewalResult>(
    { logger: options.logger, logFailures: true, trigger: 'schedule' },
    async (): Promise<RenewalResult> => {
      const config = parseSessionConfig(options.env);
      // QuickAuth's `susertoken` is a jKey session: every client sends it as `&jKey=`, none as Bearer.
      if (config.brokerAuth !== 'jkey') {
        throw new ConfigurationError(
          `The TOTP login (QuickAuth) issues a jKey token: set ${envName('brokerAuth')}=jkey (CDK: sessionRenewal=totp implies brokerAuth=jkey)`,
          {
            details: [{ field: envName('brokerAuth'), message: 'must be jkey for the TOTP login' }],
          },
        );
      }
      const secrets = secretsClient(config.secretsManagerEndpoint);
      const credentials = await readJsonSecret(
        secrets,
        required(config, 'loginSecretId'),
        loginCredentialsSchema,
        '{uid, password, totpSeed, apiSecret, vendorCode?, imei?}',
      );
      try {
        const session = await quickAuth(
          { baseUrl: config.brokerBaseUrl, timeoutMs: config.brokerTimeoutMs },
          credentials,
        );
        const renewedAt = new Date().toISOString();
        const versionId = await writeSession(secrets, config.brokerSecretId, {
          ...session,
          renewedAt,
          method: 'totp',
        });
        options.logger.info('session renewed', { session: { method: 'totp', uid: session.uid, actid: session.actid } });
        await publishSessionRenewed(config, 'totp', versionId, options.logger);
        return { stat: 'Ok', method: 'totp', uid: session.uid, actid: session.actid, renewedAt };
      } catch (error) {
        options.logger.error('session renewal failed', {
          session: { method: 'totp', uid: credentials.uid },
          error: error instanceof Error ? error.message : String(error),
        });
        throw error;
      }
    },
  );
