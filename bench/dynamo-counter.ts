/**
 * A counting proxy on 127.0.0.1 in front of the local DynamoDB (the stack's own proxy, so conditional writes still
 * answer ALL_OLD and the stream still runs): every call's action and when it arrived and was answered, on the
 * epoch-millisecond clock (`performance.timeOrigin + performance.now()`) a child process can report on too. Calls
 * that overlap in time are one round trip; `attribute` splits them by the invocations a probe reports.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TimedCall {
  action: string;
  start: number;
  end: number;
  /** The request's JSON, kept for TransactWriteItems only (bench/signals.ts replays its items bare). */
  body?: string;
}

export const epochNow = (): number => performance.timeOrigin + performance.now();

export const startDynamoCounter = async (target: string) => {
  const calls: TimedCall[] = [];
  const agent = new Agent({ keepAlive: true });
  const to = new URL(target);
  const server = createServer((req, res) => {
    const start = epochNow();
    const action = String(req.headers['x-amz-target'] ?? '').replace(/^DynamoDB_\d+\./, '');
    let body = '';
    if (action === 'TransactWriteItems') req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    const upstream = request(
      { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers, agent },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
        reply.on('end', () => calls.push({ action, start, end: epochNow(), ...(body ? { body } : {}) }));
      },
    );
    upstream.on('error', (error) => {
      res.writeHead(502);
      res.end(String(error));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** Calls that overlap in time go in one round trip: the number of round trips is the number of such groups. */
export const roundTrips = (calls: readonly TimedCall[]): number => {
  let trips = 0;
  let until = -Infinity;
  for (const call of [...calls].sort((a, b) => a.start - b.start)) {
    if (call.start > until) trips++;
    until = Math.max(until, call.end);
  }
  return trips;
};

/**
 * Per invocation (its start and end as the probe reported them): the calls made before its reply, their round
 * trips, and the calls made after its reply and before the next invocation (work the reply did not wait for).
 */
export const attribute = (calls: readonly TimedCall[], marks: readonly { start: number; end: number }[]) =>
  marks.map((mark, i) => {
    const next = marks[i + 1]?.start ?? Infinity;
    const before = calls.filter((c) => c.start >= mark.start && c.start <= mark.end);
    return {
      before: before.length,
      trips: roundTrips(before),
      after: calls.filter((c) => c.start > mark.end && c.start < next).length,
      actions: before.map((c) => c.action),
    };
  });
