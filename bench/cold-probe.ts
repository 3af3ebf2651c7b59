/**
 * The cold-start probes: the functions `cdk synth` wrote (cdk.out) with their template environment, the script that
 * runs one handler once in a fresh Node process and times it, each function's example payload, and the environment
 * that points a deployed bundle at a local stack. bench/cold-start.ts and bench/memory.ts measure with them.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { instrumentToken } from '../emulator/state/formats.js';
import type { FunctionEntry, Route } from '../functions/base/definition/types.js';
import { ENV, environmentOf, type EnvValues } from '../functions/base/runtime/env.js';
import { functionEnvironment, LOCAL_ENDPOINT_KEYS } from '../functions/base/runtime/env-given.js';
import { EXAMPLE_OCO, EXAMPLE_ORDER } from '../functions/base/schemas/examples.js';
import { functionNamed, FUNCTIONS, OPERATIONS } from '../functions/manifest/index.js';
import { LOCAL_CONTROL_TABLE } from '../local/dynamodb.js';
import { environmentFor } from '../local/functions.js';
import type { LocalStack } from '../local/run-local.js';

// The in-process setup calls (real orders to act on) print no EMF lines; the measured child processes keep Metrics.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
/** The governor's highest settings, for the bench's stacks: it places far more than 8 orders a second. */
export const BENCH_ORDER_RATE = environmentOf({ orderRatePerSecond: 100, orderRatePerMinute: 6_000 });
const CDK_OUT = 'cdk.out';

interface DeployedFunction {
  name: string;
  file: string;
  env: Record<string, unknown>;
}

type Template = {
  Resources: Record<
    string,
    {
      Type: string;
      Properties: { Runtime?: string; Environment?: { Variables: Record<string, unknown> } };
      Metadata?: Record<string, string>;
    }
  >;
};

/**
 * The Lambda functions of the synthesized gateway stacks (the gateway stack and the stacks after it): asset file and
 * template environment. Ours only: a Node.js bundle whose logical id names a function of the manifest, not the CDK's
 * own (the console copier's Python handler, a custom resource's provider). Every function of the manifest must have
 * its bundle: one without fails the bench by name.
 */
export const deployedFunctions = (): DeployedFunction[] => {
  const templates = readdirSync(CDK_OUT)
    .filter((file) => /^GttGatewayStack(-[A-Za-z0-9-]+)?\.template\.json$/.test(file))
    .map((file) => JSON.parse(readFileSync(join(CDK_OUT, file), 'utf8')) as Template);
  const found = templates
    .flatMap((template) => Object.entries(template.Resources))
    .filter(
      ([, r]) =>
        r.Type === 'AWS::Lambda::Function' &&
        r.Metadata?.['aws:asset:path'] &&
        r.Properties.Runtime?.startsWith('nodejs'),
    )
    .map(([id, r]) => ({
      name: id.replace(/Function[0-9A-F]{8}$/, '').replace(/^Session/, ''),
      file: join(CDK_OUT, r.Metadata!['aws:asset:path']!, 'index.mjs'),
      env: r.Properties.Environment?.Variables ?? {},
    }))
    .filter((fn) => manifestEntry(fn.name) !== undefined);
  const missing = FUNCTIONS.filter((entry) => !found.some((fn) => manifestEntry(fn.name) === entry));
  if (missing.length)
    throw new Error(
      `bench: ${missing.map((f) => f.name).join(', ')} of the manifest has no bundle in ${CDK_OUT} (run without --no-synth)`,
    );
  return found;
};

/** The manifest entry of a function of the template (its id may carry its construct's prefix: EventsGttWatcher). */
const manifestEntry = (name: string): FunctionEntry | undefined =>
  functionNamed(name) ?? FUNCTIONS.find((f) => name.endsWith(f.name));

/**
 * A reply that is an error, in the probe's JavaScript (`r` the handler's answer): an HTTP status of 400 or more, an
 * error body of a direct invocation, or records a batch handler reports as failed. A row that timed one is no row.
 */
export const BAD_REPLY = `(r&&typeof r==='object'?(typeof r.statusCode==='number'&&r.statusCode>=400?'HTTP '+r.statusCode+' '+String(r.body).slice(0,200):r.error?'error '+JSON.stringify(r.error).slice(0,200):Array.isArray(r.batchItemFailures)&&r.batchItemFailures.length?r.batchItemFailures.length+' batch item failures':''):'')`;

/** Runs `file`'s handler once in a fresh process; times import and first invocation inside, the process outside. */
const PROBE = `const t0=performance.now();const m=await import(process.argv[1]);const t1=performance.now();
const ctx={functionName:'bench',awsRequestId:'1',getRemainingTimeInMillis:()=>10000};
let ok=true,error;try{const r=await m.handler(JSON.parse(process.argv[2]),ctx);const bad=${BAD_REPLY};if(bad){ok=false;error=bad}}catch(e){ok=false;error=String(e&&e.message).slice(0,300)}const t2=performance.now();
console.log(JSON.stringify({importMs:t1-t0,totalMs:t2-t1+(t1-t0),ok,error}))`;

