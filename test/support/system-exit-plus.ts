/**
 * The system model's exit-only trailing stop over the real remote MCP route (`POST /mcp`): an assistant with scopes
 * read and exit previews `create_plan` of kind `trailing-stop` on AXISBANK-EQ (a symbol no other command trades) of
 * either side (the closing one as often as not) and any size, after the trader maybe bought or sold some outside the gateway (a GTT at the emulator
 * fired by the price), and confirms some, once or twice. Before each confirm the model reads the position and the
 * pending exits of the symbol from the emulator's own state (its fills and its GTTs), never from the gateway.
 *
 * Invariant 10 (an exit-only key never increases exposure), for its plans: a refused preview or confirm leaves no new
 * plan GTT of the symbol at the broker; every plan GTT of the symbol at the broker belongs to a plan one of its
 * confirms started; at that confirm the stop was opposite to the position and, with the pending exits already
 * selling (buying) it, no larger than it; the stop is never larger nor of another side than it was started. A
 * second confirm of the same preview replays the first: one plan, one stop.
 */
import fc from 'fast-check';

import type { Order } from '../../emulator/state/state.js';
import { fail } from './system-invariants.js';
import { callTool } from './system-mcp.js';
import { emulatorGtts, heldOf, pendingExitsOf, tradeOutside } from './system-outside.js';
import { Command, keyOf, nextId, type Sys } from './system-state.js';
import { request } from './system-world.js';

const TSYM = 'AXISBANK-EQ';
/** Its start price (the emulator's sandbox close). */
const START = 1180;
const PLAN_STAMP = /^(pl[0-9a-f]{16})\./;

interface Started {
  side: 'B' | 'S';
  qty: number;
  /** Why it should not have been started, when it should not. */
  wrong?: string;
}
interface PlusState {
  token: string;
  plans: Map<string, Started>;
}
const PLUS = new WeakMap<Sys, PlusState>();

const exitAssistant = async (s: Sys): Promise<PlusState> => {
  const known = PLUS.get(s);
  if (known) return known;
  const body = { name: 'system-exit-plus', scopes: ['read', 'exit'] };
  const a = await request(s.w, 'POST', '/assistants', body, { 'Idempotency-Key': keyOf(nextId()) });
  if (a.status !== 201) throw new Error(`POST /assistants (exit plus): ${a.status} ${JSON.stringify(a.body)}`);
  const state = { token: String(a.body.token), plans: new Map<string, Started>() };
  PLUS.set(s, state);
  return state;
};

const orders = (s: Sys): Order[] => emulatorGtts(s);
const held = (s: Sys): number => heldOf(s, TSYM);
const pendingExits = (s: Sys, side: 'B' | 'S'): number => pendingExitsOf(orders(s), TSYM, side);
/** The plan GTTs of the symbol the broker has ever held (any state). */
const planGtts = (s: Sys): number => orders(s).filter((g) => g.tsym === TSYM && PLAN_STAMP.test(g.remarks)).length;

/** A trailing stop's create_plan arguments: a sell stop below the price, a buy stop above it. */
const planArgs = (side: 'B' | 'S', qty: number) => {
  const at = String(side === 'S' ? START - 50 : START + 50);
  const order = { exch: 'NSE', tsym: TSYM, qty, prd: 'C', trantype: side, prctyp: 'LMT', ret: 'DAY', d: at, prc: at };
  return {
    kind: 'trailing-stop',
    order: { ...order, ai_t: side === 'S' ? 'LTP_B_O' : 'LTP_A_O' },
    trailBy: '20',
    tag: `xp${nextId()}`,
  };
};

/** The plan a confirm's answer names: its result, or a failure that says the plan is recorded (its stop unknown). */
const planIdOf = (content: Record<string, unknown>): string | undefined => {
  const planId = (content.result as { planId?: unknown } | undefined)?.planId;
  if (typeof planId === 'string') return planId;
  return /Plan (pl[0-9a-f]{16}) is recorded/.exec(JSON.stringify(content))?.[1];
};

