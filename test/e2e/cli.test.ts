/**
 * The command line (`npm run gtt -- ...`, client/cli.ts) as a trader runs it: `npm start` as a child process, then
 * each command as its own child process against it, checking the output and the exit code.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { cliArgs, type CliRun, runCli } from '../support/cli-bundle.js';
import { CLI_OCO, CLI_ORDER } from '../support/cli-orders.js';
import { emulatorControl } from '../support/emulator-control.js';
import {
  CONDITION_BOUND_MS,
  readmeBlock,
  READY_BOUND_MS,
  type Started,
  startNpmStart,
  waitUntil,
} from '../support/processes.js';

const exec = promisify(execFile);

let started: Started;
let baseUrl: string;

type Run = CliRun;

/** The bundled client/cli.ts with `args` and `--url <npm start>`; never rejects, resolves with the exit code. */
const gtt = (args: string[], options: { url?: string; env?: Record<string, string> } = {}): Promise<Run> => {
  const url = options.url === undefined ? ['--url', baseUrl] : options.url === '' ? [] : ['--url', options.url];
  return runCli([...args, ...url], { GTT_API_URL: '', ...options.env });
};

const ORDER = CLI_ORDER;
const OCO = CLI_OCO;

const json = <T>(run: Run): T => {
  expect(run).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as T;
};

beforeAll(async () => {
  started = await startNpmStart();
  baseUrl = started.match[1]!;
});

afterAll(async () => {
  await started?.stop();
});

