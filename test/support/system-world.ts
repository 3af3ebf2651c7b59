/**
 * The world of the system model (system-model.ts): the whole function set started once (startLocalStack, with a
 * small broker timeout and late window), a DynamoDB proxy the model can kill processes with (dynamo-fault-proxy.ts),
 * a hook on the emulator that kills a process the moment its broker write arrives and counts the broker requests
 * that arrived (a command waits for a slow change to be at the broker), a record of every broker order's remarks as
 * it was created (who placed it, whatever a change does to them since), the signal worker's actor (the real one,
 * which the model can kill at a short deadline). HTTP helpers classify every answer as ok, unknown, in flight, not
 * executed or undone.
 */
import { Logger } from '@aws-lambda-powertools/logger';

import type { GatewaySettings } from '../../functions/base/runtime/config.js';
import type { PlanEngine } from '../../functions/plans/engine.js';
import { createPlanEngine } from '../../functions/plans/engine-wiring.js';
import { PlanStore } from '../../functions/plans/store.js';
import { createSignalActor } from '../../functions/signals/actor-wiring.js';
import type { SignalActor } from '../../functions/signals/signal-actor.js';
import { createSignalWork } from '../../functions/signals/worker.js';
import { LOCAL_SECRET_ID, type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type DynamoFaultProxy, startDynamoFaultProxy } from './dynamo-fault-proxy.js';
import { type EmulatorControl, emulatorControl } from './emulator-control.js';
import { HIGH_ORDER_RATE } from './order-rate.js';

/** The stack's broker timeout, and how long after it a broker may still act (ORDER_LATE_WINDOW_MS). */
export const BROKER_TIMEOUT_MS = 2_000;
export const LATE_WINDOW_MS = 3_000;
/** A slow broker: it answers (or acts, `late`) after the gateway's timeout, within the late window. */
export const SLOW_MS = 2_300;
/** The deadline of an invocation the model kills (an order function, a signal worker's run). */
export const KILLED_DEADLINE_MS = 3_000;
/**
 * The gateway's bound on an order write (docs/explanation/order-safety.md, "The late window"): its send starts within one broker
 * timeout of its entry into the order core (two with a PATCH's second read), every attempt ends within one more, and
 * the broker may act on it for the late window after that.
 */
export const WRITE_BOUND_MS = 3 * BROKER_TIMEOUT_MS + LATE_WINDOW_MS;
/** From a write's start until nothing it began can still land at the broker. */
export const SETTLE_MS = WRITE_BOUND_MS + 200;

export const WRITE_OPERATIONS = [
  'PlaceGTTOrder',
  'PlaceOCOOrder',
  'ModifyGTTOrder',
  'ModifyOCOOrder',
  'CancelGTTOrder',
  'CancelOCOOrder',
] as const;
const WRITE_PATH = new RegExp(`/(${WRITE_OPERATIONS.join('|')})/?$`);

export interface World {
  stack: LocalStack;
  proxy: DynamoFaultProxy;
  control: EmulatorControl;
  /** Kill the armed process (the proxy drops everything) when the next broker write arrives. */
  killOnWrite: boolean;
  /** The signal worker's next run is killed: a short deadline, its writes lost from its broker write on. */
  killNextActor: boolean;
  /** Awaited after each run of the signal worker's actor (before a retry is delivered): the trader's edits between. */
  afterAct?: () => Promise<void>;
  /** A second signal worker "container" (its own caches), to deliver a queue message again. */
  redeliver: ReturnType<typeof createSignalWork>;
  /** A plan engine of its own through the proxy: the watcher run the model kills. */
  engine: PlanEngine;
  store: PlanStore;
  /** Every broker order's remarks as it was created (a change rewrites them): who placed it, ever. */
  origins: Map<string, string>;
  /** How many requests of each broker operation have arrived (the last segment of the path). */
  arrivals: Record<string, number>;
  close(): Promise<void>;
}

const silent = () => new Logger({ serviceName: 'system-model', logLevel: 'SILENT' });

