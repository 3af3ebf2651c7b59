/**
 * The system model's state of one sequence (system-model.ts) and how answers change it: the intents the model sent
 * (each place's broker order findable by what the broker first held: its `tag` prefix, or for a place with no tag its
 * stamp; a signal alert's quantity; a plan's stamps), the orders the gateway acknowledged with the values each field
 * (a single GTT's, or both legs of an OCO) may hold at the broker, the kill switch and the session as they were
 * answered, the exits a keep-exits switch reported kept, the changes answered "not executed" with the order as it was
 * before, and until when a broker may still act on something begun earlier. Tags come in every length class.
 */
import type fc from 'fast-check';

import { checkAll, fail, norm } from './system-invariants.js';
import type { McpState } from './system-mcp.js';
import { checkPositions } from './system-positions.js';
import type { SignalsState } from './system-signals.js';
import { type Answer, countKind, SETTLE_MS, systemStats, type Verdict, type World } from './system-world.js';

/** A single GTT's fields, and an OCO's: target (t) and stop-loss (s) trigger, price and quantity. */
export type Field = 'qty' | 'prc' | 'd' | 'tt' | 'tp' | 'tq' | 'st' | 'sp' | 'sq';
export const GTT_FIELDS: readonly Field[] = ['qty', 'prc', 'd'];
export const OCO_FIELDS: readonly Field[] = ['tt', 'tp', 'tq', 'st', 'sp', 'sq'];
const FIELDS: readonly Field[] = [...GTT_FIELDS, ...OCO_FIELDS];
export type Changes = Partial<Record<Field, string>>;

/**
 * The tag classes a place may carry: none, empty (refused), short, long (27-40 characters: no room for the gateway's
 * stamp, so its unknown outcome can only be reported), and ones that look like stamps (` gw.` and ten characters),
 * short or long. Each but none and empty starts with the intent's `tagOf(n)`, which finds it at the broker.
 */
export const TAG_CLASSES = ['none', 'empty', 'short', 'long', 'stamp-like', 'long stamp-like'] as const;
export type TagClass = (typeof TAG_CLASSES)[number];
export const tagIn = (cls: TagClass, n: number, length: number, stampish: string): string | undefined => {
  const pad = (text: string, to: number) => text + '-'.repeat(Math.max(0, to - text.length));
  if (cls === 'none') return undefined;
  if (cls === 'empty') return '';
  if (cls === 'short') return tagOf(n);
  if (cls === 'long') return pad(tagOf(n), length);
  const suffix = ` gw.${stampish}`;
  return cls === 'stamp-like' ? tagOf(n) + suffix : pad(tagOf(n), length - suffix.length) + suffix;
};

/** One logical write: a key (HTTP), an alert (signal) or a plan; at most one broker order each, ever. */
export interface Intent {
  label: string;
  kind: 'gtt' | 'oco' | 'signal' | 'plan' | 'modify' | 'cancel';
  /** How to send it again (HTTP writes with a key). */
  key?: string;
  method?: string;
  path?: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** gtt, oco: the broker order's first remarks start with it (`tagOf(n)`), or, with no tag, are its `stamp`. */
  tag?: string;
  stamp?: string;
  /** gtt, oco: its tag leaves no room for the gateway's stamp (its unknown outcome can only be reported). */
  unstamped?: boolean;
  /** signal: the broker order's quantity (on the signal symbol), its alert's body, and the signal recorded. */
  qty?: number;
  alert?: string;
  signalId?: string;
  planId?: string;
  /** modify, cancel: the order it changes, and what a modify changes. */
  order?: Tracked;
  changes?: Changes;
  verdicts: Verdict[];
  /** When its latest attempt that may have acted began. */
  actedAt: number;
  alId?: string;
  /** The model's count of sends (`Sys.sends`) at its latest send: a retry at a sequence's end is a later write. */
  sentAt?: number;
}

