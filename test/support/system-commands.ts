/**
 * The system model's HTTP order commands (system-model.ts): places and OCO places with broker faults, the same key
 * again (after, or at once), PUT modifies, PATCHes with and without If-Match, two PATCHes of one order racing,
 * cancels, retries of writes whose outcome is open, and an order function killed mid-write (its broker call slow and
 * acted on late, its DynamoDB completion lost).
 */
import fc from 'fast-check';

import { placeGttOrder } from '../../functions/orders/operations.js';
import { lambdaContext } from '../../local/lambda-context.js';
import type { FaultSpec } from './emulator-control.js';
import { httpApiEvent } from './events.js';
import { checkResolved, fail } from './system-invariants.js';
import {
  applyChanges,
  type Changes,
  Command,
  type Intent,
  keyOf,
  late,
  newIntent,
  nextId,
  record,
  type Sys,
  tagOf,
  type Tracked,
  unresolved,
  windowPassed,
} from './system-state.js';
import { type Answer, answerOf, KILLED_DEADLINE_MS, request, SLOW_MS } from './system-world.js';

export type Fault = Omit<FaultSpec, 'operation'> | undefined;
/** What a broker write may meet: nothing (most often), an acted or lost request, a failure, a refusal, slowness. */
export const WRITE_FAULTS = fc.constantFrom<Fault>(
  undefined,
  undefined,
  undefined,
  { kind: 'drop', executed: true },
  { kind: 'drop', executed: false },
  { kind: 'http5xx' },
  { kind: 'notOk', message: 'RMS:Rule: Check circuit limit' },
  { kind: 'delay', delayMs: SLOW_MS, late: true },
);
export const faultLabel = (fault: Fault): string =>
  fault ? ` [${fault.kind}${fault.executed ? ' acted' : ''}${fault.late ? ' late' : ''}]` : '';

/** Runs `act` with `fault` on the broker's `operation`, cleared after; a slow broker may act until `lateUntil`. */
export const withFault = async (s: Sys, operation: string, fault: Fault, act: () => Promise<void>): Promise<void> => {
  const started = Date.now();
  if (fault) await s.w.control.fault({ operation, ...fault });
  try {
    await act();
  } finally {
    if (fault) await s.w.control.clearFaults();
    if (fault?.kind === 'delay') late(s, started, fault.delayMs ?? 0);
  }
};

const D = ['1480', '1485', '1490'] as const;
export const gttBody = (tag: string, qty: number, d: string) => ({
  exch: 'NSE',
  tsym: 'M&M-EQ',
  qty,
  prc: '1500',
  prd: 'C',
  trantype: 'B',
  prctyp: 'LMT',
  ret: 'DAY',
  ai_t: 'LTP_B_O',
  d,
  tag,
});
const ocoBody = (tag: string, qty: number) => ({
  exch: 'NSE',
  tsym: 'M&M-EQ',
  tag,
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty, prc: '1600', prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty, prc: '1400', prd: 'C' } },
});

/** Sends an intent (again) with its key and body. */
export const send = async (s: Sys, intent: Intent, what?: string): Promise<Answer> => {
  const started = Date.now();
  const a = await request(s.w, intent.method!, intent.path!, intent.body, intent.headers);
  record(s, intent, a, started, what);
  return a;
};

const placeIntent = (s: Sys, kind: 'gtt' | 'oco', qty: number, d: string): Intent => {
  const n = nextId();
  const tag = tagOf(n);
  const key = keyOf(n);
  return newIntent(s, {
    label: `${kind} ${tag}`,
    kind,
    key,
    tag,
    method: 'POST',
    path: kind === 'gtt' ? '/gtt-orders' : '/gtt-orders/oco',
    body: kind === 'gtt' ? gttBody(tag, qty, d) : ocoBody(tag, qty),
    headers: { 'Idempotency-Key': key },
  });
};

const pick = <T>(list: T[], i: number): T | undefined => (list.length ? list[i % list.length] : undefined);
/**
 * The order a change is sent to: one of the acknowledged orders still pending at the broker (all of them when none
 * is), or, when there is none, a single GTT placed for it first (a sequence's changes then rarely do nothing).
 */
const target = async (s: Sys, i: number, kinds: Tracked['kind'][] = ['gtt']): Promise<Tracked | undefined> => {
  const books = s.w.stack.emulator.emulator.state.orders;
  const mine = s.orders.filter((o) => kinds.includes(o.kind));
  const order =
    pick(
      mine.filter((o) => books.get(o.alId)?.state === 'pending'),
      i,
    ) ?? pick(mine, i);
  if (order) return order;
  const intent = placeIntent(s, 'gtt', 5, '1490');
  await send(s, intent);
  return s.orders.find((o) => o.alId === intent.alId);
};
const intentsOf = (s: Sys, kinds: Intent['kind'][]) => s.intents.filter((i) => kinds.includes(i.kind) && i.path);

