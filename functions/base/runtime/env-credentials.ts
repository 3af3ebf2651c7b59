/**
 * The credential provider of the deployed bundles: the role's credentials that Lambda puts in the environment of
 * every function (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), and nothing else.
 *
 * The CDK bundling (infra/constructs/gateway-function.ts) aliases `@aws-sdk/credential-provider-node` to this module,
 * so a function's bundle carries no SSO, STS, INI-file, process or instance-metadata providers (about 130 KB of the
 * SDK's default chain, compiled at every cold start and never run in Lambda). It has the three exports the SDK
 * clients take from that package. Tests, `npm start` and the scripts are not bundled and keep the full chain.
 */

/** The credentials as the SDK's signer takes them (`AwsCredentialIdentity`). */
export interface EnvCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

export class EnvCredentialsMissingError extends Error {
  override name = 'CredentialsProviderError';
}

/** Reads the environment on every call: the SDK memoizes what it gets and asks again only when it is expired. */
export const defaultProvider =
  (_init: unknown = {}): (() => Promise<EnvCredentials>) =>
  () => {
    const accessKeyId = process.env.AWS_ACCESS_KEY_ID;
    const secretAccessKey = process.env.AWS_SECRET_ACCESS_KEY;
    const sessionToken = process.env.AWS_SESSION_TOKEN;
    const expiry = process.env.AWS_CREDENTIAL_EXPIRATION;
    if (!accessKeyId || !secretAccessKey) {
      return Promise.reject(
        new EnvCredentialsMissingError(
          'No AWS credentials in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY): the deployed bundle reads ' +
            'only these, as Lambda sets them.',
        ),
      );
    }
    return Promise.resolve({
      accessKeyId,
      secretAccessKey,
      ...(sessionToken ? { sessionToken } : {}),
      ...(expiry ? { expiration: new Date(expiry) } : {}),
    });
  };

/** As the SDK's own: credentials with an expiry are refreshed, five minutes before it. */
export const credentialsWillNeedRefresh = (credentials?: EnvCredentials): boolean =>
  credentials?.expiration !== undefined;

export const credentialsTreatedAsExpired = (credentials?: EnvCredentials): boolean =>
  credentials?.expiration !== undefined && credentials.expiration.getTime() - Date.now() < 300_000;

/**
 * The gateway's own AWS client (base/aws/json-client.ts) reads where and as whom here, per call: the region Lambda
 * sets (AWS_REGION, else AWS_DEFAULT_REGION) and the role's credentials, undefined when the environment has none.
 */
export const regionOfEnvironment = (): string | undefined => process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;

export const credentialsOfEnvironment = (): EnvCredentials | undefined => {
  const accessKeyId = process.env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = process.env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) return undefined;
  const sessionToken = process.env.AWS_SESSION_TOKEN;
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
};