/** An order the gateway acknowledged (a 2xx place): what each field may be at the broker, and whether it may be gone. */
export interface Tracked {
  alId: string;
  /** What its remarks start with (`tagOf(n)`, or '' for none), and the tag it was placed with. */
  tag: string;
  bodyTag?: string;
  kind: 'gtt' | 'oco';
  expect: Record<Field, Set<string>>;
  /** A cancel was sent (not refused) or a kill switch swept after it was placed. */
  mayBeGone: boolean;
  /** Its place, while that place's outcome is open (it was changed before its place was answered). */
  placeOpen?: Intent;
}

export interface Sys {
  w: World;
  intents: Intent[];
  orders: Tracked[];
  /** The kill switch as answered: off, on with a complete sweep, or on otherwise. */
  halt: 'off' | 'clean' | 'unclean';
  /** Logged out (answered success) at `at`; writes that reach the broker after `allowUntil` break invariant 3. */
  loggedOut?: { at: number; allowUntil: number };
  /** Until when a broker may still act on something the model began (a slow broker, a killed process). */
  lateUntil: number;
  /** Exits a keep-exits switch reported kept, and whether something since may remove them (a cancel, cancel-all). */
  kept: Map<string, { at: number; released: boolean }>;
  /** Changes and cancels answered "not executed" while nothing else could touch their order: the order before. */
  claims: { intent: Intent; alId: string; before: string; at: number }[];
  /** How many HTTP writes the model has sent (first sends and retries). */
  sends?: number;
  strategy?: { strategyId: string; webhookUrl: string };
  alerts: number;
  log: string[];
  skip: ReadonlySet<number>;
  /** The ways strategy's alerts (system-signals.ts) and the assistants over /mcp (system-mcp.ts), once used. */
  signals?: SignalsState;
  mcp?: McpState;
}

/** Tags, keys and alert ids never repeat in one process, across sequences too. */
const counter = { n: 0 };
export const nextId = (): number => ++counter.n;
export const tagOf = (n: number): string => `sm:${String(n).padStart(7, '0')}`;
export const keyOf = (n: number): string => `sys-${process.pid}-${n}`;

/** A broker may act until `ms` after a write began (its request reaches the broker a little after `started`). */
export const late = (s: Sys, started: number, ms: number): void => {
  s.lateUntil = Math.max(s.lateUntil, started + ms + 800);
};

export const newIntent = (s: Sys, fields: Omit<Intent, 'verdicts' | 'actedAt'>): Intent => {
  const intent: Intent = { ...fields, verdicts: [], actedAt: Date.now() };
  s.intents.push(intent);
  return intent;
};

type Leg = { trigger?: unknown; order?: { qty?: unknown; prc?: unknown } };
/** The fields a place's body gives its order (an OCO's legs as target t and stop-loss s). */
export const valuesOf = (body: Record<string, unknown>): Changes => {
  if (!body.target) return { qty: norm(body.qty), prc: norm(body.prc), d: norm(body.d) };
  const [t, sl] = [body.target as Leg, body.stopLoss as Leg];
  return {
    tt: norm(t.trigger),
    tp: norm(t.order?.prc),
    tq: norm(t.order?.qty),
    st: norm(sl.trigger),
    sp: norm(sl.order?.prc),
    sq: norm(sl.order?.qty),
  };
};
const expectOf = (body: Record<string, unknown>): Record<Field, Set<string>> => {
  const values = valuesOf(body);
  return Object.fromEntries(FIELDS.map((f) => [f, new Set(values[f] ? [values[f]] : [])])) as Record<
    Field,
    Set<string>
  >;
};

