/**
 * DynamoDB clients side by side in one run (issue 54): which one the order path should sign its calls with.
 * `npx tsx bench/dynamo-clients.ts [N]` (N iterations, default 500).
 *
 * dynalite runs in a child process (its CPU is not the client's), reached directly over loopback HTTP. Warm: each
 * iteration does, for every client in turn (round-robin, so load drifts hit all alike), a conditional PutItem of a
 * new item then an UpdateItem of it; per call the wall time and this process's CPU (process.cpuUsage) are taken,
 * the first 20 iterations not counted. Cold: each client alone in an esbuild bundle as the infra bundles a function
 * (ESM, node22, minified, the env-only credential alias), imported and its first PutItem made in a fresh Node
 * process, interleaved, the median of 7.
 *
 * (a) the AWS SDK v3 `DynamoDBClient` as bench/sdk-dynamodb-client.ts builds it (the functions' client before their own); (b) `@aws-lite/client`
 * with `@aws-lite/dynamodb`; (c) aws4fetch's `AwsClient.fetch`; (d) aws4fetch's `AwsV4Signer` over `node:http` with a
 * keep-alive agent; (e) a synchronous node:crypto SigV4 over the same agent; (f) the gateway's own client
 * (functions/base/aws/dynamo.ts), when it exists.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REGION = 'us-east-1';
const KEY = { accessKeyId: 'AKIDBENCH', secretAccessKey: 'bench-secret' };
const TABLE = 'gtt-gateway-idempotency';

/** One client under test: built once, then `put` (conditional) and `update` of an item by id. */
interface Candidate {
  put(id: string): Promise<void>;
  update(id: string): Promise<void>;
}

/** Each client's module source: `make(url)` returns a Candidate (the same text is bundled for the cold rows). */
const SOURCES: Record<string, string> = {
  'a SDK v3 DynamoDBClient': `
import { PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { dynamoDbClient } from '${ROOT}/bench/sdk-dynamodb-client.ts';
export const make = (url) => {
  const c = dynamoDbClient(url);
  return {
    put: (id) => c.send(new PutItemCommand(PUT(id))).then(() => undefined),
    update: (id) => c.send(new UpdateItemCommand(UPDATE(id))).then(() => undefined),
  };
};`,
  'b @aws-lite/client': `
import awsLite from '@aws-lite/client';
import dynamodb from '@aws-lite/dynamodb';
let aws;
export const make = (url) => {
  const u = new URL(url);
  const ready = awsLite({ region: '${REGION}', endpoint: u.origin, accessKeyId: decodeURIComponent(u.username),
    secretAccessKey: decodeURIComponent(u.password), plugins: [dynamodb], keepAlive: true, autoloadPlugins: false,
    retries: 2 }).then((a) => (aws = a));
  const plain = (input) => Object.fromEntries(Object.entries(input).map(([k, v]) =>
    [k, ['Item', 'Key', 'ExpressionAttributeValues'].includes(k) ? un(v) : v]));
  // aws-lite's plugin marshals plain values itself: hand it what a caller of it would.
  const un = (m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.S ?? Number(v.N)]));
  return {
    put: async (id) => { await ready; await aws.DynamoDB.PutItem(plain(PUT(id))); },
    update: async (id) => { await ready; await aws.DynamoDB.UpdateItem(plain(UPDATE(id))); },
  };
};`,
  'c aws4fetch AwsClient.fetch': `
import { AwsClient } from 'aws4fetch';
export const make = (url) => {
  const u = new URL(url);
  const aws = new AwsClient({ accessKeyId: decodeURIComponent(u.username), secretAccessKey: decodeURIComponent(u.password),
    service: 'dynamodb', region: '${REGION}', retries: 0 });
  const call = async (op, input) => {
    const r = await aws.fetch(u.origin + '/', { method: 'POST', body: JSON.stringify(input),
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.' + op } });
    const t = await r.text();
    if (r.status !== 200) throw new Error(t);
  };
  return { put: (id) => call('PutItem', PUT(id)), update: (id) => call('UpdateItem', UPDATE(id)) };
};`,
  'd aws4fetch AwsV4Signer + node:http': `
import { AwsV4Signer } from 'aws4fetch';
import { Agent, request } from 'node:http';
export const make = (url) => {
  const u = new URL(url);
  const agent = new Agent({ keepAlive: true });
  const call = async (op, input) => {
    const body = JSON.stringify(input);
    const s = await new AwsV4Signer({ url: u.origin + '/', method: 'POST', body, service: 'dynamodb', region: '${REGION}',
      accessKeyId: decodeURIComponent(u.username), secretAccessKey: decodeURIComponent(u.password),
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.' + op } }).sign();
    const headers = Object.fromEntries(s.headers);
    headers['content-length'] = String(Buffer.byteLength(body));
    await POST(u, headers, body, agent, request);
  };
  return { put: (id) => call('PutItem', PUT(id)), update: (id) => call('UpdateItem', UPDATE(id)) };
};`,
  'e node:crypto SigV4 + node:http': `
import { createHash, createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';
export const make = (url) => {
  const u = new URL(url);
  const id = decodeURIComponent(u.username), secret = decodeURIComponent(u.password);
  const agent = new Agent({ keepAlive: true });
  let keyDate = '', key;
  const call = async (op, input) => {
    const body = JSON.stringify(input);
    const amz = new Date().toISOString().replace(/[-:]|\\.\\d{3}/g, '');
    const day = amz.slice(0, 8);
    if (day !== keyDate) {
      const h = (k, d) => createHmac('sha256', k).update(d).digest();
      key = h(h(h(h('AWS4' + secret, day), '${REGION}'), 'dynamodb'), 'aws4_request');
      keyDate = day;
    }
    const target = 'DynamoDB_20120810.' + op;
    const canonical = 'POST\\n/\\n\\ncontent-type:application/x-amz-json-1.0\\nhost:' + u.host + '\\nx-amz-date:' + amz +
      '\\nx-amz-target:' + target + '\\n\\ncontent-type;host;x-amz-date;x-amz-target\\n' + createHash('sha256').update(body).digest('hex');
    const scope = day + '/${REGION}/dynamodb/aws4_request';
    const sig = createHmac('sha256', key).update('AWS4-HMAC-SHA256\\n' + amz + '\\n' + scope + '\\n' +
      createHash('sha256').update(canonical).digest('hex')).digest('hex');
    await POST(u, { 'content-type': 'application/x-amz-json-1.0', host: u.host, 'x-amz-date': amz, 'x-amz-target': target,
      'content-length': String(Buffer.byteLength(body)),
      authorization: 'AWS4-HMAC-SHA256 Credential=' + id + '/' + scope + ', SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=' + sig },
      body, agent, request);
  };
  return { put: (id) => call('PutItem', PUT(id)), update: (id) => call('UpdateItem', UPDATE(id)) };
};`,
};

