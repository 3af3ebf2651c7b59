/**
 * What AWS does with a SigV4-signed request: the Authorization header read, and the signature recomputed by
 * @smithy/signature-v4 (the AWS SDK's signer) over the received method, path, query, signed headers and body with
 * the credentials the access key names. The local endpoints verify every function's call with it (gate.ts), and
 * tests of a signer (the client's, the console's) check what it sent.
 */
import { createHash, createHmac } from 'node:crypto';
import type http from 'node:http';

import { SignatureV4 } from '@smithy/signature-v4';

export interface CapturedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: SourceData): string | Uint8Array =>
  typeof data === 'string'
    ? data
    : ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data);

/** SHA-256 and HMAC-SHA256 from node:crypto in the shape @smithy/signature-v4 expects. */
export class NodeSha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}

export const authorizationOf = (request: CapturedRequest) => {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      String(request.headers.authorization),
    );
  if (!match) throw new Error(`not a SigV4 Authorization header: ${String(request.headers.authorization)}`);
  const [, accessKeyId, , region, service, signedHeaders, signature] = match;
  return {
    accessKeyId: accessKeyId!,
    region: region!,
    service: service!,
    signedHeaders: signedHeaders!.split(';'),
    signature: signature!,
  };
};

/** The signature API Gateway would compute for the captured request with these credentials. */
export const recomputeSignature = async (
  request: CapturedRequest,
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string },
): Promise<string> => {
  const auth = authorizationOf(request);
  const url = new URL(request.url, 'http://placeholder');
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const prior = query[name];
    query[name] = prior === undefined ? value : [...(Array.isArray(prior) ? prior : [prior]), value];
  }
  // A test's proxy in between (test/support/dynamo-fault-proxy.ts) says which host the client signed for.
  const forwardedHost = request.headers['x-forwarded-host'];
  const headers = Object.fromEntries(
    auth.signedHeaders.map((name) => [
      name,
      String(name === 'host' && typeof forwardedHost === 'string' ? forwardedHost : request.headers[name]),
    ]),
  );
  const amzDate = String(request.headers['x-amz-date']);
  const signingDate = new Date(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  const signer = new SignatureV4({
    credentials,
    region: auth.region,
    service: auth.service,
    sha256: NodeSha256,
    uriEscapePath: true,
    applyChecksum: false,
  });
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: 'http:',
      hostname: String(request.headers.host ?? '127.0.0.1').replace(/:\d+$/, ''),
      path: url.pathname,
      query,
      headers,
      ...(request.body ? { body: request.body } : {}),
    },
    { signingDate },
  );
  return authorizationOf({
    ...request,
    headers: { authorization: String(signed.headers.authorization ?? signed.headers.Authorization) },
  }).signature;
};

/** Whether the request carries a valid signature by these credentials (false on any malformed header). */
export const signatureHolds = async (
  request: CapturedRequest,
  credentials: { accessKeyId: string; secretAccessKey: string },
): Promise<boolean> => {
  try {
    return (await recomputeSignature(request, credentials)) === authorizationOf(request).signature;
  } catch {
    return false;
  }
};
