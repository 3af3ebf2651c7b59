/** `npm start [-- --port N]`: the function set on 127.0.0.1 against the embedded broker emulator. */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import type { GatewaySettings } from '../functions/base/runtime/config.js';
import type { NotifySettings } from './notify-settings.js';

// Handlers log JSON lines through Powertools; keep the console readable unless asked otherwise. The function set's
// logger reads its level when its module is first loaded, so this must be set before any module of functions/ is
// imported: they are imported dynamically below, after this line (a static import would run first).
if (!process.env.POWERTOOLS_LOG_LEVEL) process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
// CloudWatch metrics (EMF lines) would bury the event lines; POWERTOOLS_METRICS_DISABLED=false npm start shows them.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

// Ends with its parent: SIGTERM, SIGINT or SIGHUP to this process, or its parent (npm's `sh -c`) or the one that
// started it (npm) gone. Watched from the first moment, never once the servers are up: a parent that ends while this
// process starts (or the instant after it prints its ready lines, on a loaded machine) would otherwise be missed, and
// the process adopted by init would be watched instead. Every server is in this process, so its exit frees every
// port; a close that hangs (a client holding a connection open) is cut short.
const { watchParent } = await import('./parent-watch.js');
/** What a stop closes: the local stack, once it is up. */
const running: { stack?: { close(): Promise<void> } } = {};
let stopping = false;
const shutdown = (why: string) => {
  if (stopping) return;
  stopping = true;
  console.error(`stopping: ${why}`);
  setTimeout(() => process.exit(0), 3_000).unref();
  if (running.stack === undefined) process.exit(0);
  void running.stack.close().finally(() => process.exit(0));
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(signal));
watchParent(shutdown);

const { FUNCTIONS, ROUTES, scheduleOf } = await import('../functions/manifest/index.js');
const { startLocalStack } = await import('./run-local.js');
const { permissionsWanted } = await import('./permissions/enforce.js');
const { stackPoliciesCached } = await import('./permissions/stack-policies.js');
const { parseConfig, parseGatewayConfig } = await import('../functions/base/runtime/config.js');
const { deploymentEnv } = await import('../functions/base/runtime/env-given.js');
const { DEPLOYMENT_SETTINGS } = await import('../functions/base/runtime/env.js');

const { PRESET_NAMES } = await import('../functions/base/broker/presets.js');
const { LOCAL_RUN_PREFIX } = await import('./run-local.js');
const { resolveNotifyOn } = await import('../functions/events/notification.js');
const { notifySettings } = await import('./notify-settings.js');
const { describeGuardrails, guardrailsInForce } = await import('../functions/orders/safety/guardrails.js');
const { MARKET_FLAGS, MARKET_USAGE, marketOptionsOf } = await import('../emulator/market-flags.js');

const usage = `usage: [NOTIFY_WEBHOOK_URL=<url> [NOTIFY_FORMAT=raw|slack|telegram] [NOTIFY_TELEGRAM_CHAT_ID=<id>] [NOTIFY_ON=<detail-types>|all]] npm start -- [--port N] [--emulator-port N] [--token T] [--watch-interval SECONDS (0: off; default 5)]
    [--dead-letters FILE] [--broker emulator|${PRESET_NAMES.filter((n) => n !== 'custom').join('|')}] [--session-renewal totp|off] [--echo-oauth-state]
    [--any-symbol (the emulator takes any symbol; default: its shipped list, as a broker lists its own)]
    [--dialect noren|2021|flattrade (the dialect of the emulator's GTT replies; default noren)]
    [--mcp-open (/mcp answers callers on this machine without an assistant token: every tool, no limits)]
    ${MARKET_USAGE}`;

const parsePort = (value: string | undefined, fallback: number, flag: string): number => {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`${flag} must be a port number from 0 to 65535, got ${JSON.stringify(value)}\n${usage}`);
    process.exit(2);
  }
  return port;
};

