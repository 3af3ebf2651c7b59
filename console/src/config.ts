/**
 * The console's `config.json`, fetched from beside index.html: `{ "mode": "local" }` under `npm start`; for a
 * deployed stack (infra/constructs/console.ts writes it) the ids the Cognito sign-in needs and the API's URL.
 */
import * as z from 'zod';

/** https, or http on loopback (the tests' fakes on 127.0.0.1). */
const httpsUrl = z
  .url({ protocol: /^https?$/ })
  .refine((url) => url.startsWith('https://') || /^http:\/\/(?:127\.0\.0\.1|localhost)(?::\d+)?(?:\/|$)/.test(url), {
    message: 'must be an https:// URL',
  });

const localConfigSchema = z.strictObject({ mode: z.literal('local') });

const cognitoConfigSchema = z.strictObject({
  mode: z.literal('cognito'),
  /** The stack's region (`ap-south-1`): the identity pool's endpoint and the SigV4 signature's. */
  region: z.string().regex(/^[a-z]{2}(?:-[a-z]+)+-\d$/),
  /** The HTTP API's base URL (`https://<id>.execute-api.<region>.amazonaws.com`), no trailing slash. */
  apiUrl: httpsUrl,
  /** The user pool (`<region>_<id>`): the identity pool's login key is `cognito-idp.<region>.amazonaws.com/<id>`. */
  userPoolId: z.string().regex(/^[\w-]+_[0-9a-zA-Z]+$/),
  /** The app client (no secret) of the code flow with PKCE. */
  userPoolClientId: z.string().regex(/^[\w+]+$/),
  /** The identity pool (`<region>:<uuid>`) whose authenticated role may call the API's routes. */
  identityPoolId: z.string().regex(/^[\w-]+:[0-9a-f-]+$/),
  /** The managed login's origin, `https://<prefix>.auth.<region>.amazoncognito.com` (/oauth2/*, /logout). */
  authUrl: httpsUrl,
  /** The console's own URL, `https://<distribution>/`: the app client's only callback and sign-out URL. */
  redirectUri: httpsUrl,
});

export const consoleConfigSchema = z.discriminatedUnion('mode', [localConfigSchema, cognitoConfigSchema]);

export type LocalConfig = z.infer<typeof localConfigSchema>;
export type CognitoConfig = z.infer<typeof cognitoConfigSchema>;
export type ConsoleConfig = z.infer<typeof consoleConfigSchema>;
