/**
 * The system model's order vocabulary (system-commands.ts, system-changes.ts, system-halts.ts): broker faults on
 * writes and reads, order bodies, places tagged and keyed every way, the order a change is sent to, changes (PUT or
 * PATCH, single or OCO) and cancels sent with invariant 7 checked when they answer "not executed" alone.
 */
import fc from 'fast-check';

import { stampOf } from '../../functions/base/broker/order-stamps.js';
import type { FaultSpec } from './emulator-control.js';
import { checkNoEffect, snapshotOf } from './system-invariants.js';
import {
  type Changes,
  type Intent,
  keyOf,
  late,
  newIntent,
  nextId,
  record,
  type Sys,
  TAG_CLASSES,
  type TagClass,
  tagIn,
  tagOf,
  type Tracked,
} from './system-state.js';
import { type Answer, request, SLOW_MS } from './system-world.js';

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

/** A failing read of the broker's books, now and then, alongside a write: the pending list, fired GTTs, quotes. */
export type ReadFault = FaultSpec | undefined;
export const READ_FAULTS = fc.oneof(
  { weight: 3, arbitrary: fc.constant<ReadFault>(undefined) },
  fc.record({
    operation: fc.constantFrom('GetPendingGTTOrder', 'GetPendingGTTOrder', 'GetTrgOi', 'GetQuotes'),
    kind: fc.constantFrom<FaultSpec['kind']>('http5xx', 'drop', 'serverTimeout', 'delay'),
    times: fc.integer({ min: 1, max: 3 }),
  }),
);
export const readLabel = (fault: ReadFault): string =>
  fault ? ` [read ${fault.operation} ${fault.kind} x${fault.times}]` : '';
/** Arms a read fault (with a delay past the broker timeout); `withFault`'s clear ends it. */
export const armRead = async (s: Sys, fault: ReadFault): Promise<void> => {
  if (fault) await s.w.control.fault({ ...fault, ...(fault.kind === 'delay' ? { delayMs: SLOW_MS } : {}) });
};

/** Runs `act` with `fault` on the broker's `operation`, cleared after; a slow broker may act until `lateUntil`. */
export const withFault = async (s: Sys, operation: string, fault: Fault, act: () => Promise<void>): Promise<void> => {
  const started = Date.now();
  if (fault) await s.w.control.fault({ operation, ...fault });
  try {
    await act();
  } finally {
    await s.w.control.clearFaults();
    if (fault?.kind === 'delay') late(s, started, fault.delayMs ?? 0);
  }
};

export const D = ['1480', '1485', '1490'] as const;
export const gttBody = (tag: string | undefined, qty: number, d: string) => ({
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
  ...(tag === undefined ? {} : { tag }),
});
export const ocoBody = (tag: string | undefined, qty: number) => ({
  exch: 'NSE',
  tsym: 'M&M-EQ',
  ...(tag === undefined ? {} : { tag }),
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty, prc: '1600', prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty, prc: '1400', prd: 'C' } },
});

/** Sends an intent (again) with its key and body. */
export const send = async (s: Sys, intent: Intent, what?: string): Promise<Answer> => {
  const started = Date.now();
  s.sends = (s.sends ?? 0) + 1;
  intent.sentAt = s.sends;
  const a = await request(s.w, intent.method!, intent.path!, intent.body, intent.headers);
  record(s, intent, a, started, what);
  return a;
};

/** How a place is tagged and keyed (the model's own tag `sm:NNNNNNN`, keyed, by default). */
export interface PlaceHow {
  tagClass?: TagClass;
  length?: number;
  stampish?: string;
  key?: boolean;
}
export const PLACE_HOW = fc.record({
  tagClass: fc.oneof({ weight: 4, arbitrary: fc.constant<TagClass>('short') }, fc.constantFrom(...TAG_CLASSES)),
  length: fc.integer({ min: 27, max: 40 }),
  stampish: fc.stringMatching(/^[0-9a-v]{10}$/),
  // A place needs a key (a keyless one is refused): now and then, to see it refused and nothing sent.
  key: fc.oneof({ weight: 6, arbitrary: fc.constant(true) }, fc.constant(false)),
});
export const howLabel = ({ tagClass = 'short', key = true }: PlaceHow): string =>
  `${tagClass === 'short' ? '' : ` tag ${tagClass}`}${key ? '' : ' no key'}`;

export const placeIntent = (s: Sys, kind: 'gtt' | 'oco', qty: number, d: string, how: PlaceHow = {}): Intent => {
  const n = nextId();
  const tag = tagIn(how.tagClass ?? 'short', n, how.length ?? 30, how.stampish ?? '0123456789');
  const key = how.key === false ? undefined : keyOf(n);
  const operation = kind === 'gtt' ? 'PlaceGTTOrder' : 'PlaceOCOOrder';
  const tagged = tag !== undefined && tag !== '';
  return newIntent(s, {
    label: `${kind} ${tagged ? tagOf(n) : `#${n} tag ${JSON.stringify(tag) ?? 'none'}`}${key ? '' : ' (no key)'}`,
    kind,
    ...(key ? { key, headers: { 'Idempotency-Key': key } } : { headers: {} }),
    ...(tagged ? { tag: tagOf(n) } : key ? { stamp: stampOf(operation, key) } : {}),
    ...(key && tagged && tag.length + 14 > 40 ? { unstamped: true } : {}),
    method: 'POST',
    path: kind === 'gtt' ? '/gtt-orders' : '/gtt-orders/oco',
    body: kind === 'gtt' ? gttBody(tag, qty, d) : ocoBody(tag, qty),
  });
};

