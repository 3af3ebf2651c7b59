/**
 * The system model's exit-only key against what live plans owe, over the real remote MCP route (`POST /mcp`): on
 * KOTAKBANK-EQ (a symbol no other command trades), after the trader maybe bought or sold some outside the gateway, an
 * assistant with scopes read and exit starts a trailing stop on the side that closes the position, its stop's first
 * place maybe lost (a dropped PlaceGTTOrder, carried out by the broker or not: the plan is recorded, its stop perhaps
 * not at the broker until a later watcher run places it), then previews and confirms a GTT or an OCO on the same side.
 *
 * Invariant 10 (an exit-only key never increases exposure), for these: at each confirm the order, with the pending
 * exits of the symbol at the broker and the stops its live plans still owe (a plan of this command that the plan
 * store holds as not ended and whose stamp the broker never held), is no larger than the position, and on its closing
 * side. Every order or plan stop of the symbol at the broker was answered by such a confirm. The position and the
 * broker's orders are read from the emulator's own state; only whether a plan has ended is the plan store's word.
 */
import fc from 'fast-check';

import type { Order } from '../../emulator/state/state.js';
import { TERMINAL } from '../../functions/base/schemas/plans.js';
import { fail } from './system-invariants.js';
import { callTool } from './system-mcp.js';
import { emulatorGtts, heldOf, pendingExitsOf, tradeOutside } from './system-outside.js';
import { Command, keyOf, nextId, type Sys } from './system-state.js';
import { request } from './system-world.js';

const TSYM = 'KOTAKBANK-EQ';
/** Its start price (the emulator's sandbox close). */
const START = 2120;
const PLAN_STAMP = /^(pl[0-9a-f]{16})\./;

interface Judged {
  side: 'B' | 'S';
  qty: number;
  /** Why it should not have been placed or started, when it should not. */
  wrong?: string;
}
interface GapState {
  token: string;
  tag: string;
  /** The orders its confirms placed, by al_id. */
  placed: Map<string, Judged>;
  /** The trailing stops its confirms started, by planId. */
  plans: Map<string, Judged>;
}
const GAP = new WeakMap<Sys, GapState>();

const gapAssistant = async (s: Sys): Promise<GapState> => {
  const known = GAP.get(s);
  if (known) return known;
  const body = { name: 'system-exit-gap', scopes: ['read', 'exit'] };
  const a = await request(s.w, 'POST', '/assistants', body, { 'Idempotency-Key': keyOf(nextId()) });
  if (a.status !== 201) throw new Error(`POST /assistants (exit gap): ${a.status} ${JSON.stringify(a.body)}`);
  const state = { token: String(a.body.token), tag: `eg${nextId()}`, placed: new Map(), plans: new Map() };
  GAP.set(s, state);
  return state;
};

const orders = (s: Sys): Order[] => emulatorGtts(s);
const held = (s: Sys): number => heldOf(s, TSYM);
const pendingExits = (s: Sys, side: 'B' | 'S'): number => pendingExitsOf(orders(s), TSYM, side);
/** What its live plans still owe on `side`: the stops of plans not ended whose stamp the broker never held. */
const owedStops = async (s: Sys, me: GapState, side: 'B' | 'S'): Promise<number> => {
  const stamped = new Set(orders(s).map((g) => PLAN_STAMP.exec(g.remarks)?.[1]));
  let owed = 0;
  for (const [planId, started] of me.plans) {
    if (started.side !== side || stamped.has(planId)) continue;
    const stored = await s.w.store.get(planId);
    if (stored && !TERMINAL.includes(stored.plan.state)) owed += started.qty;
  }
  return owed;
};

/** A stop (trailing stop's order) 50 away on the losing side, or an exit 100 away on the winning side. */
const gttOf = (side: 'B' | 'S', qty: number, away: number, tag?: string) => {
  const at = String(side === 'S' ? START + away : START - away);
  const rising = side === 'S' ? away > 0 : away < 0;
  return {
    exch: 'NSE',
    tsym: TSYM,
    qty,
    prd: 'C',
    trantype: side,
    prctyp: 'LMT',
    ret: 'DAY',
    ai_t: rising ? 'LTP_A_O' : 'LTP_B_O',
    d: at,
    prc: at,
    ...(tag ? { tag } : {}),
  };
};
const ocoOf = (side: 'B' | 'S', qty: number, tag: string) => {
  const leg = (away: number) => {
    const at = String(side === 'S' ? START + away : START - away);
    return { trigger: at, order: { trantype: side, prctyp: 'LMT', qty, prc: at, prd: 'C' } };
  };
  return { exch: 'NSE', tsym: TSYM, tag, target: leg(100), stopLoss: leg(-60) };
};

