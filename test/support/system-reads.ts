/**
 * The system model's reads and other ways in that change no order (system-model.ts): every read route of the
 * manifest, sometimes with a fault on the broker's read behind it (the pending and triggered lists, quotes, the
 * order book), each answer checked against the route's own result schema (functions/manifest) or, when it is an
 * error, for the error contract (a code and a message, never a crash); a plan cancelled (`DELETE /plans/{planId}`);
 * and the scheduled functions run as their schedule runs them (`/_local/run/<Function>`: the signal worker's sweep,
 * the session health check, the instrument refresh).
 */
import fc from 'fast-check';

import { ROUTES } from '../../functions/manifest/index.js';
import { type Fault, faultLabel, withFault } from './system-orders.js';
import { Command, type Sys } from './system-state.js';
import { type Answer, request } from './system-world.js';

/** What a broker read may meet. */
export const READ_FAULTS = fc.constantFrom<Fault>(
  undefined,
  undefined,
  { kind: 'http5xx' },
  { kind: 'drop' },
  { kind: 'nonJson' },
  { kind: 'rateLimit' },
  { kind: 'delay', delayMs: 2_300 },
);

/** The read routes the model calls, with the broker read behind each (faulted sometimes) and a path for it. */
export const READS: { route: string; broker?: string; path: (s: Sys) => string | undefined }[] = [
  { route: 'GET /gtt-orders', broker: 'GetPendingGTTOrder', path: () => '/gtt-orders' },
  { route: 'GET /gtt-orders/{alId}', broker: 'GetPendingGTTOrder', path: (s) => orderPath(s) },
  { route: 'GET /gtt-orders/triggered', broker: 'GetTrgOi', path: () => '/gtt-orders/triggered' },
  { route: 'GET /gtt-orders/enabled', broker: 'GetEnabledGTTs', path: () => '/gtt-orders/enabled' },
  { route: 'GET /client', broker: 'ClientDetails', path: () => '/client' },
  { route: 'GET /orders', broker: 'OrderBook', path: () => '/orders' },
  { route: 'GET /positions', broker: 'PositionBook', path: () => '/positions' },
  { route: 'GET /positions/coverage', broker: 'PositionBook', path: () => '/positions/coverage' },
  { route: 'GET /quotes', broker: 'GetQuotes', path: () => '/quotes?exch=NSE&tsym=M%26M-EQ' },
  { route: 'GET /options', broker: 'GetQuotes', path: () => '/options?underlying=NIFTY' },
  { route: 'GET /quotes/series', broker: 'TPSeries', path: () => '/quotes/series?exch=NSE&tsym=M%26M-EQ&interval=5' },
  { route: 'GET /session', path: () => '/session' },
  { route: 'GET /kill-switch', path: () => '/kill-switch' },
  { route: 'GET /risk', path: () => '/risk' },
  { route: 'GET /events', path: () => '/events' },
  { route: 'GET /plans', path: () => '/plans' },
  { route: 'GET /plans/{planId}', path: (s) => planPath(s) },
  { route: 'GET /strategies', path: () => '/strategies' },
  { route: 'GET /strategies/{strategyId}', path: (s) => s.strategy && `/strategies/${s.strategy.strategyId}` },
  { route: 'GET /signals', path: () => '/signals' },
  { route: 'GET /signals/{id}', path: (s) => signalPath(s) },
];

const orderPath = (s: Sys) => {
  const ids = [...s.w.stack.emulator.emulator.state.orders.keys()];
  return ids.length ? `/gtt-orders/${ids[ids.length - 1]}` : undefined;
};
const planPath = (s: Sys) => {
  const plans = s.intents.filter((i) => i.planId && i.verdicts.includes('ok'));
  return plans.length ? `/plans/${plans[plans.length - 1]!.planId}` : undefined;
};
const signalPath = (s: Sys) => {
  const alerts = s.intents.filter((i) => i.signalId);
  return alerts.length ? `/signals/${alerts[alerts.length - 1]!.signalId}` : undefined;
};

const schemaOf = (route: string) => ROUTES.find(({ route: r }) => `${r.method} ${r.path}` === route)?.route;

/** A read's answer: the route's result as its schema says, or the error contract (code, message); never a crash. */
const checkRead = (route: string, a: Answer): string | undefined => {
  const { etag: _etag, ...body } = a.body;
  if (a.status >= 200 && a.status < 300) {
    const parsed = schemaOf(route)!.result.safeParse(body);
    return parsed.success ? undefined : `answered ${a.status} not in its result's shape: ${parsed.error.message}`;
  }
  const error = body.error as { code?: unknown; message?: unknown } | undefined;
  if (a.status === 0) return 'no answer';
  if (typeof error?.code !== 'string' || typeof error.message !== 'string' || !error.message)
    return `answered ${a.status} without the error contract: ${JSON.stringify(body).slice(0, 200)}`;
  return a.status >= 500 && error.code === 'INTERNAL_ERROR' ? `crashed: ${error.message}` : undefined;
};

const read = fc.record({ i: fc.nat({ max: READS.length - 1 }), fault: READ_FAULTS }).map(({ i, fault }) => {
  const r = READS[i]!;
  const faulted = r.broker ? fault : undefined;
  return new Command(`read ${r.route}`, `${r.route}${faultLabel(faulted)}`, async (s) => {
    const path = r.path(s);
    if (!path) return;
    await withFault(s, r.broker ?? '', faulted, async () => {
      const a = await request(s.w, 'GET', path);
      s.log.push(`  ${path}: ${a.status}${a.code ? ` ${a.code}` : ''}`);
      const wrong = checkRead(r.route, a);
      if (wrong) throw new Error(`GET ${path}${faultLabel(faulted)} ${wrong}`);
    });
  });
});

/** A plan cancelled by the trader (its live GTT cancelled at the broker, the plan ended). */
const cancelPlan = fc.nat().map(
  (i) =>
    new Command('cancel plan', `cancel plan #${i}`, async (s) => {
      const plans = s.intents.filter((x) => x.planId && x.verdicts.includes('ok'));
      const plan = plans.length ? plans[i % plans.length] : undefined;
      if (!plan) return;
      // The trader's own cancel: the plan's exits a keep-exits switch kept may go now (invariant 6).
      for (const [alId, kept] of s.kept) {
        const g = s.w.stack.emulator.emulator.state.orders.get(alId);
        if (g?.remarks?.startsWith(`${plan.planId}.`)) kept.released = true;
      }
      const a = await request(s.w, 'DELETE', `/plans/${plan.planId}`);
      s.log.push(`  DELETE /plans/${plan.planId}: ${a.status}${a.code ? ` ${a.code}` : ''}`);
      if (a.status >= 500 && a.code === 'INTERNAL_ERROR') throw new Error(`DELETE /plans crashed: ${a.code}`);
    }),
);

export const SCHEDULED = ['SignalWorker', 'SessionHealth', 'InstrumentRefresh'] as const;
/** A scheduled function run as its schedule runs it (its schedule's payload). */
const scheduled = fc.constantFrom(...SCHEDULED).map(
  (name) =>
    new Command(`scheduled ${name}`, `scheduled run of ${name}`, async (s) => {
      const a = await request(s.w, 'POST', `/_local/run/${name}`);
      s.log.push(`  ${name}: ${a.status}${a.code ? ` ${a.code}` : ''}`);
      if (a.status === 0 || (a.status >= 500 && a.code === 'INTERNAL_ERROR'))
        throw new Error(`the scheduled ${name} crashed: ${a.status} ${JSON.stringify(a.body).slice(0, 200)}`);
    }),
);

export const readCommands = { read, cancelPlan, scheduled };
