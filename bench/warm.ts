/**
 * Warm, as deployed: each order function's `cdk synth` bundle in its own Node process (a warm container), the
 * governor on, against a local stack. Per call, interleaved: a raw `node:http` keep-alive POST of the same jData
 * request (on a second real order for modify, PATCH and cancel: a PATCH's raw call is the full modify it becomes)
 * and the function's invocation; both replies checked. Then a short second run of the same probe with DynamoDB
 * behind the counting proxy (bench/dynamo-counter.ts): the calls and round trips made before each reply.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { buildBrokerRequest } from '../functions/base/broker/jdata.js';
import { OPERATIONS } from '../functions/manifest/index.js';
import type { LocalStack } from '../local/run-local.js';
import { BAD_REPLY, deployedFunctions, localEnv, ORDER, runProbe } from './cold-probe.js';
import { attribute, startDynamoCounter } from './dynamo-counter.js';

/** The floor's two bare writes (bench/peer/floor.mjs), imported by the warm probe's process. */
export const FLOOR_MODULE = join(import.meta.dirname, 'peer', 'floor.mjs');

/**
 * Issue 54's targets for a warm order operation (governor on): p50 at most 2 ms over the floor row (the raw call
 * with the journal's two bare writes, bench/peer/floor.mjs), at most 3 ms of CPU per call, at most two DynamoDB
 * round trips before the reply.
 */
export const WARM_TARGET = { overFloorP50Ms: 2, cpuMs: 3, dynamoTrips: 2 };
/** At least this long between two invocations: the governor's highest rate (100 a second) is never reached. */
const PACE_MS = 15;
const COUNTED_CALLS = 30;
/**
 * Calls per warm process: its orders are placed before it starts (three per modify, PATCH or cancel: the function's,
 * the raw call's, the floor's), so the pending list stays at a retail account's size (at most about 120 orders; the
 * broker is reset between processes). A modify and a PATCH read the order at the broker first, whose cost grows with
 * the list: the reads section measures that growth.
 */
const PER_PROCESS = 40;

/**
 * Runs the bundle warm: items [{gateway, raw, floorRaw}] in turn, the first (its cold start) not counted. Each item
 * times three calls in rotating order: the raw broker POST, the floor (a conditional claim, the raw POST of
 * `floorRaw`, the completion: bench/peer/floor.mjs, in this same process) and the function's invocation.
 */
const PROBE = `import {Agent,request} from 'node:http';import {readFileSync} from 'node:fs';
const m=await import(process.argv[1]);const items=JSON.parse(readFileSync(process.argv[2],'utf8'));
const floor=process.env.FLOOR_MODULE?(await import(process.env.FLOOR_MODULE)).floorFromEnv():undefined;
const agent=new Agent({keepAlive:true});const OK=/^(Ok|OI (created|replaced|deleted))$/i;
const post=(q)=>new Promise((res,rej)=>{const x=request(q.url,{method:'POST',headers:{...q.headers,'Content-Length':Buffer.byteLength(q.body)},agent},(s)=>{let t='';s.setEncoding('utf8');s.on('data',c=>t+=c);s.on('end',()=>res(t))});x.on('error',rej);x.end(q.body)});
const now=()=>performance.timeOrigin+performance.now();const cpu=()=>{const u=process.cpuUsage();return (u.user+u.system)/1000};
const ctx={functionName:'bench',awsRequestId:'1',getRemainingTimeInMillis:()=>10000};
const out={raw:[],gw:[],floor:[],rawCpu:[],gwCpu:[],floorCpu:[],marks:[],failed:0,firstError:null};let last=0;
const okReply=(text)=>{let rep={};try{rep=JSON.parse(text)}catch{}return Array.isArray(rep)||OK.test(rep.stat)};
for(let i=0;i<items.length;i++){const it=items[i];
const doRaw=async()=>{if(!it.raw)return;const c=cpu(),t=performance.now();const text=await post(it.raw);const ms=performance.now()-t,cc=cpu()-c;
if(!okReply(text)){out.failed++;out.firstError??='raw call: '+text.slice(0,200)}if(i>0){out.raw.push(ms);out.rawCpu.push(cc)}};
const doFloor=async()=>{if(!floor||!it.floorRaw)return;const id='floor-'+process.pid+'-'+i;const c=cpu(),t=performance.now();let text='';
try{await floor.claim(id);text=await post(it.floorRaw);await floor.complete(id,text)}catch(e){out.failed++;out.firstError??='floor: '+String(e&&e.message).slice(0,200)}
const ms=performance.now()-t,cc=cpu()-c;if(text&&!okReply(text)){out.failed++;out.firstError??='floor call: '+text.slice(0,200)}if(i>0){out.floor.push(ms);out.floorCpu.push(cc)}};
const doGw=async()=>{const wait=last+${PACE_MS}-performance.now();if(wait>0)await new Promise(r=>setTimeout(r,wait));last=performance.now();
const c=cpu(),s=now(),t=performance.now();let r,err;try{r=await m.handler(it.gateway,ctx)}catch(e){err=String(e&&e.message).slice(0,200)}
const ms=performance.now()-t,cc=cpu()-c,e=now();const bad=err||${BAD_REPLY};if(bad){out.failed++;out.firstError??='function: '+bad}
if(i>0){out.gw.push(ms);out.gwCpu.push(cc);out.marks.push({start:s,end:e})}};
const order=[[doRaw,doFloor,doGw],[doFloor,doGw,doRaw],[doGw,doRaw,doFloor]][i%3];for(const step of order)await step()}
floor?.close();console.log(JSON.stringify(out))`;

