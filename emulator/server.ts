/** The HTTP listener around BrokerEmulator: reads bodies (bounded), carries out delay/drop faults, never hangs on close. */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { guardControl } from './control/control-guard.js';
import type { LoginCredentials } from './login/session-login.js';
import { BrokerEmulator, type EmulatorOptions, type EmulatorReply, MAX_BODY_BYTES } from './service.js';

/** How the market moves by itself (docs/reference/emulator.md, "The market"): `still` (default) or a seeded walk. */
export interface MarketOptions {
  /** Whether every shipped symbol has a price from the start (`start`) or none (`none`, the default here). */
  prices?: EmulatorOptions['prices'];
  /** `walk`: every priced symbol takes one step of the seeded walk each `walkIntervalMs`; `still`: no move. */
  market?: 'still' | 'walk';
  /** The walk's interval in milliseconds (default 5000, at least 50). */
  walkIntervalMs?: number;
  seed?: number;
}

export const MARKET_MODES = ['still', 'walk'] as const;
export const DEFAULT_WALK_INTERVAL_MS = 5_000;

export interface StartOptions extends EmulatorOptions, MarketOptions {
  port?: number;
  host?: '127.0.0.1';
}

export interface RunningEmulator {
  url: string;
  port: number;
  uid: string;
  actid: string;
  token: string;
  /** The OAuth app: client id and secret code (GenAcsTok checksum). The redirect URL: `emulator.oauth.redirectUrl`. */
  oauth: { clientId: string; secret: string };
  /** The demo account's QuickAuth credentials. */
  login: LoginCredentials;
  emulator: BrokerEmulator;
  close(): Promise<void>;
}

export const startEmulator = async (options: StartOptions = {}): Promise<RunningEmulator> => {
  if (options.market !== undefined && !(MARKET_MODES as readonly string[]).includes(options.market))
    throw new Error(`market must be one of ${MARKET_MODES.join(', ')}`);
  const walkMs = options.walkIntervalMs ?? DEFAULT_WALK_INTERVAL_MS;
  if (!Number.isInteger(walkMs) || walkMs < 50) throw new Error('the walk interval must be at least 50 ms');
  const emulator = new BrokerEmulator(options);
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  // The market's walk: one step of every priced symbol per interval; never keeps the process alive.
  const walker = options.market === 'walk' ? setInterval(() => emulator.walk(), walkMs).unref() : undefined;

  const send = (res: http.ServerResponse, reply: EmulatorReply) => {
    if (res.destroyed) return;
    res.writeHead(reply.status, {
      ...reply.headers,
      'content-type': reply.contentType,
      'content-length': reply.bytes ? reply.bytes.length : Buffer.byteLength(reply.body),
    });
    res.end(reply.bytes ?? reply.body);
  };

  let listeningPort = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      let reply: EmulatorReply;
      try {
        const request = {
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          headers: Object.fromEntries(
            Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]),
          ),
          body: Buffer.concat(chunks).toString('utf8'),
          ...(req.socket.remoteAddress ? { remoteAddress: req.socket.remoteAddress } : {}),
          bodyTooLarge: tooLarge,
        };
        // The control surface answers only this emulator's own host and origin, and JSON bodies.
        reply = guardControl(request, listeningPort) ?? emulator.handle(request);
      } catch {
        // Never a stack trace to the client.
        reply = {
          status: 500,
          body: JSON.stringify({ stat: 'Not_Ok', emsg: 'Internal error in the emulator' }),
          contentType: 'application/json',
        };
      }
      const fault = reply.fault;
      if (fault?.kind === 'drop') {
        req.socket.destroy();
        return;
      }
      if (fault?.kind === 'delay') {
        const timer = setTimeout(() => {
          timers.delete(timer);
          // A client that gave up does not get (or cause) the delayed work, unless it was already executed or the
          // fault is `late` (the broker carries it out anyway).
          if (res.destroyed || req.socket.destroyed) {
            if (fault.late) fault.answer();
            return;
          }
          send(res, fault.answer());
        }, fault.ms);
        timers.add(timer);
        return;
      }
      send(res, reply);
    });
  });
  // An idle keep-alive connection is kept as long as nginx's default (75 s), not Node's 5 s: a client reusing a socket
  // the server is just closing sees ECONNRESET on a write that may have arrived, and under load (an event loop late by
  // a second) Node's own Keep-Alive hint does not save it. The brokers sit behind such proxies; close() still ends
  // every connection at once.
  server.keepAliveTimeout = 75_000;
  server.headersTimeout = 80_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  listeningPort = port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    uid: emulator.uid,
    actid: emulator.actid,
    token: emulator.token,
    oauth: { clientId: emulator.oauth.clientId, secret: emulator.oauth.secret },
    login: emulator.credentials,
    emulator,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        if (walker) clearInterval(walker);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
};
