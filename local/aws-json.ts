/**
 * The awsJson1_1 protocol as the real AWS SDK clients speak it (`POST /`, `X-Amz-Target: <Service>.<Operation>`,
 * a JSON body, `application/x-amz-json-1.1` replies with `__type` errors), shared by the local Secrets Manager and
 * EventBridge endpoints (and the signal queue's). A request without an Authorization header is refused like AWS does;
 * once guarded (local/permissions/), a function's request is held to its deployed permissions first.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';

import type { EndpointAuthorizer } from './permissions/gate.js';

export const replyAwsJson = (res: http.ServerResponse, status: number, body: unknown, errorType?: string): void => {
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.1',
    'x-amzn-requestid': randomUUID(),
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  res.end(JSON.stringify(body));
};

export const failAwsJson = (res: http.ServerResponse, status: number, type: string, message: string): void =>
  replyAwsJson(res, status, { __type: type, message }, type);

/** Where a server finds its authorizer once the stack installs one (`guard`). */
export interface AwsJsonGuard {
  current?: EndpointAuthorizer;
}

export interface AwsJsonServerOptions {
  /** Checked before `handle` once set. */
  guard?: AwsJsonGuard;
  /** The `X-Amz-Target` values served (e.g. `AWSEvents.PutEvents`). */
  targets: readonly string[];
  maxBody: number;
  /** The error a body over `maxBody` gets: `[__type, message]`. */
  tooLarge: readonly [string, string];
  handle(target: string, input: unknown, res: http.ServerResponse): void;
}

/** An HTTP server that checks method, authorization, size, target and JSON, then hands the parsed body on. */
export const awsJsonServer = (options: AwsJsonServerOptions): http.Server =>
  http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= options.maxBody) chunks.push(chunk);
    });
    req.on('end', () => {
      if (req.method !== 'POST') return failAwsJson(res, 400, 'UnknownOperationException', 'Only POST is supported');
      if (!req.headers.authorization)
        return failAwsJson(res, 400, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
      if (size > options.maxBody) return failAwsJson(res, 400, options.tooLarge[0], options.tooLarge[1]);
      const target = String(req.headers['x-amz-target'] ?? '');
      if (!options.targets.includes(target)) {
        return failAwsJson(
          res,
          400,
          'UnknownOperationException',
          `Operation ${target || '(none)'} is not supported by the local endpoint`,
        );
      }
      let input: unknown;
      try {
        input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        return failAwsJson(res, 400, 'SerializationException', 'Request body is not valid JSON');
      }
      const authorize = options.guard?.current;
      if (!authorize) return options.handle(target, input, res);
      const captured = {
        method: req.method,
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      authorize(captured, target, (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>)
        .then((refusal) =>
          refusal
            ? failAwsJson(res, refusal.status, refusal.type, refusal.message)
            : options.handle(target, input, res),
        )
        .catch((error: unknown) => failAwsJson(res, 500, 'InternalFailure', String(error)));
    });
  });