export interface ProbeOut {
  raw: number[];
  gw: number[];
  floor: number[];
  rawCpu: number[];
  gwCpu: number[];
  floorCpu: number[];
  marks: { start: number; end: number }[];
  failed: number;
  firstError: string | null;
}

/**
 * Runs the warm probe on `items` ([{gateway, raw?}], the first a cold start not counted) in a fresh process; a
 * failed call (a raw reply that is not a success, a function that threw or answered an error) fails the bench.
 */
export const warmProbe = async (who: string, file: string, items: unknown[], env: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), 'gtt-warm-'));
  try {
    writeFileSync(join(dir, 'items.json'), JSON.stringify(items));
    const out = await runProbe<ProbeOut>(PROBE, file, join(dir, 'items.json'), env);
    if (out.failed)
      throw new Error(`bench: ${who}: ${out.failed} calls failed (first: ${out.firstError}); no row for it`);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const met = (ok: boolean) => (ok ? 'met' : 'not met');

export const WARM_FUNCTIONS = ['PlaceGTTOrder', 'ModifyGTTOrder', 'PatchGTTOrder', 'CancelGTTOrder'] as const;

export const measureWarm = async (stack: LocalStack, iterations: number) => {
  const session = { accessToken: stack.emulator.token, uid: stack.emulator.uid, actid: stack.emulator.actid };
  const opNamed = (name: string) => OPERATIONS.find((o) => o.name === name)!;
  const requestFor = (name: string, wire: Record<string, unknown>) => {
    const op = opNamed(name);
    return buildBrokerRequest(
      stack.broker.baseUrl,
      op.broker,
      op.toJData(op.input.parse(wire) as never, session),
      session.accessToken,
      stack.broker.auth,
    );
  };
  /** A pending order placed at the broker directly (not through the gateway: no governor permit, no record). */
  const placeOutside = async () => {
    const q = requestFor('PlaceGTTOrder', { ...ORDER });
    const reply = (await (await fetch(q.url, { method: 'POST', headers: q.headers, body: q.body })).json()) as {
      al_id?: string;
    };
    if (!reply.al_id) throw new Error(`bench: a setup place failed: ${JSON.stringify(reply)}`);
    return reply.al_id;
  };
  let seq = 0;
  const key = () => `warm-${process.pid}-${++seq}`;
  const itemFor = async (name: string) => {
    if (name === 'PlaceGTTOrder')
      return {
        gateway: { ...ORDER, idempotencyKey: key() },
        raw: requestFor('PlaceGTTOrder', { ...ORDER }),
        floorRaw: requestFor('PlaceGTTOrder', { ...ORDER }),
      };
    const [mine, theirs, floors] = [await placeOutside(), await placeOutside(), await placeOutside()];
    if (name === 'CancelGTTOrder')
      return {
        gateway: { al_id: mine, idempotencyKey: key() },
        raw: requestFor('CancelGTTOrder', { al_id: theirs }),
        floorRaw: requestFor('CancelGTTOrder', { al_id: floors }),
      };
    return {
      gateway:
        name === 'PatchGTTOrder'
          ? { al_id: mine, d: ORDER.d, idempotencyKey: key() }
          : { ...ORDER, al_id: mine, idempotencyKey: key() },
      raw: requestFor('ModifyGTTOrder', { ...ORDER, al_id: theirs }),
      floorRaw: requestFor('ModifyGTTOrder', { ...ORDER, al_id: floors }),
    };
  };
  const counter = await startDynamoCounter(stack.dynamo.url);
  const rows = [];
  try {
    for (const name of WARM_FUNCTIONS) {
      const fn = deployedFunctions().find((f) => f.name === name);
      if (!fn) throw new Error(`bench: ${name} is not a function of the synthesized stack`);
      /** `count` calls in processes of PER_PROCESS each (a fresh pending list for each: see PER_PROCESS). */
      const run = async (count: number, dynamodbEndpoint?: string): Promise<ProbeOut> => {
        const outs: ProbeOut[] = [];
        for (let done = 0; done < count; done += PER_PROCESS)
          outs.push(await runOne(Math.min(PER_PROCESS, count - done), dynamodbEndpoint));
        const all = <K extends keyof ProbeOut>(key: K) => outs.flatMap((o) => o[key] as never[]);
        return {
          raw: all('raw'),
          gw: all('gw'),
          floor: all('floor'),
          rawCpu: all('rawCpu'),
          gwCpu: all('gwCpu'),
          floorCpu: all('floorCpu'),
          marks: all('marks'),
          failed: 0,
          firstError: null,
        };
      };
      const runOne = async (count: number, dynamodbEndpoint?: string) => {
        const items = [];
        for (let i = 0; i <= count; i++) items.push(await itemFor(name));
        const env = {
          ...localEnv(stack, fn, dynamodbEndpoint ? { dynamodbEndpoint } : {}),
          // BENCH_CPU_PROF=<dir>: each warm process writes a V8 CPU profile there (`node --cpu-prof`).
          ...(process.env.BENCH_CPU_PROF ? { BENCH_CPU_PROF: process.env.BENCH_CPU_PROF } : {}),
          // The timed run only: the floor's writes on the idempotency table, straight at the local DynamoDB.
          ...(dynamodbEndpoint
            ? {}
            : { FLOOR_MODULE: FLOOR_MODULE, FLOOR_ENDPOINT: stack.dynamo.url, FLOOR_TABLE: stack.dynamo.tableName }),
        };
        const out = await warmProbe(`warm ${name}`, fn.file, items, env);
        await fetch(`${stack.emulator.url}/_emulator/reset`, { method: 'POST' });
        return out;
      };
      const timed = await run(iterations);
      counter.calls.length = 0;
      const counted = await run(COUNTED_CALLS, counter.url);
      const perCall = attribute(counter.calls, counted.marks);
      const p50 = percentile(timed.gw, 50) - percentile(timed.raw, 50);
      const p99 = percentile(timed.gw, 99) - percentile(timed.raw, 99);
      const overFloor = percentile(timed.gw, 50) - percentile(timed.floor, 50);
      const cpu = mean(timed.gwCpu);
      const calls = percentile(
        perCall.map((c) => c.before),
        50,
      );
      const trips = percentile(
        perCall.map((c) => c.trips),
        50,
      );
      rows.push({
        operation: name,
        rawP50: round(percentile(timed.raw, 50), 3),
        gatewayP50: round(percentile(timed.gw, 50), 3),
        overP50: round(p50, 3),
        floorP50: round(percentile(timed.floor, 50), 3),
        overFloorP50: round(overFloor, 3),
        overFloorMet: met(overFloor <= WARM_TARGET.overFloorP50Ms),
        rawP99: round(percentile(timed.raw, 99), 3),
        gatewayP99: round(percentile(timed.gw, 99), 3),
        overP99: round(p99, 3),
        floorP99: round(percentile(timed.floor, 99), 3),
        cpuMs: round(cpu),
        rawCpuMs: round(mean(timed.rawCpu)),
        floorCpuMs: round(mean(timed.floorCpu)),
        cpuMet: met(cpu <= WARM_TARGET.cpuMs),
        dynamoCalls: calls,
        dynamoTrips: trips,
        dynamoAfterReply: percentile(
          perCall.map((c) => c.after),
          50,
        ),
        dynamoActions: perCall[perCall.length >> 1]?.actions.join(' ') ?? '',
        dynamoMet: met(calls <= WARM_TARGET.dynamoTrips || trips <= WARM_TARGET.dynamoTrips),
      });
    }
  } finally {
    await counter.close();
  }
  return rows;
};
