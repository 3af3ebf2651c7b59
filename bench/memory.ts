/**
 * Memory sizes from measurement: each deployed bundle (cdk synth assets, template environment) in a fresh Node
 * process against the local stack, invoked once cold and then WARM_CALLS times warm. The process's own CPU time
 * (user + system, process.cpuUsage) per invocation and its peak RSS (sampled after each invocation: the kernel's
 * maxrss of a spawned process starts at its parent's) are what Lambda's memory setting buys: CPU in
 * proportion to memory (a full vCPU at 1,769 MB), and the RSS it must hold. The broker, dynalite and the other
 * stand-ins run in the parent process, so their work is not counted.
 *
 * Lambda-equivalent time of the CPU-bound part at M MB = CPU ms × 1,769 / M; the cost per million invocations adds
 * an assumed 40 ms of waiting (the broker and DynamoDB round trips in AWS) at the arm64 price.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { LocalStack } from '../local/run-local.js';
import { deployedFunctions, localEnv, payloadFor, runProbe } from './cold-probe.js';

export const FULL_VCPU_MB = 1_769;
/** arm64, us-east-1: per GB-second and per request. */
export const LAMBDA_PRICE = { gbSecond: 0.0000133334, request: 0.2 / 1_000_000 };
export const ASSUMED_WAIT_MS = 40;
const WARM_CALLS = Number(process.env.BENCH_MEMORY_CALLS ?? 60);
const SIZES = [256, 512, 1024] as const;

/** The chosen size of each function (infra/constructs/gateway-function.ts MEMORY_MB), for the table's last column. */
const CHOSEN: Record<string, number> = {
  PlaceGTTOrder: 1024,
  PlaceOCOOrder: 1024,
  ModifyGTTOrder: 1024,
  CancelGTTOrder: 1024,
  GetPendingGTTOrder: 512,
  GetEnabledGTTs: 512,
  ClientDetails: 512,
  EventsGttWatcher: 512,
  EventsEventForwarder: 256,
};

export interface MemoryRow {
  function: string;
  peakRssMB: number;
  coldCpuMs: number;
  warmCpuMs: number;
  at256Ms: number;
  at512Ms: number;
  at1024Ms: number;
  usdPerMillionAt512: number;
  usdPerMillionAt1024: number;
  chosenMB: number;
}

/** Imports the bundle, invokes it with each payload in turn, prints CPU ms of the first and the mean of the rest. */
const PROBE = `const m=await import(process.argv[1]);const payloads=JSON.parse((await import('node:fs')).readFileSync(process.argv[2],'utf8'));
const ctx={functionName:'bench',awsRequestId:'1',getRemainingTimeInMillis:()=>10000};
const cpu=()=>{const u=process.cpuUsage();return (u.user+u.system)/1000};
let failed=0,firstError,peak=process.memoryUsage.rss();const times=[];for(const p of payloads){const c=cpu();try{const r=await m.handler(p,ctx);if(r&&r.statusCode>=400){failed++;firstError??=r.body}}catch(e){failed++;firstError??=String(e&&e.message)}times.push(cpu()-c);peak=Math.max(peak,process.memoryUsage.rss())}
const warm=times.slice(1);console.log(JSON.stringify({coldCpuMs:times[0],warmCpuMs:warm.reduce((a,b)=>a+b,0)/warm.length,peakRssKB:peak/1024,failed,firstError}))`;

const probe = async (file: string, payloads: unknown[], env: Record<string, string>) => {
  // The payloads go through a file: as an argument they can pass the system's limit on one argument (128 KB).
  const dir = mkdtempSync(join(tmpdir(), 'gtt-memory-'));
  writeFileSync(join(dir, 'payloads.json'), JSON.stringify(payloads));
  try {
    return await runProbe<{
      coldCpuMs: number;
      warmCpuMs: number;
      peakRssKB: number;
      failed: number;
      firstError?: string;
    }>(PROBE, file, join(dir, 'payloads.json'), env);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
const usdPerMillion = (cpuMs: number, mb: number) => {
  const billedMs = Math.ceil((cpuMs * FULL_VCPU_MB) / mb + ASSUMED_WAIT_MS);
  return round((mb / 1024) * (billedMs / 1000) * LAMBDA_PRICE.gbSecond * 1e6 + LAMBDA_PRICE.request * 1e6, 2);
};

/** A stream batch as the EventForwarder gets it: ten completed records, each with one event (not yet published). */
const streamBatch = (seq: number) => ({
  Records: Array.from({ length: 10 }, (_, i) => ({
    dynamodb: {
      SequenceNumber: String(seq * 10 + i),
      NewImage: {
        status: { S: 'COMPLETED' },
        data: {
          M: {
            kind: { S: 'outbox' },
            outbox: {
              L: [
                {
                  M: {
                    detailType: { S: 'GTT Placed' },
                    detail: {
                      M: {
                        al_id: { S: `bench-${seq}-${i}` },
                        eventId: { S: `bench-memory-${process.pid}-${seq}-${i}` },
                        tsym: { S: 'M&M-EQ' },
                        origin: { S: 'gateway' },
                      },
                    },
                  },
                },
              ],
            },
          },
        },
      },
    },
  })),
});

export const measureMemory = async (stack: LocalStack): Promise<MemoryRow[]> => {
  let seq = 0;
  const setup = (name: string, input: object) =>
    stack.handlers.get(name)!({ ...input, idempotencyKey: `memory-setup-${process.pid}-${++seq}` }, {
      functionName: 'bench',
      awsRequestId: 'setup',
      getRemainingTimeInMillis: () => 10_000,
    } as never) as Promise<{ al_id: string }>;
  const rows: MemoryRow[] = [];
  for (const fn of deployedFunctions().filter((f) => f.name in CHOSEN)) {
    const payloads: unknown[] = [];
    for (let i = 0; i <= WARM_CALLS; i++) {
      if (fn.name === 'EventsEventForwarder') payloads.push(streamBatch(++seq));
      else if (fn.name === 'ModifyGTTOrder' || fn.name === 'CancelGTTOrder') {
        const placed = await setup('PlaceGTTOrder', payloadFor('PlaceGTTOrder', ++seq).gateway as object);
        payloads.push(payloadFor(fn.name, ++seq, { single: placed.al_id, oco: '1' }).gateway);
      } else payloads.push(payloadFor(fn.name, ++seq).gateway);
    }
    // localEnv sets the governor at its highest rate: its DynamoDB call is made, nothing is refused.
    const sample = await probe(fn.file, payloads, localEnv(stack, fn));
    if (sample.failed)
      throw new Error(
        `bench: ${sample.failed} invocations of ${fn.name} failed in the memory probe (first: ${sample.firstError})`,
      );
    rows.push({
      function: fn.name,
      peakRssMB: round(sample.peakRssKB / 1024),
      coldCpuMs: round(sample.coldCpuMs),
      warmCpuMs: round(sample.warmCpuMs, 2),
      at256Ms: round((sample.warmCpuMs * FULL_VCPU_MB) / 256),
      at512Ms: round((sample.warmCpuMs * FULL_VCPU_MB) / 512),
      at1024Ms: round((sample.warmCpuMs * FULL_VCPU_MB) / 1024),
      usdPerMillionAt512: usdPerMillion(sample.warmCpuMs, 512),
      usdPerMillionAt1024: usdPerMillion(sample.warmCpuMs, 1024),
      chosenMB: CHOSEN[fn.name]!,
    });
  }
  return rows;
};

export const MEMORY_SIZES = SIZES;
