/**
 * `npm run emulator -- [--port N] [--token T] [--dialect noren|2021|flattrade] [--accept-jkey] [--empty-list-as-array] [--invalid-input-as-400]
 *   [--password P] [--totp-seed BASE32] [--api-secret S] [--oauth-client-id ID] [--oauth-secret S] [--oauth-redirect-url URL]
 *   [--prices start|none] [--market still|walk] [--walk-interval SECONDS] [--seed N]`
 */
import { parseArgs } from 'node:util';

import { MARKET_FLAGS, MARKET_USAGE, marketOptionsOf } from './market-flags.js';
import { startEmulator } from './server.js';
import { EMULATOR_DIALECTS, isDialect } from './wire/dialect.js';

const usage = `usage: npm run emulator -- [--port N (default 9100, 0 = any free port)] [--token T] [--accept-jkey]
    [--empty-list-as-array] [--invalid-input-as-400] [--echo-oauth-state] [--accept-jkey-token-as-bearer] [--accept-api-market-orders] [--enforce-order-rate]
    [--gen-acs-tok-without-uid (GenAcsTok takes {code, checksum} without uid; default: refused INVALID_VERIFIER)]
    [--any-symbol (take orders for any symbol; default: the shipped list only, as a broker lists its own)]
    [--demo-token-style bearer|jkey] [--dialect noren|2021|flattrade (the replies' dialect; default noren)]
    [--password P] [--totp-seed BASE32] [--api-secret S]                 (QuickAuth login; random when absent)
    [--oauth-client-id ID] [--oauth-secret S] [--oauth-redirect-url URL] (OAuth app; id defaults to DEMO01_U)
    ${MARKET_USAGE}`;

let values;
try {
  values = parseArgs({
    options: {
      port: { type: 'string' },
      token: { type: 'string' },
      'accept-jkey': { type: 'boolean' },
      'empty-list-as-array': { type: 'boolean' },
      'invalid-input-as-400': { type: 'boolean' },
      'echo-oauth-state': { type: 'boolean' },
      'accept-jkey-token-as-bearer': { type: 'boolean' },
      'accept-api-market-orders': { type: 'boolean' },
      'enforce-order-rate': { type: 'boolean' },
      'any-symbol': { type: 'boolean' },
      'gen-acs-tok-without-uid': { type: 'boolean' },
      'demo-token-style': { type: 'string' },
      dialect: { type: 'string' },
      password: { type: 'string' },
      'totp-seed': { type: 'string' },
      'api-secret': { type: 'string' },
      'oauth-client-id': { type: 'string' },
      'oauth-secret': { type: 'string' },
      'oauth-redirect-url': { type: 'string' },
      ...MARKET_FLAGS,
      help: { type: 'boolean' },
    },
  }).values;
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const port = values.port === undefined ? 9100 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`--port must be a whole number from 0 to 65535, got ${JSON.stringify(values.port)}\n${usage}`);
  process.exit(2);
}
if (values.token !== undefined && !/^[\x21-\x7e]{8,256}$/.test(values.token)) {
  console.error(`--token must be 8 to 256 printable characters without spaces\n${usage}`);
  process.exit(2);
}

const demoTokenStyle = values['demo-token-style'] ?? 'bearer';
if (demoTokenStyle !== 'bearer' && demoTokenStyle !== 'jkey') {
  console.error(`--demo-token-style must be bearer or jkey, got ${JSON.stringify(demoTokenStyle)}\n${usage}`);
  process.exit(2);
}

const dialect = values.dialect ?? 'noren';
if (!isDialect(dialect)) {
  console.error(
    `--dialect must be ${EMULATOR_DIALECTS.slice(0, -1).join(', ')} or ${EMULATOR_DIALECTS.at(-1)}, got ${JSON.stringify(dialect)}\n${usage}`,
  );
  process.exit(2);
}

const market = marketOptionsOf(values);
if ('problem' in market) {
  console.error(`${market.problem}\n${usage}`);
  process.exit(2);
}

const options = {
  ...market,
  dialect,
  demoTokenStyle: demoTokenStyle as 'bearer' | 'jkey',
  port,
  ...(values.token ? { token: values.token } : {}),
  acceptJKey: values['accept-jkey'] ?? false,
  emptyListAsArray: values['empty-list-as-array'] ?? false,
  invalidInputAs400: values['invalid-input-as-400'] ?? false,
  echoOAuthState: values['echo-oauth-state'] ?? false,
  acceptJKeyTokenAsBearer: values['accept-jkey-token-as-bearer'] ?? false,
  acceptApiMarketOrders: values['accept-api-market-orders'] ?? false,
  enforceOrderRate: values['enforce-order-rate'] ?? false,
  acceptAnySymbol: values['any-symbol'] ?? false,
  genAcsTokWithoutUid: values['gen-acs-tok-without-uid'] ?? false,
  ...(values.password === undefined ? {} : { password: values.password }),
  ...(values['totp-seed'] === undefined ? {} : { totpSeed: values['totp-seed'] }),
  ...(values['api-secret'] === undefined ? {} : { apiSecret: values['api-secret'] }),
  ...(values['oauth-client-id'] === undefined ? {} : { oauthClientId: values['oauth-client-id'] }),
  ...(values['oauth-secret'] === undefined ? {} : { oauthSecret: values['oauth-secret'] }),
  ...(values['oauth-redirect-url'] === undefined ? {} : { oauthRedirectUrl: values['oauth-redirect-url'] }),
};
const running = await startEmulator(options).catch((error: NodeJS.ErrnoException) => {
  if (error.code === 'EADDRINUSE') {
    console.error(`Port ${port} is in use; try --port 0`);
    process.exit(1);
  }
  // A refused setting (short password, bad seed, bad URL): a usage error.
  console.error(`${error.message}\n${usage}`);
  process.exit(2);
});

const { oauth, login } = running;
console.log(`broker emulator listening on ${running.url}`);
console.log(`demo account  uid ${running.uid}  actid ${running.actid}`);
console.log(`session token ${running.token}`);
console.log(
  `market        prices ${market.prices}  ${market.market === 'walk' ? `walk every ${(market.walkIntervalMs ?? 5_000) / 1_000} s, seed ${market.seed ?? 58}` : 'still (moves on POST /_emulator/ltp)'}`,
);
console.log(`QuickAuth     password ${login.password}  totp seed ${login.totpSeed}  api secret ${login.apiSecret}`);
console.log(
  `OAuth app     client id ${oauth.clientId}  secret ${oauth.secret}  redirect ${running.emulator.oauth.redirectUrl ?? '(none: POST /_emulator/oauth {"redirectUrl": "..."})'}`,
);
console.log(
  `              login page ${running.url}/OAuthlogin/authorize/oauth?client_id=${encodeURIComponent(oauth.clientId)}`,
);
console.log(
  `              (also /OAuthlogin?api_key=..., /OAuthlogin/investor-entry-level/login?api_key=...&route_to=<uid>, Flattrade's /?app_key=...)`,
);
console.log(
  `              sign in: user ${running.uid}, the password above, OTP: curl -s ${running.url}/_emulator/otp`,
);
console.log(`\ntry:\n  curl -s -X POST ${running.url}/ClientAPI/GetPendingGTTOrder -H 'Content-Type: text/plain' \\
    -H 'Authorization: Bearer ${running.token}' --data 'jData={"uid":"${running.uid}"}'`);

const stop = () => void running.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
