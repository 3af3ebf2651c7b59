/**
 * Cold start of what deploys: the bundles `cdk synth` writes (cdk.out), each run with its own environment from the
 * template (NODE_OPTIONS included) in fresh Node processes against a local stack, interleaved round by round with
 * the hand-written peer (bench/peer.mjs) doing the same broker call. Prints medians and the ratio to the peer.
 *
 *   npx tsx bench/cold-start.ts [--rounds N] [--no-synth] [--only Function,Function]
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';

import { functionNamed } from '../functions/manifest/index.js';
import type { Route } from '../functions/manifest/types.js';
import { environmentOf } from '../functions/runtime/env.js';
import { EXAMPLE_OCO, EXAMPLE_ORDER } from '../functions/schemas/examples.js';
import { LOCAL_CONTROL_TABLE } from '../local/dynamodb.js';
import { LOCAL_SECRET_ID, type LocalStack, startLocalStack } from '../local/run-local.js';

// The in-process setup calls (real orders to act on) print no EMF lines; the measured child processes keep Metrics.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
const run = promisify(execFile);
/** The governor's highest settings, for the bench's stacks: it places far more than 8 orders a second. */
export const BENCH_ORDER_RATE = environmentOf({ orderRatePerSecond: 100, orderRatePerMinute: 6_000 });
const CDK_OUT = 'cdk.out';

export interface ColdRow {
  function: string;
  /** The broker operation the hand-written peer calls for it. */
  peer: string;
  bundleKB: number;
  importMs: number;
  importPlusFirstInvokeMs: number;
  wholeProcessMs: number;
  peerImportPlusFirstInvokeMs: number;
  peerWholeProcessMs: number;
  /** import + first invoke, function / peer. */
  ratio: number;
  wholeProcessRatio: number;
}

interface DeployedFunction {
  name: string;
  file: string;
  env: Record<string, unknown>;
}

