/**
 * Before and after in one run: each named function's bundle from two synthesized cdk.out directories (this tree's
 * and `--before`'s) and the hand-written peer (bench/peer/https.mjs), interleaved round by round in fresh Node
 * processes against one local stack, as bench/cold-start.ts measures them. Prints medians of import + first invoke
 * and each bundle's ratio to the peer of the same round set.
 *
 *   npx tsx bench/secrets-cold.ts --before /path/to/old/cdk.out [--rounds N] [--only A,B]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { environmentOf } from '../functions/base/runtime/env.js';
import { LOCAL_SECRET_ID, startLocalStack } from '../local/run-local.js';
import { BENCH_ORDER_RATE, deployedFunctions, localEnv, once, payloadFor } from './cold-probe.js';
import { bundlePeers } from './peer/bundle.js';
import { startRealInputs } from './real-inputs.js';

const { values } = parseArgs({
  options: { before: { type: 'string' }, rounds: { type: 'string' }, only: { type: 'string' } },
});
if (!values.before) throw new Error('--before <cdk.out of the old tree> is required');
const rounds = Number(values.rounds ?? 7);
const only = (values.only ?? 'ClientDetails,GetPendingGTTOrder,PlaceGTTOrder,SignalWebhook,EventsGttWatcher').split(
  ',',
);

/** The old tree's bundle of each function, by the same logical-id naming as cold-probe.ts. */
const oldFiles = new Map<string, string>();
for (const file of readdirSync(values.before).filter((f) =>
  /^GttGatewayStack(-[A-Za-z0-9-]+)?\.template\.json$/.test(f),
)) {
  const template = JSON.parse(readFileSync(join(values.before, file), 'utf8')) as {
    Resources: Record<string, { Type: string; Metadata?: Record<string, string> }>;
  };
  for (const [id, r] of Object.entries(template.Resources))
    if (r.Type === 'AWS::Lambda::Function' && r.Metadata?.['aws:asset:path'])
      oldFiles.set(
        id.replace(/Function[0-9A-F]{8}$/, '').replace(/^Session/, ''),
        join(values.before, r.Metadata['aws:asset:path'], 'index.mjs'),
      );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const stack = await startLocalStack({ brokerTimeoutMs: 2_000, sessionRenewal: true, settings: BENCH_ORDER_RATE });
const peers = await bundlePeers();
const inputs = await startRealInputs(stack);
try {
  const functions = deployedFunctions().filter((f) => only.includes(f.name));
  const token = await inputs.strategyToken();
  const signalQueue = { signalQueueUrl: inputs.queue.queueUrl, sqsEndpoint: inputs.queue.url };
  const samples = new Map<string, { before: number[]; after: number[]; peer: number[] }>();
  let seq = 0;
  for (let r = 0; r < rounds; r++) {
    for (const fn of functions) {
      const env = localEnv(stack, fn, signalQueue);
      const p = payloadFor(fn.name, ++seq, undefined, stack.emulator);
      const payload = async () =>
        fn.name === 'SignalWebhook' ? inputs.webhookEvent(token) : payloadFor(fn.name, ++seq).gateway;
      const peerEnv = {
        ...localEnv(stack, undefined),
        ...environmentOf({
          brokerBaseUrl: stack.broker.baseUrl,
          brokerSecretId: LOCAL_SECRET_ID,
          brokerAuth: stack.broker.auth,
        }),
        PEER_OPERATION: p.peerOperation,
      };
      const runs = {
        before: async () => once(oldFiles.get(fn.name)!, await payload(), env),
        after: async () => once(fn.file, await payload(), env),
        peer: async () => once(peers.file.https, p.peer, peerEnv),
      };
      const order = (['before', 'after', 'peer'] as const).slice();
      for (let i = 0; i < r % 3; i++) order.push(order.shift()!);
      const entry = samples.get(fn.name) ?? { before: [], after: [], peer: [] };
      for (const who of order) {
        const sample = await runs[who]();
        if (!sample.ok) throw new Error(`${fn.name} ${who}: ${sample.error}`);
        entry[who].push(sample.totalMs);
      }
      samples.set(fn.name, entry);
    }
  }
  console.log(`Import + first invoke, median of ${rounds} interleaved rounds (ms), before and after against the peer:`);
  console.table(
    functions.map((fn) => {
      const s = samples.get(fn.name)!;
      const [b, a, p] = [median(s.before), median(s.after), median(s.peer)];
      return {
        function: fn.name,
        beforeKB: Math.round(statSync(oldFiles.get(fn.name)!).size / 102.4) / 10,
        afterKB: Math.round(statSync(fn.file).size / 102.4) / 10,
        beforeMs: Math.round(b * 10) / 10,
        afterMs: Math.round(a * 10) / 10,
        peerMs: Math.round(p * 10) / 10,
        beforeRatio: Math.round((b / p) * 100) / 100,
        afterRatio: Math.round((a / p) * 100) / 100,
      };
    }),
  );
} finally {
  peers.dispose();
  await inputs.queue.close();
  await stack.close();
}