let args;
try {
  args = parseArgs({
    options: {
      port: { type: 'string' },
      'emulator-port': { type: 'string' },
      token: { type: 'string' },
      'watch-interval': { type: 'string' },
      broker: { type: 'string' },
      'session-renewal': { type: 'string' },
      'echo-oauth-state': { type: 'boolean' },
      'any-symbol': { type: 'boolean' },
      'mcp-open': { type: 'boolean' },
      dialect: { type: 'string' },
      'dead-letters': { type: 'string' },
      ...MARKET_FLAGS,
      help: { type: 'boolean' },
    },
  }).values;
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (args.help) {
  console.log(usage);
  process.exit(0);
}

const watchSeconds = Number(args['watch-interval'] ?? '5');
if (!Number.isFinite(watchSeconds) || watchSeconds < 0 || watchSeconds > 3_600) {
  console.error(
    `--watch-interval must be a number of seconds from 0 (off) to 3600, got ${JSON.stringify(args['watch-interval'])}\n${usage}`,
  );
  process.exit(2);
}
const renewal = args['session-renewal'] ?? 'off';
if (renewal !== 'totp' && renewal !== 'off') {
  console.error(`--session-renewal must be totp or off, got ${JSON.stringify(renewal)}\n${usage}`);
  process.exit(2);
}
if (
  args.broker !== undefined &&
  args.broker !== 'emulator' &&
  (!(PRESET_NAMES as readonly string[]).includes(args.broker) || args.broker === 'custom')
) {
  console.error(
    `--broker must be emulator or one of ${PRESET_NAMES.filter((n) => n !== 'custom').join(', ')}, got ${JSON.stringify(args.broker)}\n${usage}`,
  );
  process.exit(2);
}
const dialect = args.dialect ?? 'noren';
if (dialect !== 'noren' && dialect !== '2021' && dialect !== 'flattrade') {
  console.error(`--dialect must be noren, 2021 or flattrade, got ${JSON.stringify(dialect)}\n${usage}`);
  process.exit(2);
}
const market = marketOptionsOf(args);
if ('problem' in market) {
  console.error(`${market.problem}\n${usage}`);
  process.exit(2);
}
const webhookUrl = process.env.NOTIFY_WEBHOOK_URL || undefined;
if (webhookUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(webhookUrl)) {
  console.error(`NOTIFY_WEBHOOK_URL must be an http(s) URL, got ${JSON.stringify(webhookUrl)}`);
  process.exit(2);
}
// What the webhook gets, as the stack's notifyWebhookFormat and notifyOn decide it (docs/reference/events.md): the format and
// its chat checked with the NotifyFormatter's own schema (local/notify-settings.ts).
let notify: NotifySettings & { on: string[] };
try {
  notify = { ...notifySettings(process.env), on: resolveNotifyOn(process.env.NOTIFY_ON || undefined, 'NOTIFY_ON') };
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

// Events the webhook never took are kept here (the deployed API destination's dead-letter queue), one JSON line each.
const deadLetterFile = args['dead-letters'] ?? join(tmpdir(), 'gtt-gateway-webhook-dead-letters.jsonl');

/** One line per event: what changed, on what, and who saw it. */
const eventLine = (event: { 'detail-type': string; detail: Record<string, unknown> }): string => {
  const d = event.detail;
  const what = [
    d.al_id ? `al_id=${String(d.al_id)}` : '',
    d.exch && d.tsym ? `${String(d.exch)}:${String(d.tsym)}` : '',
    d.side ? String(d.side) : '',
    d.trigger ? `trigger ${String(d.trigger)}` : '',
    d.firedLeg ? `leg ${String(d.firedLeg)}` : '',
    d.tag ? `tag ${String(d.tag)}` : '',
    d.method ? String(d.method) : '',
  ].filter(Boolean);
  return `event  ${event['detail-type'].padEnd(15)} ${what.join('  ')}  (${String(d.origin)}, ${String(d.eventId).slice(0, 12)})`;
};

// Guardrails and idempotency settings come from the environment, as in Lambda (e.g. GUARDRAIL_MAX_QTY=100 npm start).
const settings: GatewaySettings = Object.fromEntries(
  DEPLOYMENT_SETTINGS.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]]),
);
// Each checked with the catalogue's rules before anything starts, as synth checks them (a watcher's setting too).
try {
  parseConfig(deploymentEnv, settings, 'deployment');
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

let checkPermissions = true;
try {
  checkPermissions = permissionsWanted(undefined);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
if (checkPermissions && !stackPoliciesCached())
  console.log("Synthesizing the stacks' permissions (once per change of infra/ or functions/, about 20 s)...");
const stack = await startLocalStack({
  ...(args.broker ? { broker: args.broker } : {}),
  sessionRenewal: renewal === 'totp',
  echoOAuthState: args['echo-oauth-state'] ?? false,
  acceptAnySymbol: args['any-symbol'] ?? false,
  market,
  mcpOpen: args['mcp-open'] ?? false,
  dialect,
  settings,
  apiPort: parsePort(args.port, 3000, '--port'),
  emulatorPort: parsePort(args['emulator-port'], 0, '--emulator-port'),
  ...(args.token ? { token: args.token } : {}),
  ...(webhookUrl ? { webhookUrl, notify } : {}),
  watchIntervalMs: watchSeconds * 1_000,
  onEvent: (event) => console.log(eventLine(event)),
  onDeliveryProblem: (message) => console.error(`webhook: ${message}`),
  deadLetterFile,
  onDeadLetter: (letter, file) =>
    console.error(
      `webhook: gave up on ${letter.event['detail-type']} ${letter.event.id} after ${letter.attempts} attempt(s) (${letter.reason}): kept as a dead letter${file ? ` in ${file}` : ' (in memory only)'}`,
    ),
  onWatcherError: (error) => console.error(`watcher: ${(error as Error).message}`),
  // The SignalWorker's sweep on its schedule's minute, as EventBridge Scheduler runs it deployed.
  sweepIntervalMs: 60_000,
  onSweepError: (error) => console.error(`signal sweep: ${(error as Error).message}`),
}).catch((error: NodeJS.ErrnoException) => {
  if (error.code === 'EADDRINUSE') console.error(`Port already in use: ${error.message}. Try --port N.`);
  else console.error(error.message);
  process.exit(1);
});
// Every server is up: a stop from now on closes them (see the watch at the top).
running.stack = stack;
// A bad setting is refused at start, as a Lambda would refuse it at cold start.
try {
  parseGatewayConfig(stack.config);
} catch (error) {
  console.error((error as Error).message);
  await stack.close();
  process.exit(2);
}

// The day's symbol masters and option chains, loaded once before the ready lines, as the deployed refresh loads them
// before the open: the first GET /options after them finds the chain (`gtt chain NIFTY`). Again any time with POST
// /_local/run/InstrumentRefresh. A refresh that fails or hangs is reported and the stack serves on without chains.
const refreshLine = await fetch(`${stack.api.url}${LOCAL_RUN_PREFIX}InstrumentRefresh`, {
  method: 'POST',
  signal: AbortSignal.timeout(60_000),
})
  .then(async (res) => {
    const run = (await res.json()) as { masters?: { exch: string; rows?: number; error?: string }[] };
    const masters = (run.masters ?? []).map(
      (m) => `${m.exch} ${m.error ? `not loaded (${m.error})` : `${m.rows} rows`}`,
    );
    return res.ok ? `the day's masters and option chains: ${masters.join(', ')}` : `failed: ${JSON.stringify(run)}`;
  })
  .catch((error: Error) => `failed: ${error.message} (POST /_local/run/InstrumentRefresh to try again)`);

const base = stack.api.url;
console.log(`gtt-gateway local API   ${base}`);
console.log(
  `broker emulator         ${stack.emulator.url}  (uid ${stack.emulator.uid}, actid ${stack.emulator.actid})`,
);
const b = stack.broker;
console.log(
  `broker preset           ${b.preset}: ${b.baseUrl}  ${b.auth === 'jkey' ? 'jKey' : 'Bearer'}  login ${b.totp ? 'totp (QuickAuth)' : b.login}`,
);
console.log(
  `symbols                 ${args['any-symbol'] ? 'any (--any-symbol)' : 'the shipped list (docs/reference/emulator.md; --any-symbol takes any)'}`,
);
console.log(
  `market                  prices ${market.prices}, ${market.market === 'walk' ? `a seeded walk every ${(market.walkIntervalMs ?? 5_000) / 1_000} s (--seed ${market.seed ?? 58})` : 'still: npm run gtt -- ltp <tsym> <price> moves one (--market walk moves them all)'}`,
);
console.log(
  `demo sign-in            user ${stack.emulator.uid}  password ${stack.emulator.login.password}  OTP: curl -s ${stack.emulator.url}/_emulator/otp`,
);
console.log(`Secrets Manager (local) ${stack.secrets.url}  secret ${parseGatewayConfig(stack.config).brokerSecretId}`);
console.log(`DynamoDB (dynalite)     ${stack.dynamo.url}  table ${stack.dynamo.tableName}`);
console.log(
  `EventBridge (local)     ${stack.eventBridge.url}  bus ${stack.eventBridge.busName}${webhookUrl ? `  -> webhook ${webhookUrl}` : ''}`,
);
if (webhookUrl) {
  console.log(`Webhook format, events  ${notify.format}: ${notify.on.join(', ')}`);
  console.log(`Webhook dead letters    ${deadLetterFile}`);
}
console.log(
  `Signals                 ${base}/signals/<token>  (unsigned; the token from POST /strategies)  queue ${stack.signalQueue.queueUrl} -> SignalWorker in-process`,
);
console.log(`GttWatcher              ${watchSeconds ? `every ${watchSeconds} s` : 'off (--watch-interval 0)'}`);
console.log(
  `Signal sweep            every 60 s: signals the queue never delivered, 2 min after they were received (docs/reference/signals.md)`,
);
const rules = parseGatewayConfig(stack.config);
console.log(
  `Trading rules           ${rules.orderRatePerSecond}/s and ${rules.orderRatePerMinute}/min per account; market orders: ${rules.marketOrders}; algo id: ${rules.algoId ?? 'none'}; kill switch: ${base}/kill-switch`,
);
console.log(
  `Guardrails              ${describeGuardrails(guardrailsInForce(rules))}  (GUARDRAIL_*; unset: the defaults; GET ${base}/session)`,
);
console.log(
  `Permissions             ${checkPermissions ? "each function's AWS calls held to its grants in the synthesized stacks (docs/explanation/permissions.md)" : 'not checked (GTT_LOCAL_PERMISSIONS=off)'}`,
);
console.log(`InstrumentRefresh       ${refreshLine}`);
console.log(`OpenAPI                 ${base}/openapi.json`);
console.log(`Console                 ${base}/console/  (the trader's web page; docs/reference/console.md)`);
if (Object.keys(settings).length) console.log(`Settings                ${JSON.stringify(settings)}`);
console.log('');
console.log('Routes:');
for (const { fn, route } of ROUTES.filter(({ fn }) => stack.handlers.has(fn.name)))
  console.log(`  ${route.method.padEnd(6)} ${route.path.padEnd(24)} ${fn.name}`);
for (const f of FUNCTIONS.filter((fn) => scheduleOf(fn) && stack.handlers.has(fn.name)))
  console.log(`  POST   ${`${LOCAL_RUN_PREFIX}${f.name}`.padEnd(24)} ${f.name} now (rehearses its schedule)`);
console.log(`\nTry:\n  curl -s -X POST ${base}/gtt-orders -H 'content-type: application/json' -H 'Idempotency-Key: try-1' \\
    -d '{"exch":"NSE","tsym":"M&M-EQ","qty":1,"prc":"1500","prd":"C","trantype":"B","prctyp":"LMT","ret":"DAY","ai_t":"LTP_B_O","d":"1490"}'`);
console.log(`  curl -s ${base}/gtt-orders`);
console.log(`  curl -s '${base}/options?underlying=NIFTY'   # the day's option chain (gtt chain NIFTY)`);
console.log(`  npm run gtt -- ltp 'M&M-EQ' 1480 --url ${base}   # moves the sandbox's price: it fires (GTT Triggered)`);
console.log(
  `\nLogin on loopback (a new session token in the local secret):\n  npm run gtt -- login --url ${base}   # prints the login page; sign in as ${stack.emulator.uid} with the password and OTP above`,
);
console.log(`  npm run gtt -- session --url ${base}`);
console.log(
  `\nSignals (TradingView, ChartInk, ...):\n  npm run gtt -- strategy-create --file strategy.json --url ${base}   # prints its webhook URL once\n  npm run gtt -- signal-test <strategyId> --webhook-url <the URL it printed> --url ${base}\n`,
);