export const pick = <T>(list: T[], i: number): T | undefined => (list.length ? list[i % list.length] : undefined);
/**
 * The order a change is sent to: one of the acknowledged orders still pending at the broker (all of them when none
 * is), or, when there is none, a single GTT placed for it first (a sequence's changes then rarely do nothing).
 */
export const target = async (
  s: Sys,
  i: number,
  kinds: Tracked['kind'][] = ['gtt'],
  cancel = false,
): Promise<Tracked | undefined> => {
  const books = s.w.stack.emulator.emulator.state.orders;
  // Not cancelled by hand while its place is open: a retry of that place then places it again (a documented limit).
  const mine = s.orders.filter(
    (o) => kinds.includes(o.kind) && !(cancel && o.placeOpen && !o.placeOpen.verdicts.includes('ok')),
  );
  const order =
    pick(
      mine.filter((o) => books.get(o.alId)?.state === 'pending'),
      i,
    ) ?? pick(mine, i);
  if (order) return order;
  const intent = placeIntent(s, kinds[0]!, 5, '1490');
  await send(s, intent);
  return s.orders.find((o) => o.alId === intent.alId);
};

export const qty = fc.integer({ min: 1, max: 50 });

/** How one change is sent: PUT or PATCH, of a single GTT or an OCO, with a key and an If-Match or not. */
export interface ChangeHow {
  method: 'PUT' | 'PATCH';
  body: Record<string, unknown>;
  changes: Changes;
  ifMatch?: string | undefined;
  key: boolean | string;
  /** Sent alongside another write of the order (a race): its "not executed" is not checked alone. */
  concurrent?: boolean;
}

/** Whether nothing the model began earlier may still land at the broker (then only this command touches orders). */
export const quiet = (s: Sys): boolean => s.lateUntil < Date.now();

/**
 * A change to one order: its intent (retried with its key when it has one), its answer, the model's expectations.
 * Answered "not executed" while nothing else could touch the order, the order must be as it was (invariant 7).
 */
export const changeIntent = (s: Sys, order: Tracked, how: ChangeHow): Intent => {
  const key = typeof how.key === 'string' ? how.key : how.key ? keyOf(nextId()) : undefined;
  const oco = order.kind === 'oco' ? 'oco/' : '';
  return newIntent(s, {
    label: `${how.method} ${oco}${order.alId} ${JSON.stringify(how.changes)}${how.ifMatch ? ' If-Match' : ''}${key ? ' keyed' : ''}`,
    kind: 'modify',
    order,
    changes: how.changes,
    method: how.method,
    path: `/gtt-orders/${oco}${order.alId}`,
    body: how.body,
    headers: { ...(key ? { 'Idempotency-Key': key } : {}), ...(how.ifMatch ? { 'If-Match': how.ifMatch } : {}) },
    ...(key ? { key } : {}),
  });
};
export const change = async (s: Sys, order: Tracked, how: ChangeHow): Promise<{ changes: Changes; a: Answer }> =>
  sendChecked(s, changeIntent(s, order, how), !how.concurrent).then((a) => ({ changes: how.changes, a }));

/** Sends a change or cancel; alone and answered "not executed", its order must be unchanged (invariant 7). */
export const sendChecked = async (s: Sys, intent: Intent, alone = true, what?: string): Promise<Answer> => {
  const alId = intent.order!.alId;
  const solo = alone && quiet(s);
  const before = snapshotOf(s, alId);
  const a = await send(s, intent, what);
  if (solo && a.verdict === 'not_executed') checkNoEffect(s, intent, alId, before);
  return a;
};

/** A PATCH of a single GTT: its quantity, its trigger, or both. */
export const patchChanges = fc.oneof(
  qty.map((q): Changes => ({ qty: String(q) })),
  fc.constantFrom(...D).map((d): Changes => ({ d })),
  fc.record({ qty: qty.map(String), d: fc.constantFrom(...D) }),
);
export const patchBody = (changes: Changes) => ({
  ...(changes.qty ? { qty: Number(changes.qty) } : {}),
  ...(changes.d ? { d: changes.d } : {}),
});

export const etagOf = async (s: Sys, alId: string): Promise<string | undefined> => {
  const a = await request(s.w, 'GET', `/gtt-orders/${alId}`);
  return typeof a.body.etag === 'string' ? a.body.etag : undefined;
};

/** Polls `find` until it yields something or `boundMs` has passed (a condition, not a time, bounded). */
export const waitFor = async <T>(find: () => T | undefined, boundMs: number): Promise<T | undefined> => {
  const until = Date.now() + boundMs;
  for (;;) {
    const found = find();
    if (found || Date.now() >= until) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** How many requests of a broker operation have arrived so far; `arrived`: whether one more has since `from`. */
export const arrivals = (s: Sys, operation: string): number => s.w.arrivals[operation] ?? 0;
export const arrived = (s: Sys, operation: string, from: number): true | undefined =>
  arrivals(s, operation) > from || undefined;

/** The trader turns the kill switch off first, when it may be on (a command about changes, not about the switch). */
export const switchOff = async (s: Sys): Promise<void> => {
  if (s.halt === 'off') return;
  const a = await request(s.w, 'DELETE', '/kill-switch');
  s.log.push(`  kill switch off first: ${a.status}`);
  if (a.verdict === 'ok') s.halt = 'off';
};