describe('npm run gtt against npm start', () => {
  let alId = '';

  it('--help: the usage with the exit codes, exit 0; no command: usage, exit 2', async () => {
    const help = await gtt(['--help'], { url: '' });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/usage: npm run gtt -- <command>/);
    expect(help.stdout).toMatch(/exit codes: 0 ok, 2 usage/);
    const none = await gtt([], { url: '' });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/usage:/);
  });

  it('place --dry-run shows the broker request and sends nothing', async () => {
    const run = await gtt(['place', ...ORDER, '--dry-run']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^dry run: nothing was sent\. PlaceGTTOrder would send\n {2}POST http:\/\/127\.0\.0\.1:\d+\/ClientAPI\/PlaceGTTOrder\n {2}jData \{.*"tsym":"M%26M-EQ"/,
    );
    // The exchange's rules checked: the sandbox's market opens M&M-EQ at 1500 with its day's band; no freeze for
    // equities.
    expect(run.stdout).toContain(
      'rules checked for NSE:M&M-EQ: tick 0.05, lot 1, precision 2, band ±10% (1350.00-1650.00), freeze not given by the broker',
    );
    expect((await gtt(['list'])).stdout.trim()).toBe('no pending GTT orders');
  });

  it('place, and the same --key again replays instead of placing twice', async () => {
    const run = await gtt(['place', ...ORDER, '--tag', 'swing-1', '--key', 'cli-order-1']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const match = /^placed al_id (\d+) \(idempotency key cli-order-1\)$/.exec(run.stdout.trim());
    expect(match).not.toBeNull();
    alId = match![1]!;
    const again = await gtt(['place', ...ORDER, '--tag', 'swing-1', '--key', 'cli-order-1']);
    expect(again.stdout).toMatch(new RegExp(`^placed al_id ${alId} .*replayed`));
    // Without --key, the client makes one up and says which.
    const oco = await gtt(['place-oco', ...OCO]);
    expect(oco.stdout).toMatch(/^placed OCO al_id \d+ \(idempotency key [0-9a-f-]{36}\)/);
  });

  it('list: a table by default, the API JSON with --json, filters', async () => {
    const table = await gtt(['list']);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^al_id\s+type\s+exch\s+tsym\s+side\s+qty\s+price\s+trigger\(s\)\s+last\s+to trigger\s+tag$/,
    );
    expect(lines[1]).toMatch(/^-+( +-+){10}$/);
    // The last price and the distance to the trigger: — where the sandbox has no price for the symbol yet.
    const last = expect.stringMatching(/^(—|\d+(\.\d+)?)$/);
    const distance = expect.stringMatching(/^(—|[+-]?\d+\.\d\d [+-]?\d+\.\d\d%)$/);
    const distances = expect.stringMatching(
      /^(—|[+-]?\d+\.\d\d [+-]?\d+\.\d\d%) \/ (—|[+-]?\d+\.\d\d [+-]?\d+\.\d\d%)$/,
    );
    expect(lines.slice(2).map((line) => line.split(/\s{2,}/))).toEqual(
      expect.arrayContaining([
        [alId, 'single', 'NSE', 'M&M-EQ', 'B', '1', '1500', '1490', last, distance, 'swing-1'],
        [
          expect.stringMatching(/^\d+$/),
          'oco',
          'NSE',
          'INFY-EQ',
          'S',
          '2',
          '1600/1390',
          '1600/1400',
          last,
          distances,
          'exit-infy',
        ],
      ]),
    );
    const listed = json<{ orders: { al_id: string; type: string; qty: number }[] }>(await gtt(['list', '--json']));
    expect(listed.orders.map((o) => o.type).sort()).toEqual(['oco', 'single']);
    const filtered = json<{ orders: { tsym: string }[] }>(
      await gtt(['list', '--tsym', 'M&M-EQ', '--exch', 'NSE', '--json']),
    );
    expect(filtered.orders.map((o) => o.tsym)).toEqual(['M&M-EQ']);
  });

  it('get, modify, get again', async () => {
    const got = await gtt(['get', alId]);
    expect(got.stdout).toMatch(
      new RegExp(`^al_id.*\\n-.*\\n${alId}\\s+single\\s+NSE\\s+M&M-EQ\\s+B\\s+1\\s+1500\\s+1490\\s+swing-1`),
    );
    const modified = await gtt(['modify', alId, ...ORDER.map((v) => (v === '1' ? '3' : v)), '--tag', 'swing-1']);
    expect(modified).toMatchObject({ code: 0 });
    expect(modified.stdout).toMatch(new RegExp(`^modified al_id ${alId}`));
    expect(json<{ qty: number }>(await gtt(['get', alId, '--json'])).qty).toBe(3);
  });

  it('triggered, enabled, client, operations, call', async () => {
    expect((await gtt(['triggered'])).stdout.trim()).toBe('no triggered GTT orders');
    expect((await gtt(['enabled'])).stdout).toMatch(/^enabled alert types: .*LTP_B_O/);
    const client = await gtt(['client']);
    expect(client.stdout).toMatch(/^account\s+DEMO01/);
    expect(client.stdout).toMatch(/exchanges .*NSE/);
    expect((await gtt(['operations'])).stdout).toMatch(/PlaceGTTOrder\s+POST\s+\/gtt-orders\s+key required/);
    const called = json<{ al_id: string }>(await gtt(['call', 'GetGTTOrder', '--path', `alId=${alId}`]));
    expect(called.al_id).toBe(alId);
  });

  it('cancel --dry-run, then cancel', async () => {
    expect((await gtt(['cancel', alId, '--dry-run'])).stdout).toMatch(/^dry run: nothing was sent\. CancelGTTOrder/);
    const cancelled = await gtt(['cancel', alId]);
    expect(cancelled).toMatchObject({ code: 0 });
    expect(cancelled.stdout).toMatch(new RegExp(`^cancelled al_id ${alId}`));
  });

  it("events: today's GTT Placed and GTT Cancelled of the order above, from the history (the forwarder publishes them)", async () => {
    // The reply does not wait for the event: waited for until the local stream has published it.
    let run: Run = { code: -1, stdout: '', stderr: '' };
    await waitUntil(
      async () => {
        run = await gtt(['events', '--all']);
        return run.stdout.includes(`GTT Cancelled    al_id=${alId}`);
      },
      () => `gtt events --all printed:\n${run.stdout}${run.stderr}`,
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(
      new RegExp(`GTT Placed +al_id=${alId} +NSE:M&M-EQ +B +qty 1 +trigger 1490 +tag swing-1 +\\(gateway\\)`),
    );
    expect(run.stdout).toMatch(new RegExp(`GTT Cancelled +al_id=${alId} .*\\(gateway\\)`));
    const typed = json<{ events: { detailType: string }[] }>(
      await gtt(['events', '--type', 'GTT Cancelled', '--json']),
    );
    expect(new Set(typed.events.map((e) => e.detailType))).toEqual(new Set(['GTT Cancelled']));
  });

  it('errors: exit codes by class, human text on stderr, JSON with --json', async () => {
    const notFound = await gtt(['get', alId]);
    expect(notFound).toMatchObject({ code: 3, stdout: '' });
    expect(notFound.stderr).toMatch(/^error ORDER_NOT_FOUND \(HTTP 404\)/);

    // A value only the gateway can judge (the validities it takes) comes back from it, named by its flag.
    const invalid = await gtt(['place', ...ORDER, '--validity', 'DAY']);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(
      /error VALIDATION_FAILED \(HTTP 400\)[\s\S]*--validity \(validity\): validity must be one of/,
    );

    const invalidJson = await gtt(['place', ...ORDER, '--validity', 'DAY', '--json']);
    expect(invalidJson.code).toBe(2);
    expect(JSON.parse(invalidJson.stderr)).toMatchObject({
      error: { code: 'VALIDATION_FAILED', status: 400, exitCode: 2, details: [{ field: 'validity' }] },
    });

    // The sandbox lists symbols as a broker does: an unknown one is refused before anything is sent, exit 2, naming
    // the closest listed symbols (SearchScrip).
    const unknown = await gtt(['place', ...ORDER.map((v) => (v === 'M&M-EQ' ? 'RELIANCE' : v))]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /^error VALIDATION_FAILED \(HTTP 400\): NSE:RELIANCE is not a symbol the broker lists/,
    );
    expect(unknown.stderr).toMatch(/Did you mean RELIANCE-EQ\?/);
    expect(unknown.stderr).toMatch(/--tsym \(tsym\): RELIANCE is not listed on NSE; did you mean RELIANCE-EQ\?/);

    const reused = await gtt([
      'place',
      ...ORDER.map((v) => (v === '1' ? '2' : v)),
      '--tag',
      'swing-1',
      '--key',
      'cli-order-1',
    ]);
    expect(reused.code).toBe(8);
    expect(reused.stderr).toMatch(/IDEMPOTENCY_KEY_REUSED/);

    // Every missing or bad flag at once, then one line of usage (the full help only on --help); nothing is sent.
    // (--price is asked once --price-type says a limit order: a market order goes without.)
    const usage = await gtt(['place', '--exch', 'NSE', '--qty', '-1', '--trigger', 'abc']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe(
      'missing --tsym, --product, --side, --price-type; --qty must be a positive whole number, got "-1"; ' +
        '--trigger must be a plain non-negative decimal number (no sign, exponent or more than 8 decimals), got "abc"\n' +
        'usage: npm run gtt -- place --exch --tsym --qty --price --product --side --price-type --retention --alert --trigger --tag --validity --key   (--help: every command and flag)\n',
    );
    expect((await gtt(['list', '--price', '1'])).stderr).toMatch(
      /^list does not take --price\nusage: npm run gtt -- list --tsym --exch --limit --cursor --all {3}\(--help/,
    );
    expect((await gtt(['frobnicate'])).code).toBe(2);
    expect((await gtt(['list', '--dry-run'])).code).toBe(2);

    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as net.AddressInfo;
        server.close(() => resolve(free));
      });
    });
    const down = await gtt(['list', '--attempts', '1'], { url: `http://127.0.0.1:${port}` });
    expect(down.code).toBe(6);
    expect(down.stderr).toMatch(/^error NETWORK_ERROR: GetPendingGTTOrder: .* at http:\/\/127\.0\.0\.1:\d+\./);
    expect(down.stderr).toContain(`http://127.0.0.1:${port}`);
  });

  it('GTT_API_URL is the default --url', async () => {
    const run = await gtt(['list', '--json'], { url: '', env: { GTT_API_URL: baseUrl } });
    expect(json<{ orders: unknown[] }>(run).orders).toHaveLength(1);
  });

  it('docs/reference/client.md: the command-line block, as written but for the port', async () => {
    // Each `npm run -s gtt -- ...` line runs the bundled CLI (npm and tsx cost about 1.5 s a line, twelve lines);
    // the `--version` test below runs `npm run -s gtt` itself.
    const viaBundle = `npm() { if [ "$1 $2 $3 $4" = "run -s gtt --" ]; then shift 4; node ${JSON.stringify(cliArgs([])[0]!)} "$@"; else command npm "$@"; fi; }\n`;
    const script = readmeBlock('cli').replace('GTT_API_URL=http://127.0.0.1:3000', `GTT_API_URL=${baseUrl}`);
    const { stdout } = await exec('bash', ['-euo', 'pipefail', '-c', viaBundle + script], { timeout: READY_BOUND_MS });
    expect(stdout).toMatch(/^dry run: nothing was sent\. PlaceGTTOrder/);
    const placed = /placed al_id (\d+) \(idempotency key doc-order-1\)/.exec(stdout);
    expect(placed).not.toBeNull();
    expect(stdout).toMatch(/placed OCO al_id \d+/);
    expect(stdout).toMatch(new RegExp(`${placed![1]}\\s+single\\s+NSE\\s+M&M-EQ\\s+B\\s+1\\s+1500\\s+1490\\s+dip-buy`));
    expect(stdout).toContain(`modified al_id ${placed![1]}`);
    expect(stdout).toContain(`cancelled al_id ${placed![1]}`);
    expect(stdout).toMatch(/enabled alert types: /);
    expect(stdout).toMatch(/account\s+DEMO01/);
  });

  it('docs/reference/client.md: the script, against npm start instead of the deployed API', async () => {
    const page = readFileSync('docs/reference/client.md', 'utf8');
    const block = /<!-- e2e-client-script:start -->\s*```ts\n([\s\S]*?)```\s*<!-- e2e-client-script:end -->/.exec(
      page,
    )?.[1];
    expect(block).toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'gtt-client-doc-'));
    try {
      const file = join(dir, 'script.mts');
      writeFileSync(
        file,
        block!
          .replace("'gtt-gateway/client'", `'${pathToFileURL(resolve('client/index.ts')).href}'`)
          .replace('https://a1b2c3d4e5.execute-api.ap-south-1.amazonaws.com', baseUrl),
      );
      const run = async () =>
        (await exec(process.execPath, ['--import', 'tsx', file], { timeout: CONDITION_BOUND_MS })).stdout;
      const first = await run();
      const alId = /^placed (\d+)$/m.exec(first)?.[1];
      expect(alId).toBeDefined();
      expect(first).toContain(`${alId} M&M-EQ single 1490`);
      // The same key again: the order is not placed twice.
      expect(await run()).toMatch(new RegExp(`^placed ${alId} \\(earlier\\)$`, 'm'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Ctrl-C during a place: the outcome is unknown, the key is printed, exit 6', async () => {
    const emulatorUrl = /broker emulator\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(started.output())![1]!;
    const control = emulatorControl(emulatorUrl);
    await control.clearRequests();
    // The broker holds its answer long enough that the interrupt comes first, however loaded the machine.
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 5_000 });
    const child = spawn(
      process.execPath,
      cliArgs(['place', ...ORDER, '--key', 'cli-interrupted-1', '--url', baseUrl]),
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    try {
      // Interrupt once the order has reached the broker (which holds its answer for 5 s).
      await waitUntil(
        async () => (await control.requests()).some((r) => r.operation === 'PlaceGTTOrder'),
        () => `the place never reached the broker: ${stderr}`,
      );
      child.kill('SIGINT');
      expect(await exited).toBe(6);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    expect(stderr).toMatch(/^error CLIENT_ABORTED: PlaceGTTOrder: aborted by the caller\./);
    expect(stderr).toMatch(/outcome: UNKNOWN/);
    expect(stderr).toMatch(/idempotency key: cli-interrupted-1/);
    // The same command with the same key, once the first finished, tells what happened: placed once. While the
    // first is still held at the broker the gateway answers IDEMPOTENCY_IN_PROGRESS, and a trader tries again.
    let again: Run = { code: -1, stdout: '', stderr: '' };
    await waitUntil(
      async () => {
        again = await gtt(['place', ...ORDER, '--key', 'cli-interrupted-1']);
        return !/IDEMPOTENCY_IN_PROGRESS/.test(again.stderr);
      },
      () => `still in progress: ${again.stderr}`,
    );
    expect(again.stdout).toMatch(/^placed al_id \d+ \(idempotency key cli-interrupted-1\) — replayed/);
  });

  it('--version (also through npm run gtt); no command: one line of usage, not the help', async () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(await gtt(['--version'], { url: '' })).toMatchObject({ code: 0, stdout: `gtt-gateway ${pkg.version}\n` });
    // The script itself, as a trader types it.
    const viaNpm = await exec('npm', ['run', '-s', 'gtt', '--', '--version'], { timeout: CONDITION_BOUND_MS });
    expect(viaNpm.stdout).toBe(`gtt-gateway ${pkg.version}\n`);
    const none = await gtt([], { url: '' });
    expect(none.code).toBe(2);
    expect(none.stderr.trim().split('\n')).toEqual([
      'no command given',
      expect.stringMatching(/^usage: npm run gtt -- <command> \[flags\] {3}commands: place, .*ltp {3}\(--help/),
    ]);
  });

  it('ltp moves the sandbox price: a pending GTT it meets fires; refused against a non-loopback URL', async () => {
    const placed = json<{ al_id: string }>(
      await gtt(['place', ...ORDER.map((v) => (v === 'M&M-EQ' ? 'SBIN-EQ' : v)), '--key', 'cli-ltp-1', '--json']),
    );
    const quiet = await gtt(['ltp', 'SBIN-EQ', '1495']);
    expect(quiet).toMatchObject({
      code: 0,
      stdout: 'NSE:SBIN-EQ last traded price 1495: no pending GTT order met its trigger\n',
    });
    const moved = await gtt(['ltp', 'SBIN-EQ', '1485']);
    expect(moved.code).toBe(0);
    expect(moved.stdout).toBe(
      `NSE:SBIN-EQ last traded price 1485: 1 GTT order(s) fired\n  fired ${placed.al_id} (gtt, trigger 1490)\n`,
    );
    expect(
      json<{ orders: { al_id: string }[] }>(await gtt(['triggered', '--json'])).orders.map((o) => o.al_id),
    ).toContain(placed.al_id);

    const remote = await gtt(['ltp', 'SBIN-EQ', '1400'], {
      url: 'https://a1b2c3d4e5.execute-api.ap-south-1.amazonaws.com',
    });
    expect(remote.code).toBe(2);
    expect(remote.stderr).toMatch(
      /^ltp moves the local sandbox's price: https:\/\/a1b2c3d4e5\.execute-api\.ap-south-1\.amazonaws\.com is not a loopback address/,
    );
    const bad = await gtt(['ltp', 'SBIN-EQ', '-5', '--exch', 'NSE']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^<price> must be a plain non-negative decimal number, got "-5"\nusage: npm run gtt -- ltp <tsym> <price> --exch/,
    );
  });

  it('logout (last: the session ends), then every call exits 5', async () => {
    const out = await gtt(['logout']);
    expect(out).toMatchObject({ code: 0 });
    expect(out.stdout).toMatch(/^logged out/);
    const after = await gtt(['list']);
    expect(after.code).toBe(5);
    expect(after.stderr).toMatch(/^error SESSION_EXPIRED \(HTTP 503\)/);
  });
});
