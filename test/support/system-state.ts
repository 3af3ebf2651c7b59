/**
 * The system model's state of one sequence (system-model.ts) and how answers change it: the intents the model sent
 * (each place's broker order findable by a field the model controls: its `tag` prefix, a signal alert's quantity, a
 * plan's stamps), the orders the gateway acknowledged with the values each field may hold at the broker, the kill
 * switch and the session as they were answered, and until when a broker may still act on something begun earlier.
 */
import type fc from 'fast-check';

import { checkAll, fail, norm } from './system-invariants.js';
import type { McpState } from './system-mcp.js';
import type { SignalsState } from './system-signals.js';
import { type Answer, countKind, SETTLE_MS, systemStats, type Verdict, type World } from './system-world.js';

export type Field = 'qty' | 'prc' | 'd';
export const FIELDS: readonly Field[] = ['qty', 'prc', 'd'];
export type Changes = Partial<Record<Field, string>>;

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
  /** gtt, oco: the broker order's remarks start with it. */
  tag?: string;
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
}

/** An order the gateway acknowledged (a 2xx place): what each field may be at the broker, and whether it may be gone. */
export interface Tracked {
  alId: string;
  tag: string;
  kind: 'gtt' | 'oco';
  expect: Record<Field, Set<string>>;
  /** A cancel was sent (not refused) or a kill switch swept after it was placed. */
  mayBeGone: boolean;
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

const expectOf = (body: Record<string, unknown>): Record<Field, Set<string>> => ({
  qty: new Set([norm(body.qty)]),
  prc: new Set([norm(body.prc)]),
  d: new Set([norm(body.d)]),
});

/** An answer to one attempt of an intent: its verdict kept, and a 2xx place's order tracked. */
export const record = (s: Sys, intent: Intent, a: Answer, started: number, what = intent.label): void => {
  intent.verdicts.push(a.verdict);
  if (a.verdict === 'unknown') intent.actedAt = started;
  s.log.push(`${what}: ${a.verdict}${a.code ? ` ${a.code}` : ''}${a.alId ? ` ${a.alId}` : ''}`);
  // Any attempt of a change that may have acted (a retry too): its values may be the broker's, the order may be gone.
  if (intent.order && a.verdict !== 'not_executed') {
    if (intent.kind === 'cancel') intent.order.mayBeGone = true;
    for (const field of FIELDS)
      if (intent.changes?.[field]) intent.order.expect[field].add(norm(intent.changes[field]));
  }
  if (a.verdict !== 'ok' || !a.alId || (intent.kind !== 'gtt' && intent.kind !== 'oco')) return;
  if (intent.alId !== undefined && intent.alId !== a.alId)
    return fail(s, 1, `${intent.label} (key ${intent.key}) answered two al_ids: ${intent.alId} and ${a.alId}`);
  if (intent.alId !== undefined) return;
  intent.alId = a.alId;
  s.orders.push({
    alId: a.alId,
    tag: intent.tag!,
    kind: intent.kind,
    expect: expectOf(intent.body!),
    mayBeGone: false,
  });
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

/** HTTP writes with a key whose outcome is still open: no 2xx, and an unknown or in-flight answer. */
export const unresolved = (s: Sys): Intent[] =>
  s.intents.filter(
    (i) =>
      i.key !== undefined &&
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
    await this.act(s);
    checkAll(s);
  }
  toString = () => this.label;
}