/** The Lambda functions of the synthesized gateway stack: asset file and template environment. */
export const deployedFunctions = (): DeployedFunction[] => {
  const template = JSON.parse(readFileSync(join(CDK_OUT, 'GttGatewayStack.template.json'), 'utf8')) as {
    Resources: Record<
      string,
      {
        Type: string;
        Properties: { Environment?: { Variables: Record<string, unknown> } };
        Metadata?: Record<string, string>;
      }
    >;
  };
  return Object.entries(template.Resources)
    .filter(([, r]) => r.Type === 'AWS::Lambda::Function' && r.Metadata?.['aws:asset:path'])
    .map(([id, r]) => ({
      name: id.replace(/Function[0-9A-F]{8}$/, '').replace(/^Session/, ''),
      file: join(CDK_OUT, r.Metadata!['aws:asset:path']!, 'index.mjs'),
      env: r.Properties.Environment?.Variables ?? {},
    }));
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round1 = (x: number) => Math.round(x * 10) / 10;

/** Runs `file`'s handler once in a fresh process; times import and first invocation inside, the process outside. */
const PROBE = `const t0=performance.now();const m=await import(process.argv[1]);const t1=performance.now();
const ctx={functionName:'bench',awsRequestId:'1',getRemainingTimeInMillis:()=>10000};
let ok=true,error;try{await m.handler(JSON.parse(process.argv[2]),ctx)}catch(e){ok=false;error=String(e&&e.message).slice(0,300)}const t2=performance.now();
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
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', probe, file.startsWith('/') ? file : `./${file}`, arg],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', () => undefined);
    child.on('error', reject);
    child.on('exit', () => {
      const processMs = performance.now() - started;
      try {
        resolve({ ...(JSON.parse(out.trim().split('\n').pop()!) as T), processMs });
      } catch {
        reject(new Error(`${file}: no measurement in ${JSON.stringify(out.slice(-300))}`));
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
const ORDER = EXAMPLE_ORDER;
const OCO = EXAMPLE_OCO;
const asWire = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v)]));

/**
 * The direct-invocation payload of each function (order functions with an idempotency key, as deployed). Get,
 * modify and cancel act on `orders`, real pending orders placed for this call (a single and an OCO).
 */
export const payloadFor = (
  name: string,
  seq: number,
  orders: { single: string; oco: string } = { single: '1', oco: '1' },
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
        peer: { ai_t: 'LMT_BOS_O', validity: 'GTT', exch: 'NSE', tsym: 'M%26M-EQ' },
        peerOperation: 'GetPendingGTTOrder',
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
        peer: { al_id: orders.oco },
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
    default: {
      // Every other function: the payload its manifest entry gives as its example (a direct invocation, or the
      // request of its first route), against the one-call peer of its broker operation (ClientDetails when the
      // function makes none of its own: the lightest call a hand-written function would make).
      const entry = functionNamed(manifestName(name));
      if (!entry) throw new Error(`bench: ${name} is a function of the template but not of the manifest`);
      const route = entry.routes[0];
      return {
        gateway: entry.direct ? entry.direct.example : route ? routeRequest(route) : {},
        peer: {},
        peerOperation: entry.operation?.broker ?? 'ClientDetails',
      };
    }
  }
};

/** The template's logical id names a function by its construct path: `EventsGttWatcher` is the GttWatcher. */
const manifestName = (name: string): string => (functionNamed(name) ? name : name.replace(/^Events/, ''));

/** The payload v2 event API Gateway sends for a route's example (a function reached only by its routes). */
const routeRequest = (route: Route): unknown => ({
  version: '2.0',
  routeKey: `${route.method} ${route.path}`,
  rawPath: route.path,
  rawQueryString: new URLSearchParams(route.example.query ?? {}).toString(),
  headers: { 'content-type': 'application/json' },
  ...(route.example.query ? { queryStringParameters: route.example.query } : {}),
  ...(route.example.path ? { pathParameters: route.example.path } : {}),
  requestContext: {
    http: { method: route.method, path: route.path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
    routeKey: `${route.method} ${route.path}`,
    stage: '$default',
    requestId: 'bench',
  },
  ...(route.example.body === undefined ? {} : { body: JSON.stringify(route.example.body) }),
  isBase64Encoded: false,
});

export const localEnv = (stack: LocalStack, templateEnv: Record<string, unknown>): Record<string, string> => {
  const local: Record<string, string> = {
    ...environmentOf({
      brokerBaseUrl: stack.emulator.url,
      brokerSecretId: LOCAL_SECRET_ID,
      idempotencyTableName: stack.dynamo.tableName,
      // The order functions take a governor permit, as deployed.
      controlTableName: LOCAL_CONTROL_TABLE,
    }),
    ...stack.sessionEnv,
    ...stack.watcherEnv,
  };
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(templateEnv)) {
    // Values the template resolves at deploy time (Ref, GetAtt) point at this machine's stand-ins instead.
    env[name] = typeof value === 'string' && !(name in local) ? value : (local[name] ?? String(value));
  }
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    ...environmentOf({
      secretsManagerEndpoint: stack.secrets.url,
      dynamodbEndpoint: stack.dynamo.url,
      eventbridgeEndpoint: stack.eventBridge.url,
    }),
    ...env,
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    // The governor at its highest settings: the bench places many orders a minute (each still takes its permit).
    ...BENCH_ORDER_RATE,
    // Metrics stay on, as deployed: their EMF lines go to the child's stdout like to CloudWatch Logs.
  };
};

export const measureDeployedColdStart = async (
  stack: LocalStack,
  rounds: number,
  only?: readonly string[],
): Promise<ColdRow[]> => {
  // Every function of the template, each probed with its manifest example (the kill switch with its status, the
  // EventForwarder with an empty batch, the OAuth function with its start route).
  const functions = deployedFunctions().filter((f) => !only?.length || only.includes(f.name));
  type Sample = Awaited<ReturnType<typeof once>>;
  const samples = new Map<string, { fn: Sample[]; peer: Sample[] }>();
  // A logout (Logout, the end-of-day SessionLogout) ends the demo session: start each measured call from a live one.
  // The reset brings back the demo token only: the secret gets it back too (SessionRenewal, measured earlier in the
  // round, stored a renewed token that the reset ends; a Logout probe would otherwise time the SESSION_EXPIRED path).
  const fresh = async (name: string) => {
    if (name !== 'Logout' && name !== 'SessionLogout') return;
    await fetch(`${stack.emulator.url}/_emulator/reset`, { method: 'POST' });
    stack.secrets.setSecret(
      LOCAL_SECRET_ID,
      JSON.stringify({ accessToken: stack.emulator.token, uid: stack.emulator.uid, actid: stack.emulator.actid }),
    );
  };
  let seq = 0;
  // Real pending orders for get, modify and cancel (placed through the local stack's own handlers, not measured).
  const realOrders = async () => {
    const place = (name: string, input: object) =>
      stack.handlers.get(name)!({ ...input, idempotencyKey: `cold-setup-${process.pid}-${++seq}` }, {
        functionName: 'bench',
        awsRequestId: 'setup',
        getRemainingTimeInMillis: () => 10_000,
      } as never);
    const single = (await place('PlaceGTTOrder', ORDER)) as { al_id: string };
    const oco = (await place('PlaceOCOOrder', OCO)) as { al_id: string };
    return { single: single.al_id, oco: oco.al_id };
  };
  /** A probe whose call failed measured an error path: the bench stops rather than print it as a row. */
  const checked = (who: string) => (sample: Sample) => {
    if (!sample.ok)
      throw new Error(
        `bench: the cold probe of ${who} failed (its first invocation threw: ${sample.error}); no row for it`,
      );
    return sample;
  };
  for (let r = 0; r < rounds; r++) {
    for (const fn of functions) {
      const env = localEnv(stack, fn.env);
      const fnPayload = payloadFor(fn.name, ++seq, await realOrders()).gateway;
      const p = payloadFor(fn.name, ++seq, await realOrders());
      const peerEnv = { ...env, PEER_OPERATION: p.peerOperation };
      // Alternate who goes first, so neither always meets a warmer disk cache.
      const measureFn = async () => {
        await fresh(fn.name);
        return checked(fn.name)(await once(fn.file, fnPayload, env));
      };
      const measurePeer = async () => {
        await fresh(fn.name);
        return once('bench/peer.mjs', p.peer, peerEnv);
      };
      const pair =
        r % 2 === 0 ? [await measureFn(), await measurePeer()] : [await measurePeer(), await measureFn()].reverse();
      const entry = samples.get(fn.name) ?? { fn: [], peer: [] };
      entry.fn.push(pair[0]!);
      entry.peer.push(pair[1]!);
      samples.set(fn.name, entry);
      await fresh(fn.name);
    }
  }
  return functions.map((fn) => {
    const s = samples.get(fn.name)!;
    const total = median(s.fn.map((x) => x.totalMs));
    const peerTotal = median(s.peer.map((x) => x.totalMs));
    const whole = median(s.fn.map((x) => x.processMs));
    const peerWhole = median(s.peer.map((x) => x.processMs));
    return {
      function: fn.name,
      peer: payloadFor(fn.name, 0).peerOperation,
      bundleKB: round1(statSync(fn.file).size / 1024),
      importMs: round1(median(s.fn.map((x) => x.importMs))),
      importPlusFirstInvokeMs: round1(total),
      wholeProcessMs: round1(whole),
      peerImportPlusFirstInvokeMs: round1(peerTotal),
      peerWholeProcessMs: round1(peerWhole),
      ratio: Math.round((total / peerTotal) * 100) / 100,
      wholeProcessRatio: Math.round((whole / peerWhole) * 100) / 100,
    };
  });
};

/**
 * What Powertools Metrics adds to a cold start, alone: two bundles made like the deployed ones (esbuild, ESM,
 * minified, node22), one a bare handler, one that also imports Metrics and the logMetrics middleware and writes one
 * metric; the median difference of import + first invoke over interleaved fresh processes.
 */
export const measureMetricsCost = async (
  rounds: number,
): Promise<{ bareMs: number; withMetricsMs: number; addedMs: number; bundleKB: number }> => {
  const { build } = await import('esbuild');
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'gtt-metrics-'));
  try {
    writeFileSync(join(dir, 'bare.ts'), 'export const handler = async () => ({ ok: true });\n');
    writeFileSync(
      join(dir, 'metrics.ts'),
      `import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
const metrics = new Metrics({ namespace: 'GttGateway', serviceName: 'gtt-gateway' });
export const middleware = logMetrics(metrics);
export const handler = async () => { metrics.addMetric('Requests', MetricUnit.Count, 1); metrics.publishStoredMetrics(); return { ok: true }; };
`,
    );
    for (const name of ['bare', 'metrics']) {
      await build({
        entryPoints: [join(dir, `${name}.ts`)],
        outfile: join(dir, `${name}.mjs`),
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'node',
        target: 'node22',
        nodePaths: [join(process.cwd(), 'node_modules')],
        banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
        logLevel: 'silent',
      });
    }
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
    const bare: number[] = [];
    const withMetrics: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const a = await once(join(dir, 'bare.mjs'), {}, env);
      const b = await once(join(dir, 'metrics.mjs'), {}, env);
      bare.push(a.totalMs);
      withMetrics.push(b.totalMs);
    }
    return {
      bareMs: round1(median(bare)),
      withMetricsMs: round1(median(withMetrics)),
      addedMs: round1(median(withMetrics) - median(bare)),
      bundleKB: round1(statSync(join(dir, 'metrics.mjs')).size / 1024),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

export const synthDeployedAssets = async (): Promise<void> => {
  await run('npx', ['cdk', 'synth', '--quiet', '--no-notices', '-c', 'egress=none', '-c', 'sessionRenewal=totp'], {
    env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  });
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { rounds: { type: 'string' }, 'no-synth': { type: 'boolean' }, only: { type: 'string' } },
  });
  const rounds = Number(values.rounds ?? 7);
  if (!values['no-synth']) await synthDeployedAssets();
  const stack = await startLocalStack({ brokerTimeoutMs: 2_000, sessionRenewal: true, settings: BENCH_ORDER_RATE });
  try {
    const rows = await measureDeployedColdStart(stack, rounds, values.only?.split(','));
    console.log(
      `Cold start of the cdk synth assets (median of ${rounds} interleaved rounds, fresh Node processes, ms):`,
    );
    console.table(rows);
  } finally {
    await stack.close();
  }
}
