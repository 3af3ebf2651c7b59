/**
 * The system model's other actors (system-model.ts): signal alerts to the sequence's strategy (new, duplicated, the
 * queue's message delivered again, a worker killed mid-place), plans and watcher runs (one killed mid-write, a read
 * of quotes or the broker's lists failing in one), logout and login, the market (prices, fills, the close), and an
 * order the trader places outside the gateway. The kill switch and the trader's edits of plans: system-halts.ts.
 */
import fc from 'fast-check';

import { planIdOf } from '../../functions/plans/stamps.js';
import { jdata } from '../contract/jdata-client.js';
import { ordersOf, OUTSIDE } from './system-invariants.js';
import { armRead, type Fault, faultLabel, READ_FAULTS, readLabel, withFault, WRITE_FAULTS } from './system-orders.js';
import { Command, type Intent, keyOf, late, newIntent, nextId, record, type Sys } from './system-state.js';
import { answerOf, request, SLOW_MS, WRITE_BOUND_MS } from './system-world.js';
import { wireGtt } from './wire-order.js';

const PRICES = [1350, 1395, 1450, 1485, 1500, 1560, 1605, 1650] as const;
const SYMBOLS = ['M&M-EQ', 'SBIN-EQ'] as const;

/** The sequence's strategy: one GTT per alert on the alert's side, 1% below its price (a buy's trigger and limit). */
export const createStrategy = async (s: Sys): Promise<void> => {
  const body = {
    name: 'system-model',
    source: 'generic',
    action: {
      kind: 'gtt',
      order: { exch: 'NSE', prd: 'C', qty: 1 },
      trigger: { offset: '-1%' },
      price: { offset: '-1%' },
    },
    ratePerMinute: 600,
  };
  const a = await request(s.w, 'POST', '/strategies', body, { 'Idempotency-Key': keyOf(nextId()) });
  if (a.status !== 201) throw new Error(`POST /strategies: ${a.status} ${JSON.stringify(a.body)}`);
  s.strategy = { strategyId: String(a.body.strategyId), webhookUrl: String(a.body.webhookUrl) };
};

/** Posts an alert to the strategy's webhook; the worker has acted (or given up) when it returns. */
const post = async (s: Sys, alert: string, what: string) => {
  const res = await fetch(s.strategy!.webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: alert,
  });
  const a = answerOf(res.status, (await res.json()) as Record<string, unknown>);
  await s.w.stack.signalQueue.drained();
  s.log.push(`${what}: ${a.status}${a.code ? ` ${a.code}` : ''}`);
  return a;
};

/** A new alert; its order is the one of the signal symbol with its (unique) quantity. */
const newAlert = (s: Sys) => {
  const n = nextId();
  const qty = 700 + (s.alerts++ % 290);
  const alert = JSON.stringify({ action: 'buy', symbol: 'SBIN', exchange: 'NSE', price: 1500, qty, id: `a${n}` });
  return newIntent(s, { label: `alert a${n} x${qty}`, kind: 'signal', qty, alert });
};

const alert = WRITE_FAULTS.map(
  (fault) =>
    new Command('signal alert', `alert${faultLabel(fault)}`, (s) =>
      withFault(s, 'PlaceGTTOrder', fault, async () => {
        const intent = newAlert(s);
        const a = await post(s, intent.alert!, intent.label);
        if (typeof a.body.signalId === 'string') intent.signalId = a.body.signalId;
        held(s, intent);
      }),
    ),
);

/** The trace says what the broker holds for an alert once its worker is done. */
const held = (s: Sys, intent: Intent) => {
  const orders = ordersOf(s, intent);
  s.log.push(
    `  broker holds for ${intent.label}: ${orders.map((g) => `${g.al_id} ${g.state}`).join(', ') || 'nothing'}`,
  );
};

const pickAlert = (s: Sys, i: number) => {
  const alerts = s.intents.filter((x) => x.kind === 'signal' && x.signalId);
  return alerts.length ? alerts[i % alerts.length] : undefined;
};