/** The function set with the settings the model assumes; the place functions' DynamoDB goes through the proxy. */
export const startWorld = async (): Promise<World> => {
  const proxy = await startDynamoFaultProxy();
  const holder: { world?: World; actor?: SignalActor } = {};
  // The signal worker's actor: the real one (through the proxy), killed at a short deadline when the model says so.
  const actor: SignalActor = async (signal, strategy, deadline) => {
    const world = holder.world!;
    const act = (holder.actor ??= createSignalActor(killable(world.stack.config, proxy), silent()));
    if (!world.killNextActor)
      try {
        return await act(signal, strategy, deadline);
      } finally {
        await world.afterAct?.();
      }
    world.killNextActor = false;
    world.killOnWrite = true;
    const killedAt = Math.min(deadline, Date.now() + KILLED_DEADLINE_MS);
    try {
      await act(signal, strategy, killedAt);
      // The invocation lasts until its deadline, when it is killed: nothing after it happens (the signal is not
      // completed), and the queue delivers the message again once its visibility timeout has passed.
      await sleep(killedAt - Date.now());
    } finally {
      world.killOnWrite = false;
      proxy.revive();
    }
    throw new Error('the signal worker was killed at its deadline');
  };
  const settings = { ...HIGH_ORDER_RATE, ORDER_LATE_WINDOW_MS: LATE_WINDOW_MS } as GatewaySettings;
  const stack = await startLocalStack({
    brokerTimeoutMs: BROKER_TIMEOUT_MS,
    settings,
    overrides: { PlaceGTTOrder: { DYNAMODB_ENDPOINT: proxy.url }, PlaceOCOOrder: { DYNAMODB_ENDPOINT: proxy.url } },
    signals: { actor, retryDelayMs: 700 },
  });
  proxy.target = stack.dynamo.url;
  const emulator = stack.emulator.emulator;
  const handle = emulator.handle.bind(emulator);
  const world: World = {
    stack,
    proxy,
    control: countedFaults(emulatorControl(stack.emulator.url)),
    killOnWrite: false,
    killNextActor: false,
    redeliver: createSignalWork({ settings: stack.config, logger: silent() }),
    engine: createPlanEngine(killable(stack.config, proxy), silent()),
    store: new PlanStore({
      tableName: String(stack.config.EVENTS_TABLE_NAME),
      endpoint: String(stack.config.DYNAMODB_ENDPOINT),
    }),
    origins: new Map(),
    arrivals: {},
    close: async () => {
      emulator.handle = handle;
      await stack.close();
      await proxy.close();
    },
  };
  // The moment a write reaches the broker, the armed process dies: nothing it writes from then on lands.
  emulator.handle = (req) => {
    const operation = req.path.split('?')[0]!.split('/').filter(Boolean).at(-1) ?? '';
    world.arrivals[operation] = (world.arrivals[operation] ?? 0) + 1;
    if (world.killOnWrite && WRITE_PATH.test(req.path.split('?')[0]!)) {
      world.killOnWrite = false;
      proxy.kill();
    }
    return handle(req);
  };
  // An order's remarks as the broker first held them: the place's tag and stamp, whatever a change does to them.
  const orders = emulator.state.orders;
  const set = orders.set.bind(orders);
  orders.set = (alId, order) => {
    if (!orders.has(alId)) world.origins.set(alId, order.remarks);
    return set(alId, order);
  };
  holder.world = world;
  return world;
};

const killable = (config: GatewaySettings, proxy: DynamoFaultProxy): GatewaySettings => ({
  ...config,
  DYNAMODB_ENDPOINT: proxy.url,
});

/** The demo session back in the secret (a reset ends every other token), as a login writes it. */
export const restoreSession = (stack: LocalStack): void =>
  stack.secrets.setSecret(
    LOCAL_SECRET_ID,
    JSON.stringify({ accessToken: stack.emulator.token, uid: stack.emulator.uid, actid: stack.emulator.actid }),
  );

/** What an answer says of the broker: acted (ok), maybe (unknown), another attempt still in flight, or not acted. */
/** `undone`: the broker acted and the gateway cancelled it at once (an order that landed with the kill switch on). */
export type Verdict = 'ok' | 'unknown' | 'in_flight' | 'not_executed' | 'undone';

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  verdict: Verdict;
  code?: string;
  replayed: boolean;
  alId?: string;
}

type ErrorBody = { error?: { code?: string; outcome?: string } };

/** The verdict of a reply: the error contract's `outcome` when it says one, else by status. */
export const answerOf = (status: number, body: Record<string, unknown>): Answer => {
  const error = (body as ErrorBody).error;
  const code = error?.code ?? (status >= 300 ? `HTTP_${status}` : undefined);
  const verdict: Verdict =
    status < 300
      ? 'ok'
      : code === 'IDEMPOTENCY_IN_PROGRESS'
        ? 'in_flight'
        : error?.outcome === 'unknown'
          ? 'unknown'
          : error?.outcome === 'undone'
            ? 'undone'
            : error?.outcome === 'not_executed'
              ? 'not_executed'
              : status >= 500
                ? 'unknown'
                : 'not_executed';
  const idem = body.idempotency as { replayed?: boolean } | undefined;
  return {
    status,
    body,
    verdict,
    ...(code ? { code } : {}),
    replayed: idem?.replayed === true || body.replayed === true,
    ...(typeof body.al_id === 'string' ? { alId: body.al_id } : {}),
  };
};

/** Counts over every sequence run in this process (printed by scripts/system-model.ts). */
export const systemStats = {
  sequences: 0,
  steps: 0,
  kinds: {} as Record<string, number>,
  codes: {} as Record<string, number>,
  verdicts: {} as Record<string, number>,
  /** Faults armed at the broker, by operation and kind (`PlaceGTTOrder delay`, `GetPendingGTTOrder http5xx`). */
  faults: {} as Record<string, number>,
};
const bump = (counts: Record<string, number>, key: string) => (counts[key] = (counts[key] ?? 0) + 1);
export const countKind = (kind: string): void => void bump(systemStats.kinds, kind);

/** The emulator's control, each fault armed counted in `systemStats.faults`. */
const countedFaults = (control: EmulatorControl): EmulatorControl => ({
  ...control,
  fault: (spec) => {
    bump(
      systemStats.faults,
      `${spec.operation} ${spec.kind}${spec.executed ? ' acted' : ''}${spec.late ? ' late' : ''}`,
    );
    return control.fault(spec);
  },
});

/** One request to the local API; a connection that fails is an unknown outcome. */
export const request = async (
  w: World,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> => {
  let answer: Answer;
  if (process.env.SYSTEM_MODEL_LIVE) console.log(`${new Date().toISOString()}   ${method} ${path}`);
  try {
    const res = await fetch(`${w.stack.api.url}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    answer = answerOf(res.status, (text ? JSON.parse(text) : {}) as Record<string, unknown>);
    const etag = res.headers.get('etag');
    if (etag) answer.body.etag = etag;
  } catch (error) {
    answer = { status: 0, body: { error: String(error) }, verdict: 'unknown', code: 'NO_ANSWER', replayed: false };
  }
  bump(systemStats.verdicts, answer.verdict);
  if (answer.code) bump(systemStats.codes, answer.code);
  return answer;
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
