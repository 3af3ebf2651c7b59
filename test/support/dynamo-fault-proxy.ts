/**
 * A small HTTP proxy in front of the local stack's DynamoDB endpoint (dynalite behind local/dynamodb-streams.ts), for
 * the system model (system-model.ts): the functions pointed at it (through startLocalStack's per-function
 * `overrides` of DYNAMODB_ENDPOINT) reach their tables as usual until the model "kills the process": from then on
 * every request through the proxy is dropped unanswered (the connection destroyed, so the SDK's own retries are
 * dropped too), as nothing a dead Lambda would have written ever lands. `revive()` lets requests through again.
 *
 * The target is bound after the stack has started (its endpoint is only known then), so the proxy's URL can be given
 * in the stack's options first.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DynamoFaultProxy {
  url: string;
  /** Where requests go (the stack's DynamoDB endpoint); requests before it is set are dropped. */
  target: string | undefined;
  /** Drop every request from now on, until `revive()`. */
  kill(): void;
  revive(): void;
  readonly killed: boolean;
  /** Requests dropped so far. */
  readonly dropped: number;
  /** The action of every request received (`GetItem`, `TransactWriteItems`, ...), in order: the calls it counts. */
  readonly calls: string[];
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** Headers not passed on: the hop's own (fetch sets them for the next hop). */
const HOP = new Set(['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding', 'expect']);

export const startDynamoFaultProxy = async (): Promise<DynamoFaultProxy> => {
  let killed = false;
  let dropped = 0;
  const calls: string[] = [];
  const state = { target: undefined as string | undefined };
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      calls.push(String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '');
      if (killed || !state.target) {
        dropped += 1;
        req.socket.destroy();
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers)
          .filter(([name, value]) => !HOP.has(name) && typeof value === 'string')
          .map(([name, value]) => [name, value as string]),
      );
      // The host the client signed for, so the endpoint behind checks the signature it made (local/permissions/).
      if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;
      const reply = await fetch(`${state.target}${req.url ?? '/'}`, { method: req.method, headers, body });
      const text = Buffer.from(await reply.arrayBuffer());
      // Killed while the request was on its way: its answer is never heard either.
      if (killed) {
        dropped += 1;
        req.socket.destroy();
        return;
      }
      res.writeHead(reply.status, {
        'content-type': reply.headers.get('content-type') ?? 'application/x-amz-json-1.0',
      });
      res.end(text);
    })().catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    get target() {
      return state.target;
    },
    set target(value) {
      state.target = value;
    },
    kill: () => {
      killed = true;
    },
    revive: () => {
      killed = false;
    },
    get killed() {
      return killed;
    },
    get dropped() {
      return dropped;
    },
    calls,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