const duplicate = fc.nat().map(
  (i) =>
    new Command('duplicate alert', `alert #${i} again`, async (s) => {
      const intent = pickAlert(s, i);
      if (intent) await post(s, intent.alert!, `again ${intent.label}`);
    }),
);

/** The queue delivers a signal's message again, to another worker container. */
const redeliver = fc.nat().map(
  (i) =>
    new Command('queue redelivery', `message of alert #${i} delivered again`, async (s) => {
      const intent = pickAlert(s, i);
      const message = s.w.stack.signalQueue.sent.find((m) => m.body.includes(`"${intent?.signalId}"`));
      if (!intent || !message) return;
      const outcome = await s.w
        .redeliver(JSON.parse(message.body) as { signalId: string; strategyId: string }, Date.now() + 10_000)
        .catch((error: unknown) => `failed: ${(error as Error).message}`);
      s.log.push(`redelivered ${intent.label}: ${outcome}`);
    }),
);

/** The worker's run killed at a short deadline while its place is at the broker; the queue delivers it again. */
const killedWorker = fc.constantFrom<Fault>({ kind: 'delay', delayMs: SLOW_MS, late: true }, undefined).map(
  (fault) =>
    new Command(
      'killed signal worker',
      `alert, its worker killed mid-place${faultLabel(fault) || ' [acted]'}`,
      async (s) => {
        const started = Date.now();
        await withFault(s, 'PlaceGTTOrder', fault, async () => {
          s.w.killNextActor = true;
          const intent = newAlert(s);
          const a = await post(s, intent.alert!, intent.label);
          if (typeof a.body.signalId === 'string') intent.signalId = a.body.signalId;
          s.w.killNextActor = false;
          held(s, intent);
        });
        late(s, started, SLOW_MS);
      },
    ),
);

export const bracketInput = (tsym: string, qty: number) => ({
  kind: 'bracket',
  entry: {
    exch: 'NSE',
    tsym,
    qty,
    prc: '1500',
    prd: 'C',
    trantype: 'B',
    prctyp: 'LMT',
    ret: 'DAY',
    ai_t: 'LTP_B_O',
    d: '1490',
  },
  target: { trigger: '1600', price: '1600' },
  stopLoss: { trigger: '1400', price: '1400' },
});
export const trailingInput = (tsym: string) => ({
  kind: 'trailing-stop',
  order: {
    exch: 'NSE',
    tsym,
    qty: 1,
    prc: '1395',
    prd: 'C',
    trantype: 'S',
    prctyp: 'LMT',
    ret: 'DAY',
    ai_t: 'LTP_B_O',
    d: '1400',
  },
  trailBy: '100',
  step: '5',
});

const plan = fc
  .record({
    kind: fc.constantFrom('bracket', 'bracket', 'trailing'),
    tsym: fc.constantFrom(...SYMBOLS),
    qty: fc.constantFrom(2, 10),
  })
  .map(
    ({ kind, tsym, qty }) =>
      new Command('plan', `${kind} plan ${tsym}${kind === 'bracket' ? ` x${qty}` : ''}`, async (s) => {
        const key = keyOf(nextId());
        const body = kind === 'bracket' ? bracketInput(tsym, qty) : trailingInput(tsym);
        const planId = planIdOf(key);
        const intent = newIntent(s, { label: `plan ${planId}`, kind: 'plan', key, planId });
        record(s, intent, await request(s.w, 'POST', '/plans', body, { 'Idempotency-Key': key }), Date.now());
      }),
  );

const RUN_WRITES = ['PlaceOCOOrder', 'PlaceOCOOrder', 'ModifyGTTOrder', 'PlaceGTTOrder', 'CancelGTTOrder'] as const;