const GATEWAY_CLIENT = join(ROOT, 'functions/base/aws/dynamo.ts');
if (existsSync(GATEWAY_CLIENT))
  SOURCES['f gateway client (dynamo.ts)'] = `
import { PutItemCommand, UpdateItemCommand, dynamoDbClient } from '${GATEWAY_CLIENT}';
export const make = (url) => {
  const c = dynamoDbClient(url);
  return {
    put: (id) => c.send(new PutItemCommand(PUT(id))).then(() => undefined),
    update: (id) => c.send(new UpdateItemCommand(UPDATE(id))).then(() => undefined),
  };
};`;

/** What every module shares: the two inputs and a plain POST for the hand-made ones. */
const PRELUDE = `
const PUT = (id) => ({ TableName: '${TABLE}', Item: { id: { S: id }, status: { S: 'INPROGRESS' }, expiry: { N: '1999999999' } },
  ConditionExpression: 'attribute_not_exists(id)' });
const UPDATE = (id) => ({ TableName: '${TABLE}', Key: { id: { S: id } }, UpdateExpression: 'SET #s = :s, reply = :r',
  ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':s': { S: 'COMPLETED' }, ':r': { S: '{"stat":"Ok"}' } } });
const POST = (u, headers, body, agent, request) => new Promise((res, rej) => {
  const q = request({ host: u.hostname, port: u.port, path: '/', method: 'POST', headers, agent }, (s) => {
    let t = ''; s.setEncoding('utf8'); s.on('data', (c) => (t += c));
    s.on('end', () => (s.statusCode === 200 ? res(t) : rej(new Error(s.statusCode + ' ' + t))));
  });
  q.on('error', rej); q.end(body);
});
`;

const sortedMedian = (values: number[]): number => {
  const s = [...values].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)] ?? NaN;
};
const pct = (values: number[], p: number): number => {
  const s = [...values].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] ?? NaN;
};
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** dynalite (with the stack's table layout) in a child process; its URL. */
const startDynalite = async () => {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `const { startLocalDynamo } = await import('${ROOT}/local/dynamodb.ts');
       const d = await startLocalDynamo(); console.log(d.directUrl); process.stdin.resume(); process.stdin.on('end', () => process.exit(0));`,
    ],
    {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, AWS_REGION: REGION, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' },
    },
  );
  const url = await new Promise<string>((res, rej) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const line = /^(http:\/\/\S+)\n/m.exec(out);
      if (line) res(line[1]!);
    });
    child.once('exit', (code) => rej(new Error(`dynalite exited ${code}`)));
  });
  return { url, stop: () => child.stdin.end() };
};

/** Each module's file: the prelude and its source, as .ts so tsx and esbuild take the same text. */
const writeModules = (dir: string): Record<string, string> =>
  Object.fromEntries(
    Object.entries(SOURCES).map(([name, source], i) => {
      const file = join(dir, `client-${i}.mts`);
      writeFileSync(file, `// @ts-nocheck\n${PRELUDE}\n${source}\n`);
      return [name, file];
    }),
  );

