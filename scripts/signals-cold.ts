/**
 * Import plus first call of the bundled SignalWebhook (`npm run synth` writes cdk.out), each in a fresh Node process
 * against a local stack of this tree, posting a real alert that must be answered 202; with several cdk.out
 * directories (e.g. main's and this tree's), their runs interleave.
 *
 *   POWERTOOLS_LOG_LEVEL=SILENT npx tsx scripts/signals-cold.ts [cdk.out dir...] [runs, default 10]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { LOCAL_EVENTS_TABLE } from '../local/dynamodb.js';
import { startLocalStack } from '../local/run-local.js';

const args = process.argv.slice(2);
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 10);
const outs = args.filter((a) => !/^\d+$/.test(a)).map((a) => resolve(a));
if (!outs.length) outs.push(resolve('cdk.out'));

const bundleOf = (out: string) => {
  const template = JSON.parse(readFileSync(join(out, 'GttGatewayStack.template.json'), 'utf8')) as {
    Resources: Record<string, { Type: string; Metadata?: Record<string, string> }>;
  };
  const [, fn] = Object.entries(template.Resources).find(
    ([id, r]) => r.Type === 'AWS::Lambda::Function' && id.startsWith('SignalWebhookFunction'),
  )!;
  return join(out, fn.Metadata!['aws:asset:path']!, 'index.mjs');
};

const PROBE = `const t0=performance.now();const m=await import(process.argv[1]);const t1=performance.now();
const ctx={functionName:'SignalWebhook',awsRequestId:'1',getRemainingTimeInMillis:()=>10000};
const r=await m.handler(JSON.parse(process.argv[2]),ctx);const t2=performance.now();
console.log(JSON.stringify({importMs:t1-t0,firstCallMs:t2-t1,totalMs:t2-t0,status:r&&r.statusCode}))`;

const stack = await startLocalStack({
  signals: { actor: () => Promise.resolve({ state: 'acted', results: [] }), retryDelayMs: 20 },
});
const created = await fetch(`${stack.api.url}/strategies`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'Idempotency-Key': `cold-${Date.now()}` },
  body: JSON.stringify({
    name: 'cold',
    source: 'tradingview',
    mode: 'paper',
    ratePerMinute: 600,
    action: { kind: 'gtt', order: { exch: 'NSE', prd: 'C', qty: 1 }, trigger: { offset: '0' }, price: { offset: '0' } },
  }),
});
const token = ((await created.json()) as { webhookUrl: string }).webhookUrl.split('/').pop()!;
const env: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  POWERTOOLS_SERVICE_NAME: 'gtt-gateway',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  POWERTOOLS_METRICS_DISABLED: 'true',
  BROKER_TIMEOUT_MS: '8000',
  EVENTS_TABLE_NAME: LOCAL_EVENTS_TABLE,
  IDEMPOTENCY_TABLE_NAME: stack.dynamo.tableName,
  DYNAMODB_ENDPOINT: stack.dynamo.url,
  SIGNAL_QUEUE_URL: stack.signalQueue.queueUrl,
  SQS_ENDPOINT: stack.signalQueue.url,
};
let n = 0;
const event = () => ({
  version: '2.0',
  routeKey: 'POST /signals/{token}',
  rawPath: `/signals/${token}`,
  rawQueryString: '',
  headers: { 'content-type': 'application/json' },
  pathParameters: { token },
  requestContext: {
    http: { method: 'POST', path: `/signals/${token}`, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'cold' },
    routeKey: 'POST /signals/{token}',
    stage: '$default',
    requestId: `cold-${++n}`,
  },
  body: JSON.stringify({ action: 'buy', ticker: 'INFY', exchange: 'NSE', price: 1500, id: `cold-${n}-${Date.now()}` }),
  isBase64Encoded: false,
});
const probe = (file: string) =>
  new Promise<{ importMs: number; firstCallMs: number; totalMs: number; status: number }>((done, fail) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', PROBE, file, JSON.stringify(event())], { env });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', fail);
    child.on('close', () => {
      const last = out.trim().split('\n').pop() ?? '';
      try {
        done(JSON.parse(last) as { importMs: number; firstCallMs: number; totalMs: number; status: number });
      } catch {
        fail(new Error(`probe printed no result: ${out.slice(0, 300)}`));
      }
    });
  });

const results = new Map<string, { importMs: number[]; firstCallMs: number[]; totalMs: number[] }>();
for (const out of outs) results.set(out, { importMs: [], firstCallMs: [], totalMs: [] });
for (let i = 0; i < runs; i++) {
  const order = i % 2 ? [...outs].reverse() : outs;
  for (const out of order) {
    const r = await probe(bundleOf(out));
    if (r.status !== 202) throw new Error(`${out}: the webhook answered ${r.status}`);
    const into = results.get(out)!;
    into.importMs.push(r.importMs);
    into.firstCallMs.push(r.firstCallMs);
    into.totalMs.push(r.totalMs);
    await stack.signalQueue.drained();
    await stack.eventsForwarded();
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!.toFixed(1);
for (const [out, r] of results)
  console.log(
    JSON.stringify({
      out,
      runs,
      importMs: median(r.importMs),
      firstCallMs: median(r.firstCallMs),
      totalMs: median(r.totalMs),
    }),
  );
await stack.close();