const watcherRun = fc.record({ operation: fc.constantFrom(...RUN_WRITES), fault: WRITE_FAULTS, read: READ_FAULTS }).map(
  ({ operation, fault, read }) =>
    new Command(
      'watcher run',
      `watcher run${fault ? ` with ${operation}` : ''}${faultLabel(fault)}${readLabel(read)}`,
      (s) =>
        withFault(s, operation, fault, async () => {
          await armRead(s, read);
          // The stack's own scheduled watcher (and the plans' steps it runs), one run.
          const run = await s.w.stack.watch().then(
            () => 'ok',
            (error: unknown) => `failed: ${(error as Error).message}`,
          );
          s.log.push(`watcher: ${run}`);
        }),
    ),
);

/** A watcher run killed at its deadline while one broker write is slow (acted at once, late, or never). */
const killedRun = fc
  .record({ operation: fc.constantFrom(...RUN_WRITES), mode: fc.constantFrom('executed', 'late', 'never') })
  .map(
    ({ operation, mode }) =>
      new Command('killed watcher run', `watcher run killed (${operation} slow, ${mode})`, async (s) => {
        const fault: Fault = {
          kind: 'delay',
          delayMs: SLOW_MS,
          ...(mode === 'executed' ? { executed: true } : mode === 'late' ? { late: true } : {}),
        };
        await withFault(s, operation, fault, async () => {
          s.w.killOnWrite = true;
          try {
            await s.w.engine.advance(Date.now() + 1_800).catch(() => undefined);
          } finally {
            s.w.killOnWrite = false;
            s.w.proxy.revive();
          }
        });
      }),
  );

const logout = fc.constantFrom('POST /session/logout', 'end-of-day logout').map(
  (how) =>
    new Command('logout', how, async (s) => {
      const at = Date.now();
      const a = await request(
        s.w,
        'POST',
        how === 'end-of-day logout' ? '/_local/run/SessionLogout' : '/session/logout',
      );
      s.log.push(`${how}: ${a.status}${a.code ? ` ${a.code}` : ''}`);
      if (a.verdict !== 'ok') return;
      // A write already on its way when the logout began may still arrive: only while something could be in flight.
      const allowUntil = s.lateUntil > at ? at + WRITE_BOUND_MS : at;
      s.loggedOut ??= { at, allowUntil };
    }),
);

const login = fc.constant(
  new Command('login', 'login (OAuth)', async (s) => {
    await s.w.stack.renew();
    s.loggedOut = undefined;
  }),
);

const ltp = fc.record({ tsym: fc.constantFrom(...SYMBOLS), price: fc.constantFrom(...PRICES) }).map(
  ({ tsym, price }) =>
    new Command('market move', `ltp ${tsym} ${price}`, async (s) => {
      await s.w.control.ltp('NSE', tsym, price);
    }),
);

const fills = fc
  .oneof(
    fc.constantFrom({ status: 'filled' }, { status: 'rejected' }, { status: 'open' }, { status: 'cancelled' }),
    fc.integer({ min: 1, max: 9 }).map((fillQty) => ({ status: 'partial', fillQty })),
    fc.constant({ status: 'close' }),
  )
  .map(
    (outcome) =>
      new Command(
        'fill',
        outcome.status === 'close' ? 'market close' : `next fill ${JSON.stringify(outcome)}`,
        async (s) => {
          if (outcome.status === 'close') await s.w.control.close();
          else
            await fetch(`${s.w.stack.emulator.url}/_emulator/next-order`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(outcome),
            });
        },
      ),
  );

/** The trader's own app places an order straight at the broker (a session of its own). */
const outside = fc.constant(
  new Command('outside order', 'order placed outside the gateway', async (s) => {
    const { emulator } = s.w.stack;
    const { token } = await s.w.control.newSession(emulator.uid);
    const fields = wireGtt({ tsym: 'TCS-EQ', qty: '3', prc: '4000', d: '3990', remarks: OUTSIDE }, emulator);
    const reply = await jdata(emulator.url, 'PlaceGTTOrder', fields, token);
    s.log.push(`outside: ${JSON.stringify(reply.body)}`);
  }),
);

export const otherCommands = {
  alert,
  duplicate,
  redeliver,
  killedWorker,
  plan,
  watcherRun,
  killedRun,
  logout,
  login,
  ltp,
  fills,
  outside,
};