const qty = fc.integer({ min: 1, max: 50 });

const place = fc
  .record({
    kind: fc.constantFrom<'gtt' | 'oco'>('gtt', 'gtt', 'oco'),
    qty,
    d: fc.constantFrom(...D),
    fault: WRITE_FAULTS,
  })
  .map(
    ({ kind, qty, d, fault }) =>
      new Command(kind === 'gtt' ? 'place' : 'place OCO', `place ${kind} x${qty}${faultLabel(fault)}`, (s) =>
        withFault(s, kind === 'gtt' ? 'PlaceGTTOrder' : 'PlaceOCOOrder', fault, async () => {
          await send(s, placeIntent(s, kind, qty, d));
        }),
      ),
  );

/** The same key and body again: after the first (a client's retry), or two at once (a double click). */
const repeat = fc.record({ i: fc.nat(), atOnce: fc.boolean(), qty, d: fc.constantFrom(...D) }).map(
  ({ i, atOnce, qty, d }) =>
    new Command('repeat key', atOnce ? `the same new key twice at once` : `repeat place #${i}`, async (s) => {
      if (atOnce) {
        const intent = placeIntent(s, 'gtt', qty, d);
        await Promise.all([send(s, intent, `${intent.label} (1)`), send(s, intent, `${intent.label} (2)`)]);
        return;
      }
      const intent = pick(intentsOf(s, ['gtt', 'oco']), i);
      if (intent) await send(s, intent, `again ${intent.label}`);
    }),
);

/** A change to one order: its intent (retried with its key when it has one), its answer, the model's expectations. */
const change = async (
  s: Sys,
  order: Tracked,
  how: { method: 'PUT' | 'PATCH'; body: Record<string, unknown>; changes: Changes; ifMatch?: string; key: boolean },
): Promise<{ changes: Changes; a: Answer }> => {
  const n = nextId();
  const intent = newIntent(s, {
    label: `${how.method} ${order.alId} ${JSON.stringify(how.changes)}${how.ifMatch ? ' If-Match' : ''}`,
    kind: 'modify',
    order,
    changes: how.changes,
    method: how.method,
    path: `/gtt-orders/${order.alId}`,
    body: how.body,
    headers: {
      ...(how.key ? { 'Idempotency-Key': keyOf(n) } : {}),
      ...(how.ifMatch ? { 'If-Match': how.ifMatch } : {}),
    },
    ...(how.key ? { key: keyOf(n) } : {}),
  });
  return { changes: how.changes, a: await send(s, intent) };
};

const etagOf = async (s: Sys, alId: string): Promise<string | undefined> => {
  const a = await request(s.w, 'GET', `/gtt-orders/${alId}`);
  return typeof a.body.etag === 'string' ? a.body.etag : undefined;
};

const modify = fc.record({ i: fc.nat(), qty, d: fc.constantFrom(...D), key: fc.boolean(), fault: WRITE_FAULTS }).map(
  ({ i, qty, d, key, fault }) =>
    new Command('modify (PUT)', `PUT #${i} x${qty} d${d}${key ? ' keyed' : ''}${faultLabel(fault)}`, async (s) => {
      const order = await target(s, i);
      if (!order) return;
      await withFault(s, 'ModifyGTTOrder', fault, async () => {
        const body = gttBody(order.tag, qty, d);
        applyChanges(order, [await change(s, order, { method: 'PUT', body, changes: { qty: String(qty), d }, key })]);
      });
    }),
);

const patchChanges = fc.oneof(
  qty.map((q): Changes => ({ qty: String(q) })),
  fc.constantFrom(...D).map((d): Changes => ({ d })),
  fc.record({ qty: qty.map(String), d: fc.constantFrom(...D) }),
);
const patchBody = (changes: Changes) => ({
  ...(changes.qty ? { qty: Number(changes.qty) } : {}),
  ...(changes.d ? { d: changes.d } : {}),
});

const patch = fc
  .record({ i: fc.nat(), changes: patchChanges, ifMatch: fc.boolean(), key: fc.boolean(), fault: WRITE_FAULTS })
  .map(
    ({ i, changes, ifMatch, key, fault }) =>
      new Command(
        ifMatch ? 'PATCH If-Match' : 'PATCH',
        `PATCH #${i} ${JSON.stringify(changes)}${ifMatch ? ' If-Match' : ''}${key ? ' keyed' : ''}${faultLabel(fault)}`,
        async (s) => {
          const order = await target(s, i);
          if (!order) return;
          const etag = ifMatch ? await etagOf(s, order.alId) : undefined;
          await withFault(s, 'ModifyGTTOrder', fault, async () => {
            const body = patchBody(changes);
            applyChanges(order, [await change(s, order, { method: 'PATCH', body, changes, key, ifMatch: etag })]);
          });
        },
      ),
  );