/** What an answer says when it names no plan: its refusal, or its error's code and message. */
const whyNot = (content: Record<string, unknown>): string => {
  const error = content.error as { code?: unknown; message?: unknown } | undefined;
  return String(
    content.reason ?? (error ? `${String(error.code)}: ${String(error.message)}` : JSON.stringify(content)),
  );
};

const mcpExitTrailing = fc
  .record({
    side: fc.constantFrom<'B' | 'S' | 'closing'>('closing', 'closing', 'B', 'S'),
    qty: fc.integer({ min: 1, max: 7 }),
    confirm: fc.constantFrom(0, 1, 1, 2),
    trade: fc.constantFrom(0, 0, 4, 6, -3, -5),
  })
  .map(
    ({ side: chosen, qty, confirm, trade }) =>
      new Command(
        'mcp exit-only trailing stop',
        `mcp exit trailing stop ${chosen} x${qty}${confirm ? `, confirmed${confirm > 1 ? ' twice' : ''}` : ''}${trade ? `, after an outside trade of ${trade}` : ''}`,
        async (s) => {
          const me = await exitAssistant(s);
          if (trade !== 0) await tradeOutside(s, TSYM, START, trade);
          // `closing`: the side that reduces the position held now (a sell when flat).
          const side = chosen === 'closing' ? (held(s) < 0 ? 'B' : 'S') : chosen;
          const before = planGtts(s);
          const p = await callTool(s, me.token, 'create_plan', planArgs(side, qty));
          const id = p.content.confirmationId;
          s.log.push(`  exit trailing preview: ${p.content.refused ? `refused ${String(p.content.reason)}` : 'ok'}`);
          if (typeof id !== 'string' || !confirm) {
            if (planGtts(s) !== before) fail(s, 10, `a trailing-stop preview (not confirmed) placed a GTT of ${TSYM}`);
            return;
          }
          const position = held(s);
          const reducing = position > 0 ? 'S' : 'B';
          const pending = pendingExits(s, reducing);
          const c = await callTool(s, me.token, 'confirm', { confirmationId: id });
          const planId = planIdOf(c.content);
          s.log.push(`  exit trailing confirm (held ${position}, pending ${pending}): ${planId ?? whyNot(c.content)}`);
          if (!planId) {
            if (planGtts(s) !== before) fail(s, 10, `a refused trailing-stop confirm placed a GTT of ${TSYM}`);
            return;
          }
          const wrong =
            position === 0
              ? 'started with no position held'
              : side !== reducing
                ? `a ${side} stop started against a position of ${position}`
                : qty + pending > Math.abs(position)
                  ? `a stop of ${qty} started against a position of ${position} with exits of ${pending} pending`
                  : undefined;
          me.plans.set(planId, { side, qty, ...(wrong ? { wrong } : {}) });
          if (confirm > 1) {
            const again = await callTool(s, me.token, 'confirm', { confirmationId: id });
            s.log.push(`  exit trailing confirm again: ${planIdOf(again.content) ?? whyNot(again.content)}`);
          }
          if (planGtts(s) > before + 1) fail(s, 10, `one trailing-stop preview placed ${planGtts(s) - before} stops`);
        },
      ),
  );

/** Invariant 10 after every step, for the exit-only trailing stops: each plan GTT of the symbol was a checked confirm. */
export const checkExitPlus = (s: Sys, gtts: Order[]): void => {
  const me = PLUS.get(s);
  if (!me) return;
  for (const g of gtts) {
    const planId = g.tsym === TSYM ? PLAN_STAMP.exec(g.remarks)?.[1] : undefined;
    if (!planId) continue;
    const started = me.plans.get(planId);
    if (!started)
      fail(s, 10, `trailing stop ${g.al_id} "${g.remarks}" is at the broker, yet no exit confirm started it`);
    else if (started.wrong) fail(s, 10, `exit-only trailing stop ${g.al_id}: ${started.wrong}`);
    else if (g.kind !== 'gtt' || g.trantype !== started.side || g.qty > started.qty)
      fail(
        s,
        10,
        `exit-only trailing stop ${g.al_id} is ${g.kind} ${g.kind === 'gtt' ? `${g.trantype} x${g.qty}` : ''}, started as ${started.side} x${started.qty}`,
      );
  }
};

export const exitPlusCommands = { mcpExitTrailing };
