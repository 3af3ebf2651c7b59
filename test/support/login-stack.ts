/**
 * The OAuth and TOTP login integration tests' shared setup: the session functions' stack for the file (emulator,
 * local Secrets Manager and DynamoDB), a captured log of every function line and reply body for the leak checks,
 * the functions' environment against the emulator, and the steps the tests repeat (read the session secret, count
 * broker exchanges, place an order through the gateway, a login round trip).
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll } from 'vitest';

import type { RunningEmulator } from '../../emulator/server.js';
import { createGatewayHandler } from '../../functions/orders/gateway/gateway-handler.js';
import { placeGttOrder } from '../../functions/orders/operations.js';
import type { createOAuthHandler } from '../../functions/session/oauth.js';
import { signInAsDemo } from './emulator-control.js';
import { invokeDirect } from './events.js';
import { captureLogger } from './logs.js';
import { SAMPLE_ORDER } from './sample-order.js';
import {
  httpGetEvent as httpEvent,
  oauthAppSecret,
  sessionEnv,
  type SessionIds,
  type SessionStack,
  startSessionStack,
} from './session-stack.js';

export type Body = Record<string, unknown> & {
  error?: { code: string; message: string; details?: { field: string; message: string }[] };
};

/** Starts the stack for the calling file under `ids`; `current()` is the stack once `beforeAll` has run. */
export const useLoginStack = (ids: SessionIds) => {
  const { session: SESSION } = ids;
  let stack: SessionStack;
  /** Every log line of the functions and every reply body, for the leak checks. */
  const output: string[] = [];
  const { logger } = captureLogger({ serviceName: 'login-it' }, (line) => output.push(line));

  const env = (extra: Record<string, string> = {}) =>
    sessionEnv(stack, ids, {
      BROKER_BASE_URL: `${stack.emulator.url}/NorenWClientAPI`,
      BROKER_AUTHORIZE_URL: `${stack.emulator.url}/OAuthlogin/authorize/oauth?client_id={clientId}`,
      ...extra,
    });
  const bodyOf = (res: APIGatewayProxyStructuredResultV2): Body => {
    output.push(String(res.body));
    return JSON.parse(String(res.body)) as Body;
  };
  const session = () =>
    JSON.parse(stack.secrets.getSecret(SESSION)!) as {
      accessToken: string;
      uid: string;
      actid: string;
      renewedAt?: string;
      method?: string;
      loggedOutAt?: string;
    };
  const exchanges = async (operation = 'GenAcsTok') =>
    (await stack.control.requests()).filter((r) => r.operation === operation).length;
  const placeOrder = SAMPLE_ORDER;
  const placeWith = (config: Record<string, unknown>) =>
    invokeDirect(
      createGatewayHandler(placeGttOrder, {
        config: {
          BROKER_SECRET_ID: SESSION,
          SECRETS_MANAGER_ENDPOINT: stack.secrets.url,
          IDEMPOTENCY_KEY_REQUIRED: false,
          ...config,
        },
      }),
      placeGttOrder,
      placeOrder,
    );
  const appSecret = (extra: Record<string, string> = {}) => oauthAppSecret(stack.emulator, extra);

  beforeAll(async () => {
    stack = await startSessionStack(ids);
    await stack.control.oauthRedirect('http://127.0.0.1:1/session/oauth/callback');
  });

  afterAll(async () => {
    await stack?.close();
  });

  /** Start a login with the function, sign in on the page it names, and answer the callback's query. */
  const loginRoundTrip = async (oauth: ReturnType<typeof createOAuthHandler>) => {
    const start = bodyOf(await oauth(httpEvent('/session/oauth/start')));
    const redirect = await signInAsDemo(stack.emulator, String(start.authorizeUrl));
    return { start, query: Object.fromEntries(redirect.searchParams) };
  };

  const current = (): SessionStack & { emulator: RunningEmulator } => stack;
  return { current, output, logger, env, bodyOf, session, exchanges, placeWith, appSecret, loginRoundTrip };
};