/** Two PATCHes of one order at once (the broker slow to modify, sometimes): never both 2xx under one If-Match. */
/** Two changes: half the time one to the quantity and one to the trigger (a lost update shows). */
const twoChanges = fc.oneof(
  fc.tuple(
    qty.map((q): Changes => ({ qty: String(q) })),
    fc.constantFrom(...D).map((d): Changes => ({ d })),
  ),
  fc.tuple(patchChanges, patchChanges),
);

const patchRace = fc.record({ i: fc.nat(), changes: twoChanges, ifMatch: fc.boolean(), slow: fc.boolean() }).map(
  ({ i, changes: [a, b], ifMatch, slow }) =>
    new Command(
      'two PATCHes at once',
      `two PATCHes of #${i} at once ${JSON.stringify(a)} ${JSON.stringify(b)}${ifMatch ? ' If-Match' : ''}${slow ? ' slow' : ''}`,
      async (s) => {
        const order = await target(s, i);
        if (!order) return;
        const etag = ifMatch ? await etagOf(s, order.alId) : undefined;
        if (slow) await s.w.control.fault({ operation: 'ModifyGTTOrder', kind: 'delay', delayMs: 400, times: 2 });
        const results = await Promise.all(
          [a, b].map((changes) =>
            change(s, order, { method: 'PATCH', body: patchBody(changes), changes, key: false, ifMatch: etag }),
          ),
        );
        if (slow) await s.w.control.clearFaults();
        applyChanges(order, results);
        if (etag && results.every((r) => r.a.verdict === 'ok'))
          fail(s, 4, `two PATCHes of ${order.alId} with the same If-Match ${etag} both answered 2xx`);
      },
    ),
);

const cancel = fc
  .record({
    i: fc.nat(),
    key: fc.boolean(),
    fault: WRITE_FAULTS,
  })
  .map(
    ({ i, key, fault }) =>
      new Command('cancel', `cancel #${i}${key ? ' keyed' : ''}${faultLabel(fault)}`, async (s) => {
        const order = await target(s, i, ['gtt', 'oco']);
        if (!order) return;
        const n = nextId();
        const intent = newIntent(s, {
          label: `cancel ${order.alId}`,
          kind: 'cancel',
          order,
          method: 'DELETE',
          path: `/gtt-orders/${order.alId}`,
          headers: key ? { 'Idempotency-Key': keyOf(n) } : {},
          ...(key ? { key: keyOf(n) } : {}),
        });
        await withFault(s, 'CancelGTTOrder', fault, async () => {
          await send(s, intent);
        });
      }),
  );

/** A write whose outcome is open, sent again with its key; once its late window has passed it must be answered. */
const retry = fc.nat().map(
  (i) =>
    new Command('retry open outcome', `retry open write #${i}`, async (s) => {
      const intent = pick(unresolved(s), i);
      if (!intent) return;
      const passed = windowPassed(intent);
      const a = await send(s, intent, `retry ${intent.label}`);
      if (passed) checkResolved(s, intent, a);
    }),
);

/**
 * An order function killed mid-write, invoked with a short deadline: its broker call slow and acted on late (or at
 * once, or never), and/or its DynamoDB writes from the broker call on never landing. Its caller hears nothing.
 */
const killedPlace = fc
  .record({ qty, broker: fc.constantFrom('late', 'acted', 'never'), lost: fc.boolean() })
  .filter(({ broker, lost }) => lost || broker !== 'acted')
  .map(
    ({ qty, broker, lost }) =>
      new Command(
        'killed order function',
        `place killed mid-write (broker ${broker}, completion ${lost ? 'lost' : 'kept'})`,
        async (s) => {
          const intent = placeIntent(s, 'gtt', qty, '1490');
          const fault: Fault =
            broker === 'acted'
              ? undefined
              : { kind: 'delay', delayMs: SLOW_MS, ...(broker === 'late' ? { late: true } : {}) };
          const started = Date.now();
          await withFault(s, 'PlaceGTTOrder', fault, async () => {
            s.w.killOnWrite = lost;
            try {
              const event = httpApiEvent(placeGttOrder, {
                body: intent.body,
                headers: { 'idempotency-key': intent.key! },
              });
              const handler = s.w.stack.handlers.get('PlaceGTTOrder')!;
              const res = (await handler(event, lambdaContext('PlaceGTTOrder', KILLED_DEADLINE_MS))) as {
                statusCode: number;
                body: string;
              };
              s.log.push(
                `(the killed function would have answered ${res.statusCode} ${answerOf(res.statusCode, JSON.parse(res.body) as Record<string, unknown>).code ?? ''})`,
              );
            } finally {
              s.w.killOnWrite = false;
              s.w.proxy.revive();
            }
          });
          // The caller never heard: the outcome is unknown from the moment it was sent.
          record(s, intent, { status: 0, body: {}, verdict: 'unknown', code: 'KILLED', replayed: false }, started);
          late(s, started, SLOW_MS);
        },
      ),
  );

export const orderCommands = { place, repeat, modify, patch, patchRace, cancel, retry, killedPlace };
