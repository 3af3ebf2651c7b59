/**
 * The system model's signals of every action kind (system-model.ts): a strategy of the model's own per sequence
 * (besides the one-GTT strategy of system-actors.ts) whose action the trader changes (`PATCH /strategies/{id}`: gtt,
 * oco, bracket, trailing-stop, cancel, kill-switch), alerts of one or two symbols (or one the broker does not list:
 * a partial act), broker faults on the action's place, the broker's rate limit on the first symbol's place (the
 * worker retries: the queue delivers the message again) with the strategy's action changed between the two
 * deliveries of one alert, and the token rotated or the strategy deleted (its old webhook URL answers 401).
 *
 * Each alert's orders are found at the broker by its quantity (300 to 699, one per alert) on each symbol; invariant
 * 1 (system-invariants-ways.ts): one entry per alert and symbol whatever the action (a plan's GTTs are one entry).
 */
import fc from 'fast-check';

import { faultLabel, withFault, WRITE_FAULTS } from './system-orders.js';
import { Command, keyOf, nextId, type Sys } from './system-state.js';
import { answerOf, request } from './system-world.js';

export const ACTION_KINDS = ['gtt', 'oco', 'bracket', 'trailing-stop', 'cancel', 'kill-switch'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];
export const PLACING_KINDS = ['gtt', 'oco', 'bracket', 'trailing-stop'] as const;

/** One alert (of one or more symbols) to the ways strategy: its quantity and the broker symbols it names. */
export interface WaysAlert {
  label: string;
  qty: number;
  tsyms: string[];
  /** The action kinds the strategy had while the alert could be acted on. */
  kinds: ActionKind[];
}

export interface SignalsState {
  strategyId?: string;
  webhookUrl?: string;
  /** URLs that must answer 401: rotated away, or of a deleted strategy. */
  deadUrls: string[];
  kind: ActionKind;
  alerts: WaysAlert[];
  n: number;
}

const ORDER = { exch: 'NSE', prd: 'C', prctyp: 'LMT', ret: 'DAY', qty: 1 };
const off = (offset: string) => ({ offset });
const leg = (offset: string) => ({ trigger: off(offset), price: off(offset) });

/** The strategy's action of each kind, around the alert's price (1500). */
export const actionOf = (kind: ActionKind): Record<string, unknown> => {
  switch (kind) {
    case 'gtt':
      return { kind, order: ORDER, trigger: off('-1%'), price: off('-1%') };
    case 'oco':
      return { kind, order: ORDER, target: leg('+3%'), stopLoss: leg('-3%') };
    case 'bracket':
      return { kind, order: ORDER, entry: leg('-1%'), target: leg('+3%'), stopLoss: leg('-3%') };
    case 'trailing-stop':
      return { kind, order: ORDER, trigger: off('-2%'), price: off('-2.5%'), trailBy: '10' };
    case 'cancel':
      return { kind, exch: 'NSE' };
    case 'kill-switch':
      return { kind };
  }
};

/** The broker operation an action's first write is (a plan's entry or stop is a GTT). */
const placeOperation = (kind: ActionKind) => (kind === 'oco' ? 'PlaceOCOOrder' : 'PlaceGTTOrder');
/** An OCO and a trailing stop close a position (sells); the others open one. */
const sideOf = (kind: ActionKind) => (kind === 'oco' || kind === 'trailing-stop' ? 'sell' : 'buy');

const TICKERS = { SBIN: 'SBIN-EQ', 'M&M': 'M&M-EQ', NOSUCHTHING: '' } as const;
type Ticker = keyof typeof TICKERS;
const SYMBOL_SETS: readonly Ticker[][] = [['SBIN'], ['SBIN', 'M&M'], ['M&M', 'NOSUCHTHING'], ['NOSUCHTHING', 'SBIN']];

const stateOf = (s: Sys): SignalsState => (s.signals ??= { deadUrls: [], kind: 'gtt', alerts: [], n: 0 });

/** The ways strategy (created on first use in a sequence, with `kind` as its action). */
const ensureStrategy = async (s: Sys, kind: ActionKind = 'gtt'): Promise<SignalsState> => {
  const st = stateOf(s);
  if (st.strategyId) return st;
  const body = { name: 'system-ways', source: 'generic', action: actionOf(kind), ratePerMinute: 600 };
  const a = await request(s.w, 'POST', '/strategies', body, { 'Idempotency-Key': keyOf(nextId()) });
  if (a.status !== 201) throw new Error(`POST /strategies (ways): ${a.status} ${JSON.stringify(a.body)}`);
  st.strategyId = String(a.body.strategyId);
  st.webhookUrl = String(a.body.webhookUrl);
  st.kind = kind;
  return st;
};

/** What an action does to the model's other expectations: a cancel or the kill switch may remove any order. */
const mayRemove = (s: Sys, kind: ActionKind) => {
  if (kind !== 'cancel' && kind !== 'kill-switch') return;
  for (const o of s.orders) o.mayBeGone = true;
  // Its cancels (or its switch's sweep, in whichever mode) may take exits a keep-exits switch kept (invariant 6).
  for (const kept of s.kept.values()) kept.released = true;
  if (kind === 'kill-switch') s.halt = 'unclean';
};

/** PATCH /strategies/{id} {action}: the strategy's action replaced whole; the webhook URL stays. */
export const editAction = async (s: Sys, kind: ActionKind, what = 'strategy edit'): Promise<void> => {
  const st = await ensureStrategy(s);
  const a = await request(s.w, 'PATCH', `/strategies/${st.strategyId}`, { action: actionOf(kind) });
  s.log.push(`${what}: action ${st.kind} -> ${kind}: ${a.status}${a.code ? ` ${a.code}` : ''}`);
  if (a.verdict === 'ok') {
    if (a.body.action && (a.body.action as { kind?: unknown }).kind !== kind)
      throw new Error(`PATCH /strategies answered action ${JSON.stringify(a.body.action)}, not ${kind}`);
    st.kind = kind;
    for (const alert of st.alerts) if (!alert.kinds.includes(kind)) alert.kinds.push(kind);
  }
};