/**
 * Runs `probe` (an ES module script) in a fresh Node process with `file` and `arg` as its arguments, and resolves
 * with the JSON of its last stdout line and how long the whole process took.
 */
export const runProbe = <T>(
  probe: string,
  file: string,
  arg: string,
  env: Record<string, string>,
): Promise<T & { processMs: number }> =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    // BENCH_CPU_PROF=<dir> in `env`: the process writes a V8 CPU profile there (not allowed in NODE_OPTIONS).
    const { BENCH_CPU_PROF: profileDir, ...childEnv } = env;
    const child = spawn(
      process.execPath,
      [
        ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
        '--input-type=module',
        '-e',
        probe,
        file.startsWith('/') ? file : `./${file}`,
        arg,
      ],
      { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-2_000)));
    child.on('error', reject);
    child.on('exit', () => {
      const processMs = performance.now() - started;
      try {
        resolve({ ...(JSON.parse(out.trim().split('\n').pop()!) as T), processMs });
      } catch {
        reject(
          new Error(
            `${file}: no measurement in ${JSON.stringify(out.slice(-300))} (stderr: ${JSON.stringify(err.slice(-600))})`,
          ),
        );
      }
    });
  });

export const once = (file: string, payload: unknown, env: Record<string, string>) =>
  runProbe<{ importMs: number; totalMs: number; ok: boolean; error?: string }>(
    PROBE,
    file,
    JSON.stringify(payload),
    env,
  );

// The operation table's own example inputs: a buy of 1 M&M-EQ at 1500 when the price falls to 1490, and its OCO exit.
export const ORDER = EXAMPLE_ORDER;
export const OCO = EXAMPLE_OCO;
/** The jData the gateway sends for `name` with `wire`: what a hand-written function sends for the same order. */
const jDataOf = (name: string, wire: object, session: { uid: string; actid: string }): Record<string, unknown> => {
  const op = OPERATIONS.find((o) => o.name === name)!;
  return op.toJData(op.input.parse(wire) as never, { ...session, accessToken: '' } as never) as Record<string, unknown>;
};
const asWire = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v)]));

/**
 * The direct-invocation payload of each function (order functions with an idempotency key, as deployed). Get,
 * modify and cancel act on `orders`, real pending orders placed for this call (a single and an OCO).
 */
export const payloadFor = (
  name: string,
  seq: number,
  orders: { single: string; oco: string } = { single: '1', oco: '1' },
  /** The account the peer's nested order parameters name (the OCO legs carry uid and actid). */
  session: { uid: string; actid: string } = { uid: 'U', actid: 'A' },
): { gateway: unknown; peer: unknown; peerOperation: string } => {
  const key = `cold-${process.pid}-${seq}`;
  switch (name) {
    case 'PlaceGTTOrder':
      return {
        gateway: { ...ORDER, idempotencyKey: key },
        peer: { ...asWire(ORDER), validity: 'GTT' },
        peerOperation: 'PlaceGTTOrder',
      };
    case 'PlaceOCOOrder':
      return {
        gateway: { ...OCO, idempotencyKey: key },
        peer: jDataOf('PlaceOCOOrder', OCO, session),
        peerOperation: 'PlaceOCOOrder',
      };
    case 'ModifyGTTOrder':
      return {
        gateway: { ...ORDER, al_id: orders.single, idempotencyKey: key },
        peer: { ...asWire(ORDER), al_id: orders.single, validity: 'GTT' },
        peerOperation: 'ModifyGTTOrder',
      };
    case 'ModifyOCOOrder':
      return {
        gateway: { ...OCO, al_id: orders.oco, idempotencyKey: key },
        peer: jDataOf('ModifyOCOOrder', { ...OCO, al_id: orders.oco }, session),
        peerOperation: 'ModifyOCOOrder',
      };
    // A change of one field: what a user would write instead is the full modify it becomes.
    case 'PatchGTTOrder':
      return {
        gateway: { al_id: orders.single, d: ORDER.d, idempotencyKey: key },
        peer: { ...asWire(ORDER), al_id: orders.single, validity: 'GTT' },
        peerOperation: 'ModifyGTTOrder',
      };
    case 'PatchOCOOrder':
      return {
        gateway: { al_id: orders.oco, stopLoss: { trigger: OCO.stopLoss.trigger }, idempotencyKey: key },
        peer: jDataOf('ModifyOCOOrder', { ...OCO, al_id: orders.oco }, session),
        peerOperation: 'ModifyOCOOrder',
      };
    case 'CancelGTTOrder':
      return {
        gateway: { al_id: orders.single, idempotencyKey: key },
        peer: { al_id: orders.single },
        peerOperation: 'CancelGTTOrder',
      };
    case 'GetGTTOrder':
      return { gateway: { al_id: orders.single }, peer: {}, peerOperation: 'GetPendingGTTOrder' };
    // The broker quotes by instrument token, which a hand-written function would know.
    case 'GetQuote':
      return {
        gateway: { exch: 'NSE', tsym: ORDER.tsym },
        peer: { exch: 'NSE', token: instrumentToken('NSE', ORDER.tsym) },
        peerOperation: 'GetQuotes',
      };
    case 'GetSeries':
      return {
        gateway: { exch: 'NSE', tsym: ORDER.tsym, interval: '5' },
        peer: { exch: 'NSE', token: instrumentToken('NSE', ORDER.tsym), intrv: '5' },
        peerOperation: 'TPSeries',
      };
    default: {
      // Every other function: the payload its manifest entry gives as its example (a direct invocation, or the
      // request of its first route), against the one-call peer of its broker operation (ClientDetails when the
      // function makes none of its own: the lightest call a hand-written function would make).
      const entry = functionNamed(manifestName(name));
      if (!entry) throw new Error(`bench: ${name} is a function of the template but not of the manifest`);
      const route = entry.routes[0];
      // A schedule's function gets what its schedule sends (its input, else EventBridge Scheduler's `{}`); a rule's
      // or a stream's: undefined, unless bench/real-inputs.ts makes its input.
      const scheduled = entry.trigger?.kind === 'schedule' ? (entry.trigger.input ?? {}) : undefined;
      return {
        gateway: entry.direct ? entry.direct.example : route ? routeRequest(route) : scheduled,
        peer: {},
        peerOperation: entry.operation?.broker ?? 'ClientDetails',
      };
    }
  }
};

