/**
 * SigV4 for API Gateway's IAM authorisation (service `execute-api`), with aws4fetch's signer and credentials from
 * the AWS SDK's default chain (environment, shared config/SSO, container and instance roles) unless injected. Both
 * are loaded on first use: an unsigned call (npm start) and `gtt --help` load neither.
 */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

/** Resolves credentials for each request (a provider may cache and refresh them, as the SDK's do). */
export type CredentialsProvider = () => Promise<AwsCredentials>;

export const SIGV4_SERVICE = 'execute-api';

/** `abc123.execute-api.ap-south-1.amazonaws.com` (also VPC endpoint names and `.amazonaws.com.cn`) -> `ap-south-1`. */
export const regionFromUrl = (url: string | URL): string | undefined =>
  /\.execute-api\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$/.exec(new URL(url).hostname)?.[1];

/** 127.0.0.0/8, ::1 and localhost: where `npm start` listens, and nothing there checks signatures. */
export const isLoopbackUrl = (url: string | URL): boolean => {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
};

/**
 * Why a SigV4 signature may not be made for `url`, or undefined when it may: over plain http:// it would travel in
 * clear, with the access key id and, for temporary credentials, the session token in its headers, and a replayable
 * signed request. Only loopback (npm start, which checks no signature) may be plain http.
 */
export const plainHttpRefusal = (url: string | URL): string | undefined => {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' || isLoopbackUrl(parsed)) return undefined;
  return (
    `refusing to SigV4-sign for ${parsed.origin}: plain http:// to a host other than 127.0.0.1, localhost or ::1 ` +
    'would send the signed request, the access key id and any session token in clear. Use https:// (API Gateway ' +
    'serves only https), or --no-sign for a server that checks no signature.'
  );
};

let defaultChain: CredentialsProvider | undefined;

/** The SDK's default credential chain, loaded on first use only (unsigned calls never load the SDK). */
export const defaultCredentials: CredentialsProvider = async () => {
  if (!defaultChain) {
    const { defaultProvider } = await import('@aws-sdk/credential-provider-node');
    defaultChain = defaultProvider();
  }
  return defaultChain();
};

export interface SignOptions {
  region: string;
  credentials: AwsCredentials;
  /** Fixed signing time (tests); default now. */
  datetime?: string;
}

/**
 * A signed copy of `request`. The signed headers are host, x-amz-date, x-amz-security-token (temporary
 * credentials) and every other header but the ones aws4fetch leaves unsigned (content-type, content-length,
 * user-agent, ...); the body's SHA-256 is part of the signature, so a changed body fails API Gateway's check.
 * Never over plain http:// to a non-loopback host (`plainHttpRefusal`): that throws, and nothing is signed.
 */
export const signRequest = async (request: Request, options: SignOptions): Promise<Request> => {
  const refusal = plainHttpRefusal(request.url);
  if (refusal !== undefined) throw new Error(refusal);
  const body = request.body === null ? undefined : await request.clone().text();
  const { AwsV4Signer } = await import('aws4fetch');
  const signer = new AwsV4Signer({
    url: request.url,
    method: request.method,
    headers: request.headers,
    ...(body === undefined ? {} : { body }),
    accessKeyId: options.credentials.accessKeyId,
    secretAccessKey: options.credentials.secretAccessKey,
    ...(options.credentials.sessionToken ? { sessionToken: options.credentials.sessionToken } : {}),
    service: SIGV4_SERVICE,
    region: options.region,
    ...(options.datetime ? { datetime: options.datetime } : {}),
  });
  const signed = await signer.sign();
  return new Request(signed.url, {
    method: signed.method,
    headers: signed.headers,
    ...(body === undefined ? {} : { body }),
    signal: request.signal,
  });
};
