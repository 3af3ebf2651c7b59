/**
 * AWS Signature Version 4 of a JSON POST to the service's root path (DynamoDB's JSON 1.0 protocol), synchronous with
 * node:crypto: the canonical request, the string to sign and the signature as AWS documents them
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html). The signing key is derived once a
 * day per secret, region and service. Measured against the SDK's signer and aws4fetch's (WebCrypto, asynchronous):
 * bench/dynamo-clients.ts.
 */
import { createHash, createHmac } from 'node:crypto';

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | undefined;
}

export interface SignedPost {
  /** The request's headers, `authorization` included (lower-case names). */
  headers: Record<string, string>;
}

const sha256Hex = (data: string): string => createHash('sha256').update(data, 'utf8').digest('hex');

/** The derived key of the last day signed for, per secret, region and service (one entry in practice). */
const keys = new Map<string, Buffer>();

const signingKey = (secret: string, day: string, region: string, service: string): Buffer => {
  const id = `${day}\n${region}\n${service}\n${secret}`;
  let key = keys.get(id);
  if (!key) {
    const step = (k: string | Buffer, data: string) => createHmac('sha256', k).update(data, 'utf8').digest();
    key = step(step(step(step(`AWS4${secret}`, day), region), service), 'aws4_request');
    // A day's keys only: a long-lived container never holds more than a few.
    if (keys.size > 8) keys.clear();
    keys.set(id, key);
  }
  return key;
};

/** `YYYYMMDDTHHMMSSZ` of `now`. */
export const amzDate = (now: number): string => new Date(now).toISOString().replace(/[-:]|\.\d{3}/g, '');

/**
 * Signs a POST of `body` to `/` on `host` with these headers (names lower-case; `host`, `x-amz-date` and, with a
 * session token, `x-amz-security-token` are added). Every header given is signed.
 */
export const signPost = (options: {
  host: string;
  headers: Record<string, string>;
  body: string;
  region: string;
  service: string;
  credentials: SigningCredentials;
  now?: number;
}): SignedPost => {
  const date = amzDate(options.now ?? Date.now());
  const day = date.slice(0, 8);
  const headers: Record<string, string> = { ...options.headers, host: options.host, 'x-amz-date': date };
  if (options.credentials.sessionToken) headers['x-amz-security-token'] = options.credentials.sessionToken;
  const names = Object.keys(headers).sort();
  const signedHeaders = names.join(';');
  const canonical = [
    'POST',
    '/',
    '',
    ...names.map((name) => `${name}:${headers[name]!.trim().replace(/\s+/g, ' ')}`),
    '',
    signedHeaders,
    sha256Hex(options.body),
  ].join('\n');
  const scope = `${day}/${options.region}/${options.service}/aws4_request`;
  const signature = createHmac(
    'sha256',
    signingKey(options.credentials.secretAccessKey, day, options.region, options.service),
  )
    .update(`AWS4-HMAC-SHA256\n${date}\n${scope}\n${sha256Hex(canonical)}`, 'utf8')
    .digest('hex');
  headers.authorization =
    `AWS4-HMAC-SHA256 Credential=${options.credentials.accessKeyId}/${scope}, ` +
    `SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return { headers };
};