/** The template's logical id names a function by its construct path: `EventsGttWatcher` is the GttWatcher. */
const manifestName = (name: string): string => (functionNamed(name) ? name : name.replace(/^Events/, ''));

/** The payload v2 event API Gateway sends for a route's example (a function reached only by its routes). */
export const routeRequest = (route: Route): unknown => ({
  version: '2.0',
  routeKey: `${route.method} ${route.path}`,
  rawPath: route.path,
  rawQueryString: new URLSearchParams(route.example.query ?? {}).toString(),
  // A loopback call as `npm start`'s API makes it: its Host names the loopback server (the MCP function refuses any
  // other over loopback: DNS rebinding).
  headers: { 'content-type': 'application/json', host: '127.0.0.1' },
  ...(route.example.query ? { queryStringParameters: route.example.query } : {}),
  ...(route.example.path ? { pathParameters: route.example.path } : {}),
  requestContext: {
    http: { method: route.method, path: route.path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
    routeKey: `${route.method} ${route.path}`,
    domainName: '127.0.0.1',
    stage: '$default',
    requestId: 'bench',
  },
  ...(route.example.body === undefined ? {} : { body: JSON.stringify(route.example.body) }),
  isBase64Encoded: false,
});

/** The catalogue's variable names: the template's others (Powertools', the metric namespace) are kept as they are. */
const CATALOGUE_NAMES: ReadonlySet<string> = new Set(Object.values(ENV).map((variable) => variable.name));

const entryOf = (name: string): FunctionEntry => {
  const entry = manifestEntry(name);
  if (!entry) throw new Error(`bench: ${name} is no function of the manifest`);
  return entry;
};

/**
 * The environment of a deployed bundle run against the local stack: the function's own, built as the local runner
 * builds it (local/functions.ts `environmentFor`: its manifest keys with this machine's values, the deployment's
 * settings), with `extra` values by catalogue key; the template's runtime variables; the governor at its highest rate.
 * Without a function (the peers), only the local endpoints and the AWS stand-ins.
 */
export const localEnv = (
  stack: LocalStack,
  fn: Pick<DeployedFunction, 'name' | 'env'> | undefined,
  extra: EnvValues = {},
): Record<string, string> => {
  const local = {
    ...stack.local,
    // The order functions take a governor permit, as deployed (even on a stack started without one).
    // The bench's synth gives the webhook a Slack format (its NotifyFormatter): the formatter's own setting.
    values: { notifyFormat: 'slack', ...stack.local.values, controlTableName: LOCAL_CONTROL_TABLE, ...extra },
    // The governor at its highest settings: the bench places many orders a minute (each still takes its permit).
    settings: { ...stack.local.settings, ...BENCH_ORDER_RATE },
  };
  const runtime = Object.entries(fn?.env ?? {}).filter(
    (pair): pair is [string, string] => typeof pair[1] === 'string' && !CATALOGUE_NAMES.has(pair[0]),
  );
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    ...Object.fromEntries(runtime),
    ...(fn
      ? environmentFor(entryOf(fn.name), local)
      : functionEnvironment({ keys: [], deploymentSettings: false }, local.values, {}, LOCAL_ENDPOINT_KEYS)),
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    // Metrics stay on, as deployed: their EMF lines go to the child's stdout like to CloudWatch Logs.
  };
};
