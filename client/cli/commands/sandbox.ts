/**
 * `gtt ltp <tsym> <price>`: the local sandbox's last traded price (npm start only). Pending GTTs whose trigger the
 * price meets fire, as the broker's would.
 */
import { GttGatewayError } from '../../errors.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { command, type Io, may } from '../command.js';
import { PLAIN_DECIMAL } from '../flags.js';

/** Loopback hosts: where the local sandbox (npm start) can be. */
const isLoopback = (url: URL): boolean => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

/**
 * `gtt ltp <tsym> <price>`: asks `npm start` where its emulator is (`GET /_local/emulator`), then sets the price
 * there (`POST /_emulator/ltp`). Refused against anything but a loopback URL: a deployment has no sandbox price.
 */
const moveSandboxPrice = async (
  baseUrl: string,
  move: { exch: string; tsym: string; price: string },
  io: Io,
  json: boolean,
  signal?: AbortSignal,
): Promise<number> => {
  const fetchJson = async (url: string, init?: RequestInit): Promise<{ status: number; body: unknown }> => {
    let res: Response;
    try {
      res = await fetch(url, { ...init, signal: signal ?? AbortSignal.timeout(10_000) });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      throw new GttGatewayError({
        code: 'NETWORK_ERROR',
        operation: 'ltp',
        message: `ltp: no answer from ${url}${cause ? ` (${cause})` : ''}: is npm start running?`,
      });
    }
    return { status: res.status, body: await res.json().catch(() => undefined) };
  };
  const where = await fetchJson(`${baseUrl}/_local/emulator`);
  const emulatorUrl = (where.body as { url?: unknown } | undefined)?.url;
  if (where.status !== 200 || typeof emulatorUrl !== 'string') {
    throw new GttGatewayError({
      code: 'HTTP_ERROR',
      status: where.status,
      operation: 'ltp',
      message: `ltp: ${baseUrl} has no local sandbox (GET /_local/emulator answered HTTP ${where.status}): ltp works against npm start only`,
    });
  }
  const moved = await fetchJson(`${emulatorUrl}/_emulator/ltp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ exch: move.exch, tsym: move.tsym, ltp: Number(move.price) }),
  });
  if (moved.status !== 200) {
    throw new GttGatewayError({
      code: 'HTTP_ERROR',
      status: moved.status,
      operation: 'ltp',
      message: `ltp: the emulator refused the price (HTTP ${moved.status}): ${JSON.stringify(moved.body)}`,
    });
  }
  const result = moved.body as { triggered: number; fired: { al_id: string; kind: string; leg: string; d: string }[] };
  if (json) io.out(JSON.stringify(result, null, 2));
  else {
    const fired = result.fired.map(
      (o) => `  fired ${o.al_id} (${o.kind}${o.kind === 'oco' ? `, leg ${o.leg}` : ''}, trigger ${o.d})`,
    );
    io.out(
      [
        `${move.exch}:${move.tsym} last traded price ${move.price}: ${result.fired.length ? `${result.fired.length} GTT order(s) fired` : 'no pending GTT order met its trigger'}`,
        ...fired,
      ].join('\n'),
    );
  }
  return EXIT_CODES.OK;
};

export const ltp = command({
  name: 'ltp',
  args: ['tsym', 'price'],
  flags: [may('exch', 'NSE')],
  summary: 'the local sandbox (npm start) only: set the last traded price; pending GTTs whose trigger it meets fire',
  input: (f, args) => ({ exch: f.str('exch') ?? 'NSE', tsym: args[0] ?? '', price: args[1] }),
  // After --profile is read, as every check that needs the address.
  checkTarget: (f, { price }, baseUrl) => {
    if (price !== undefined && !PLAIN_DECIMAL.test(price))
      f.problem(`<price> must be a plain non-negative decimal number, got ${JSON.stringify(price)}`);
    let url: URL | undefined;
    try {
      url = new URL(baseUrl);
    } catch {
      f.problem(`--url is not a URL: ${JSON.stringify(baseUrl)}`);
    }
    if (url && !isLoopback(url))
      f.problem(
        `ltp moves the local sandbox's price: ${baseUrl} is not a loopback address (npm start); a deployment trades at the exchange's price`,
      );
  },
  render: 'self',
  run: ({ baseUrl, io, json, signal }, { exch, tsym, price }) =>
    moveSandboxPrice(baseUrl, { exch, tsym, price: price ?? '' }, io, json, signal),
});
