/**
 * A loopback proxy in front of the emulator that makes GetQuotes answer for another instrument, as Shoonya does now
 * and then (openalgo #1792): a reply for `from` comes back naming `to`'s symbol, token and price. Everything else
 * passes through unchanged. The target is set once the emulator listens (the stack is started with this proxy as
 * the quoting function's broker address). Loopback only; `close()` ends it.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface QuoteSwap {
  /** The symbol whose quotes are answered for another. */
  from: string;
  to: { tsym: string; token: string; lp: string };
}

export interface QuoteSwapProxy {
  url: string;
  target: string;
  swap: QuoteSwap | undefined;
  /** GetQuotes replies changed so far. */
  swapped: number;
  close: () => Promise<void>;
}

const bodyOf = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export const startQuoteSwapProxy = async (): Promise<QuoteSwapProxy> => {
  const proxy: QuoteSwapProxy = { url: '', target: '', swap: undefined, swapped: 0, close: async () => {} };
  const server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)),
      ) as Record<string, string>;
      const answer = await fetch(`${proxy.target}${req.url ?? ''}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body.length ? { body } : {}),
      });
      let text = await answer.text();
      const swap = proxy.swap;
      if (swap && (req.url ?? '').endsWith('/GetQuotes')) {
        const reply = JSON.parse(text) as Record<string, unknown>;
        if (reply.tsym === swap.from) {
          text = JSON.stringify({ ...reply, ...swap.to });
          proxy.swapped += 1;
        }
      }
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    })().catch((error: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
};