const warm = async (files: Record<string, string>, url: string, n: number) => {
  const withKey = url.replace('http://', `http://${KEY.accessKeyId}:${KEY.secretAccessKey}@`);
  const names = Object.keys(files);
  const clients: Candidate[] = [];
  for (const name of names) {
    const mod = (await import(files[name]!)) as { make(url: string): Candidate };
    clients.push(mod.make(withKey));
  }
  const samples = names.map(() => ({ ms: [] as number[], cpu: [] as number[] }));
  const WARMUP = 20;
  for (let i = 0; i < n + WARMUP; i++) {
    for (let c = 0; c < clients.length; c++) {
      const id = `bench-${c}-${i}-${process.pid}`;
      for (const op of ['put', 'update'] as const) {
        const c0 = cpuMs();
        const t0 = performance.now();
        await clients[c]![op](id);
        const t1 = performance.now();
        const c1 = cpuMs();
        if (i >= WARMUP) {
          samples[c]!.ms.push(t1 - t0);
          samples[c]!.cpu.push(c1 - c0);
        }
      }
    }
  }
  return names.map((name, c) => {
    const s = samples[c]!;
    return {
      name,
      p50: pct(s.ms, 50),
      p99: pct(s.ms, 99),
      cpu: s.cpu.reduce((x, y) => x + y, 0) / s.cpu.length,
    };
  });
};

const ENV_CREDENTIALS = join(ROOT, 'functions/base/runtime/env-credentials.ts');

/** One bundle per client, as infra bundles a function; then import + first PutItem in fresh processes. */
const cold = (files: Record<string, string>, dir: string, url: string, runs: number) => {
  const withKey = url.replace('http://', `http://${KEY.accessKeyId}:${KEY.secretAccessKey}@`);
  const esbuild = join(ROOT, 'node_modules/.bin/esbuild');
  const bundles = Object.entries(files).map(([name, file], i) => {
    const out = join(dir, `bundle-${i}.mjs`);
    execFileSync(
      esbuild,
      [
        file,
        '--bundle',
        '--platform=node',
        '--format=esm',
        '--target=node22',
        '--minify',
        '--main-fields=module,main',
        `--alias:@aws-sdk/credential-provider-node=${ENV_CREDENTIALS}`,
        "--banner:js=import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
        `--outfile=${out}`,
        '--log-level=error',
      ],
      { cwd: ROOT },
    );
    return { name, out, kb: statSync(out).size / 1024 };
  });
  const runner = join(dir, 'cold.mjs');
  writeFileSync(
    runner,
    `const c0 = process.cpuUsage(); const t0 = performance.now();
const m = await import(process.argv[2]); const c = m.make(process.argv[3]); await c.put('cold-' + process.pid + '-' + Date.now());
const t1 = performance.now(); const u = process.cpuUsage(c0);
console.log(JSON.stringify({ ms: t1 - t0, cpu: (u.user + u.system) / 1000 }));`,
  );
  const got = bundles.map(() => ({ ms: [] as number[], cpu: [] as number[] }));
  for (let r = 0; r < runs; r++) {
    bundles.forEach((b, i) => {
      const out = execFileSync(process.execPath, [runner, b.out, withKey], {
        env: { ...process.env, AWS_REGION: REGION, AWS_ACCESS_KEY_ID: KEY.accessKeyId, AWS_SECRET_ACCESS_KEY: 'x' },
      });
      const { ms, cpu } = JSON.parse(out.toString()) as { ms: number; cpu: number };
      got[i]!.ms.push(ms);
      got[i]!.cpu.push(cpu);
    });
  }
  return bundles.map((b, i) => ({
    name: b.name,
    kb: b.kb,
    ms: sortedMedian(got[i]!.ms),
    cpu: sortedMedian(got[i]!.cpu),
  }));
};

const main = async () => {
  const n = Number(process.argv[2] ?? 500);
  process.env.AWS_REGION ??= REGION;
  // Inside the repository, so the modules resolve its node_modules; removed at the end.
  const dir = mkdtempSync(join(ROOT, '.bench-dynamo-'));
  const dynalite = await startDynalite();
  try {
    const files = writeModules(dir);
    const warmRows = await warm(files, dynalite.url, n);
    const coldRows = cold(files, dir, dynalite.url, 7);
    const f = (x: number) => x.toFixed(2).padStart(8);
    console.log(
      `\nDynamoDB clients, ${n} iterations (PutItem + UpdateItem each), interleaved; node ${process.version}`,
    );
    console.log(`${'client'.padEnd(38)} warm p50 ms  p99 ms  CPU ms/call | cold ms  cold CPU ms  bundle KB`);
    warmRows.forEach((w, i) => {
      const c = coldRows[i]!;
      console.log(
        `${w.name.padEnd(38)} ${f(w.p50)}  ${f(w.p99)}  ${f(w.cpu)}    | ${f(c.ms)} ${f(c.cpu)}   ${f(c.kb)}`,
      );
    });
  } finally {
    dynalite.stop();
    rmSync(dir, { recursive: true, force: true });
  }
};

await main();