/** An answer to one attempt of an intent: its verdict kept, and a 2xx place's order tracked. */
export const record = (s: Sys, intent: Intent, a: Answer, started: number, what = intent.label): void => {
  intent.verdicts.push(a.verdict);
  if (a.verdict === 'unknown') intent.actedAt = started;
  s.log.push(`${what}: ${a.verdict}${a.code ? ` ${a.code}` : ''}${a.alId ? ` ${a.alId}` : ''}`);
  // Any attempt of a change that may have acted (a retry too): its values may be the broker's, the order may be gone.
  if (intent.order && a.verdict !== 'not_executed') {
    if (intent.kind === 'cancel') intent.order.mayBeGone = true;
    const kept = s.kept.get(intent.order.alId);
    if (kept && intent.kind === 'cancel') kept.released = true;
    for (const field of FIELDS)
      if (intent.changes?.[field]) intent.order.expect[field].add(norm(intent.changes[field]));
  }
  if (a.verdict !== 'ok' || !a.alId || (intent.kind !== 'gtt' && intent.kind !== 'oco')) return;
  if (intent.alId !== undefined && intent.alId !== a.alId)
    return fail(s, 1, `${intent.label} (key ${intent.key}) answered two al_ids: ${intent.alId} and ${a.alId}`);
  if (intent.alId !== undefined) return;
  intent.alId = a.alId;
  // An order already tracked (changed before its place was answered) keeps what its changes say.
  if (!s.orders.some((o) => o.alId === a.alId)) s.orders.push(trackedOf(s, a.alId, intent));
};

/** The order of a place, as the model tracks it: what its body gave each field (or a change since, when tracked). */
export const trackedOf = (s: Sys, alId: string, intent: Intent): Tracked =>
  s.orders.find((o) => o.alId === alId) ?? {
    alId,
    tag: intent.tag ?? '',
    ...(typeof intent.body?.tag === 'string' ? { bodyTag: intent.body.tag } : {}),
    kind: intent.kind === 'oco' ? 'oco' : 'gtt',
    expect: expectOf(intent.body!),
    mayBeGone: false,
  };

/**
 * Changes sent to one order at once (one PUT or PATCH, or two racing): an acknowledged change is what the broker must
 * hold (if two were acknowledged at once, either); an unknown one may be there too. A replay changes nothing.
 */
export const applyChanges = (order: Tracked, results: { changes: Changes; a: Answer }[]): void => {
  for (const field of FIELDS) {
    const acked = results.filter((r) => r.a.verdict === 'ok' && !r.a.replayed && r.changes[field] !== undefined);
    const maybe = results.filter((r) => r.a.verdict !== 'ok' && r.a.verdict !== 'not_executed' && r.changes[field]);
    const values = (list: typeof results) => list.map((r) => norm(r.changes[field]));
    if (acked.length) order.expect[field] = new Set([...values(acked), ...values(maybe)]);
    else for (const v of values(maybe)) order.expect[field].add(v);
  }
};

/**
 * HTTP writes with a key whose outcome is still open: no 2xx, and an unknown or in-flight answer (`stamped`: only
 * those the gateway can resolve, not a place whose tag left no room for its stamp).
 */
export const unresolved = (s: Sys, stamped = false): Intent[] =>
  s.intents.filter(
    (i) =>
      i.key !== undefined &&
      !(stamped && i.unstamped) &&
      i.path !== undefined &&
      !i.verdicts.includes('ok') &&
      i.verdicts.some((v) => v === 'unknown' || v === 'in_flight'),
  );

/** Whether the late window of the intent's last attempt that may have acted has passed. */
export const windowPassed = (i: Intent, now = Date.now()): boolean => now >= i.actedAt + SETTLE_MS;

export class Command implements fc.AsyncCommand<object, Sys> {
  constructor(
    readonly kind: string,
    readonly label: string,
    private readonly act: (s: Sys) => Promise<void>,
  ) {}
  check = () => true;
  async run(_m: object, s: Sys): Promise<void> {
    systemStats.steps += 1;
    countKind(this.kind);
    s.log.push(this.label);
    // SYSTEM_MODEL_LIVE=1: each step as it starts (a step that never ends is the last line).
    if (process.env.SYSTEM_MODEL_LIVE) console.log(`${new Date().toISOString()} step: ${this.label}`);
    await this.act(s);
    checkAll(s);
    await checkPositions(s);
  }
  toString = () => this.label;
}
