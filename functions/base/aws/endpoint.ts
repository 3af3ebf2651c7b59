/**
 * Where an AWS client sends its calls, and as whom. Deployed there is no endpoint: the client uses the service's own
 * and signs with the role's credentials Lambda puts in the environment. On this machine (`npm start`, the tests)
 * each endpoint is a local server, and its URL carries the calling function's own local credentials as its user
 * info (`http://<key>:<secret>@127.0.0.1:port`, local/permissions/): every function of the set shares one process
 * there, so the process's environment cannot say which function calls. The local endpoint checks the signature and
 * holds the call to what the synthesized template grants that function's role.
 */

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** The region the local endpoints sign in (the local stack's ARNs name it too). */
export const LOCAL_SIGNING_REGION = 'us-east-1';

/** What a client is built with: nothing deployed; locally the endpoint and, when the URL names them, credentials. */
export interface ClientTarget {
  endpoint?: string;
  credentials?: AwsCredentials;
}

const USER_INFO = /^(https?:\/\/)([^@/]*)@/;

/** The client's endpoint and credentials from a configured endpoint URL (absent deployed). */
export const clientTarget = (endpoint: string | undefined): ClientTarget => {
  if (!endpoint) return {};
  const match = USER_INFO.exec(endpoint);
  if (!match) return { endpoint };
  const [user = '', secret = ''] = match[2]!.split(':');
  return {
    endpoint: endpoint.replace(USER_INFO, '$1'),
    credentials: { accessKeyId: decodeURIComponent(user), secretAccessKey: decodeURIComponent(secret) },
  };
};

/** An endpoint URL carrying these credentials (what the local stack gives each function). */
export const withCredentials = (endpoint: string, credentials: AwsCredentials): string =>
  endpoint.replace(
    /^(https?:\/\/)/,
    `$1${encodeURIComponent(credentials.accessKeyId)}:${encodeURIComponent(credentials.secretAccessKey)}@`,
  );
