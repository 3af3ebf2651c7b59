/**
 * One POST to the broker over node:http(s) with a keep-alive agent that warm invocations reuse.
 * No retries here: whether a call may be repeated is the operation's decision, not the transport's.
 */
import http from 'node:http';
import https from 'node:https';

import type { BrokerRequest } from './jdata.js';

export interface BrokerHttpReply {
  status: number;
  contentType: string;
  text: string;
}

export type TransportFailureKind = 'timeout' | 'refused' | 'connection_lost' | 'reply_too_large';

/** A request that got no complete HTTP reply. `requestMayHaveArrived` is false only when nothing can have reached the broker. */
export class TransportFailure extends Error {
  override readonly name = 'TransportFailure';
  constructor(
    readonly kind: TransportFailureKind,
    readonly requestMayHaveArrived: boolean,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const MAX_REPLY_BYTES = 8 * 1024 * 1024;

// Kept at module scope so connections survive across warm invocations of the same container.
const agents = {
  'http:': new http.Agent({ keepAlive: true, keepAliveMsecs: 1_000, maxSockets: 16, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, keepAliveMsecs: 1_000, maxSockets: 16, scheduling: 'lifo' }),
};

export const postToBroker = (request: BrokerRequest, timeoutMs: number): Promise<BrokerHttpReply> =>
  new Promise((resolve, reject) => {
    const url = new URL(request.url);
    const transport = url.protocol === 'https:' ? https : http;
    const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:'];
    const body = Buffer.from(request.body, 'utf8');
    let settled = false;
    let connected = false;
    const fail = (failure: TransportFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(failure);
    };

    const req = transport.request(url, {
      method: 'POST',
      agent,
      headers: { ...request.headers, 'Content-Length': String(body.length) },
    });
    const timer = setTimeout(() => {
      fail(new TransportFailure('timeout', connected, `No reply from the broker within ${timeoutMs} ms`));
    }, timeoutMs);

    req.on('socket', (socket) => {
      // A reused keep-alive socket is already connected.
      if (!socket.connecting) connected = true;
      else socket.once('connect', () => (connected = true));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      const refused = error.code === 'ECONNREFUSED' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN';
      fail(
        new TransportFailure(
          refused ? 'refused' : 'connection_lost',
          !refused && connected,
          refused
            ? `Could not connect to the broker (${error.code})`
            : `Connection to the broker lost (${error.code ?? error.message})`,
          { cause: error },
        ),
      );
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_REPLY_BYTES) {
          fail(new TransportFailure('reply_too_large', true, `Broker reply larger than ${MAX_REPLY_BYTES} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', (error) =>
        fail(new TransportFailure('connection_lost', true, 'Broker reply was cut off', { cause: error })),
      );
      res.on('end', () => {
        if (settled) return;
        if (!res.complete) {
          fail(new TransportFailure('connection_lost', true, 'Broker reply was cut off'));
          return;
        }
        settled = true;
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          text: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    req.end(body);
  });