/** Posts an alert of `tickers` to the ways strategy; the worker has acted (or given up) when it returns. */
const postAlert = async (s: Sys, tickers: readonly Ticker[], what: string): Promise<WaysAlert> => {
  const st = await ensureStrategy(s);
  const n = nextId();
  const qty = 300 + (st.n++ % 400);
  const side = sideOf(st.kind);
  const body = tickers.map((t, i) => ({
    action: side,
    symbol: t,
    exchange: 'NSE',
    price: 1500,
    qty,
    id: `w${n}-${i}`,
  }));
  const alert: WaysAlert = {
    label: `ways alert w${n} x${qty} ${tickers.join('+')}`,
    qty,
    tsyms: tickers.map((t) => TICKERS[t]).filter(Boolean),
    kinds: [st.kind],
  };
  st.alerts.push(alert);
  mayRemove(s, st.kind);
  const res = await fetch(st.webhookUrl!, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const a = answerOf(res.status, (await res.json()) as Record<string, unknown>);
  await s.w.stack.signalQueue.drained();
  if (a.status !== 202 && a.status !== 200 && a.status !== 429)
    throw new Error(`${what}: the webhook answered ${a.status} ${JSON.stringify(a.body)} to a well-formed alert`);
  const signal = typeof a.body.signalId === 'string' ? await request(s.w, 'GET', `/signals/${a.body.signalId}`) : a;
  const results = (signal.body.results as { tsym?: string; detail?: string }[] | undefined) ?? [];
  s.log.push(
    `${what} ${alert.label} [${st.kind}]: ${a.status}, ${String(signal.body.state ?? '-')} ${results.map((r) => `${r.tsym ?? '?'}: ${String(r.detail).slice(0, 60)}`).join('; ')}`,
  );
  return alert;
};

const kind = fc.constantFrom<ActionKind>(...PLACING_KINDS, ...PLACING_KINDS, 'cancel', 'kill-switch');
const placingKind = fc.constantFrom<ActionKind>(...PLACING_KINDS);

/** An alert of one or more symbols to the ways strategy, the action's place meeting a broker fault. */
const waysAlert = fc.record({ tickers: fc.constantFrom(...SYMBOL_SETS), fault: WRITE_FAULTS }).map(
  ({ tickers, fault }) =>
    new Command('signal of any kind', `ways alert ${tickers.join('+')}${faultLabel(fault)}`, async (s) => {
      const st = await ensureStrategy(s);
      await withFault(s, placeOperation(st.kind), fault, async () => {
        await postAlert(s, tickers, 'alert');
      });
    }),
);

/** The trader changes the strategy's action (between alerts). */
const strategyEdit = kind.map(
  (to) => new Command('strategy edit', `strategy action -> ${to}`, (s) => editAction(s, to)),
);

/**
 * One alert of two symbols whose first place meets the broker's rate limit (the worker retries: the queue delivers
 * the message again), and the trader changes the strategy's action before that second delivery.
 */
const editBetween = fc
  .record({ from: placingKind, to: placingKind })
  .filter(({ from, to }) => from !== to)
  .map(
    ({ from, to }) =>
      new Command(
        'strategy edit between deliveries',
        `alert SBIN+M&M under ${from}, rate-limited, edited to ${to} before its retry`,
        async (s) => {
          const st = await ensureStrategy(s, from);
          if (st.kind !== from) await editAction(s, from);
          let edited = false;
          s.w.afterAct = async () => {
            if (edited) return;
            edited = true;
            await editAction(s, to, 'edit between deliveries');
          };
          await s.w.control.fault({ operation: placeOperation(from), kind: 'rateLimit', times: 1 });
          try {
            const alert = await postAlert(s, ['SBIN', 'M&M'], 'alert');
            if (!alert.kinds.includes(to)) alert.kinds.push(to);
          } finally {
            s.w.afterAct = undefined;
            await s.w.control.clearFaults();
          }
        },
      ),
  );

/** The webhook URL rotated (POST /strategies/{id}/token) or the strategy deleted: the old URL answers 401. */
const tokenChange = fc.constantFrom('rotate', 'delete').map(
  (how) =>
    new Command('strategy token', `ways strategy ${how === 'rotate' ? 'token rotated' : 'deleted'}`, async (s) => {
      const st = await ensureStrategy(s);
      const old = st.webhookUrl!;
      const a =
        how === 'rotate'
          ? await request(s.w, 'POST', `/strategies/${st.strategyId}/token`)
          : await request(s.w, 'DELETE', `/strategies/${st.strategyId}`);
      s.log.push(`${how} ${st.strategyId}: ${a.status}${a.code ? ` ${a.code}` : ''}`);
      if (a.verdict !== 'ok') return;
      st.deadUrls.push(old);
      if (how === 'rotate') st.webhookUrl = String(a.body.webhookUrl);
      else {
        st.strategyId = undefined;
        st.webhookUrl = undefined;
      }
      const dead = await fetch(old, { method: 'POST', body: JSON.stringify({ action: 'buy', symbol: 'SBIN' }) });
      await dead.body?.cancel();
      if (dead.status !== 401)
        throw new Error(`the ${how}d strategy's old webhook URL answered ${dead.status}, not 401`);
    }),
);

export const signalCommands = { waysAlert, strategyEdit, editBetween, tokenChange };