/** Why an order of `qty` on `side` confirmed now would not only reduce the position, or undefined. */
const wrongNow = async (s: Sys, me: GapState, side: 'B' | 'S', qty: number): Promise<string | undefined> => {
  const position = held(s);
  const reducing = position > 0 ? 'S' : 'B';
  if (position === 0) return 'confirmed with no position held';
  if (side !== reducing) return `a ${side} confirmed against a position of ${position}`;
  const pending = pendingExits(s, reducing);
  const owed = await owedStops(s, me, reducing);
  if (qty + pending + owed > Math.abs(position))
    return `${qty} confirmed against a position of ${position}, with ${pending} pending at the broker and ${owed} owed by live plans`;
  return undefined;
};

const mcpExitOwed = fc
  .record({
    trade: fc.constantFrom(3, 5, 5, -4, 0),
    stop: fc.constantFrom<'room' | number>('room', 'room', 1, 2, 4),
    lost: fc.constantFrom<'unexecuted' | 'executed' | 'none'>('unexecuted', 'unexecuted', 'executed', 'none'),
    kind: fc.constantFrom<'gtt' | 'oco'>('gtt', 'gtt', 'oco'),
    qty: fc.constantFrom<'room' | number>('room', 'room', 1, 2, 5),
  })
  .map(
    ({ trade, stop, lost, kind, qty: chosen }) =>
      new Command(
        'mcp exit-only owed stop',
        `mcp exit trailing stop x${stop}${lost === 'none' ? '' : ` (its place dropped, ${lost})`}, then place_${kind} x${chosen}${trade ? `, after an outside trade of ${trade}` : ''}`,
        async (s) => {
          const me = await gapAssistant(s);
          if (trade !== 0) await tradeOutside(s, TSYM, START, trade);
          const side = held(s) < 0 ? 'B' : 'S';
          // `room`: what the position leaves beside the exits resting at the broker (at least 1).
          const room = () => Math.max(1, Math.abs(held(s)) - pendingExits(s, side));
          const stopQty = stop === 'room' ? room() : stop;
          const plan = { kind: 'trailing-stop', order: gttOf(side, stopQty, -50), trailBy: '20', tag: me.tag };
          const p = await callTool(s, me.token, 'create_plan', plan);
          if (typeof p.content.confirmationId === 'string') {
            if (lost !== 'none')
              await s.w.control.fault({
                operation: 'PlaceGTTOrder',
                kind: 'drop',
                executed: lost === 'executed',
                times: 1,
              });
            const wrong = await wrongNow(s, me, side, stopQty);
            const c = await callTool(s, me.token, 'confirm', { confirmationId: p.content.confirmationId });
            await s.w.control.clearFaults();
            const json = JSON.stringify(c.content);
            const planId =
              (c.content.result as { planId?: string } | undefined)?.planId ??
              /Plan (pl[0-9a-f]{16}) is recorded/.exec(json)?.[1];
            s.log.push(`  exit owed: trailing stop ${side} x${stopQty}: ${planId ?? json.slice(0, 120)}`);
            if (planId) me.plans.set(planId, { side, qty: stopQty, ...(wrong ? { wrong } : {}) });
          } else s.log.push(`  exit owed: trailing stop refused ${String(p.content.reason).slice(0, 100)}`);

          const tag = `${me.tag}:${nextId()}`;
          const qty = chosen === 'room' ? room() : chosen;
          const body = kind === 'gtt' ? gttOf(side, qty, 100, tag) : ocoOf(side, qty, tag);
          const o = await callTool(s, me.token, `place_${kind}`, body);
          if (typeof o.content.confirmationId !== 'string') {
            s.log.push(`  exit owed: place_${kind} refused ${String(o.content.reason).slice(0, 160)}`);
            return;
          }
          const wrong = await wrongNow(s, me, side, qty);
          const c = await callTool(s, me.token, 'confirm', { confirmationId: o.content.confirmationId });
          const alId = (c.content.result as { al_id?: unknown } | undefined)?.al_id;
          const why = String(c.content.reason ?? JSON.stringify(c.content.error ?? c.content)).slice(0, 160);
          s.log.push(`  exit owed: place_${kind} x${qty}: ${typeof alId === 'string' ? alId : why}`);
          if (typeof alId === 'string') me.placed.set(alId, { side, qty, ...(wrong ? { wrong } : {}) });
        },
      ),
  );

/** Invariant 10 after every step, for this command's orders and plan stops: each was a confirm judged right. */
export const checkExitGap = (s: Sys, gtts: Order[]): void => {
  const me = GAP.get(s);
  if (!me) return;
  for (const g of gtts) {
    if (g.tsym !== TSYM) continue;
    const planId = PLAN_STAMP.exec(g.remarks)?.[1];
    const judged = planId ? me.plans.get(planId) : g.remarks.startsWith(`${me.tag}:`) ? me.placed.get(g.al_id) : null;
    if (judged === null) continue;
    const what = planId ? `trailing stop ${g.al_id} of plan ${planId}` : `exit-only order ${g.al_id}`;
    if (!judged) fail(s, 10, `${what} "${g.remarks}" is at the broker, yet no exit-only confirm answered it`);
    else if (judged.wrong) fail(s, 10, `${what}: ${judged.wrong}`);
  }
};

export const exitGapCommands = { mcpExitOwed };
