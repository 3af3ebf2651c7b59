/**
 * The identity pool's two calls, as plain JSON POSTs (no SDK in the page): `GetId` for the signed-in user's
 * identity, `GetCredentialsForIdentity` for temporary credentials of the pool's authenticated role, both with the
 * user pool's id token as the login.
 */
import type { CognitoConfig } from '../config.js';

export interface TemporaryCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export const identityEndpoint = (region: string): string => `https://cognito-identity.${region}.amazonaws.com/`;

/** The identity pool's login key for the user pool's id tokens. */
const loginKey = (config: CognitoConfig): string => `cognito-idp.${config.region}.amazonaws.com/${config.userPoolId}`;

const call = async (
  url: string,
  target: 'GetId' | 'GetCredentialsForIdentity',
  body: unknown,
  fetchFn: typeof fetch,
): Promise<Record<string, unknown>> => {
  const response = await fetchFn(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `AWSCognitoIdentityService.${target}`,
    },
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const type = typeof answer.__type === 'string' ? answer.__type.split('#').pop() : `HTTP ${response.status}`;
    throw new Error(`the identity pool refused ${target}: ${type}`);
  }
  return answer;
};

export const identityCredentials = async (
  config: CognitoConfig,
  idToken: string,
  fetchFn: typeof fetch,
  url = identityEndpoint(config.region),
): Promise<TemporaryCredentials> => {
  const logins = { [loginKey(config)]: idToken };
  const id = await call(url, 'GetId', { IdentityPoolId: config.identityPoolId, Logins: logins }, fetchFn);
  if (typeof id.IdentityId !== 'string') throw new Error('the identity pool answered GetId without an IdentityId');
  const answer = await call(url, 'GetCredentialsForIdentity', { IdentityId: id.IdentityId, Logins: logins }, fetchFn);
  const c = answer.Credentials as Record<string, unknown> | undefined;
  if (
    typeof c?.AccessKeyId !== 'string' ||
    typeof c.SecretKey !== 'string' ||
    typeof c.SessionToken !== 'string' ||
    typeof c.Expiration !== 'number'
  ) {
    throw new Error('the identity pool answered GetCredentialsForIdentity without credentials');
  }
  // Expiration is in epoch seconds (the service's JSON timestamps).
  return {
    accessKeyId: c.AccessKeyId,
    secretAccessKey: c.SecretKey,
    sessionToken: c.SessionToken,
    expiresAt: c.Expiration * 1000,
  };
};
