/**
 * The system model's exit-only assistant (scopes read and exit) over the real remote MCP route (`POST /mcp`): the
 * trader first buys or sells some WIPRO-EQ outside the gateway (a GTT at the emulator fired by the price, so a
 * position is held, long or short, or none), then the assistant previews GTTs and OCOs there of either side and any
 * size, confirms some, and changes its own orders' quantity up or down. Before each confirm the model reads the
 * position from the emulator's own book (its fills), never from the gateway.
 *
 * Invariant 10, an exit-only key never increases exposure: every broker order carrying the exit assistant's tag was
 * answered by one of its confirms, and at that confirm it was opposite to the position held and no larger than it
 * (each OCO leg); a change never leaves one of its orders larger than it was placed. (The gateway also counts the
 * pending exits of the position; the model holds it to the position alone, which no other command can race.)
 */
import fc from 'fast-check';

import type { Order } from '../../emulator/state/state.js';
import { fail } from './system-invariants.js';
import { callTool } from './system-mcp.js';
import { heldOf, tradeOutside } from './system-outside.js';
import { Command, keyOf, nextId, type Sys } from './system-state.js';
import { request } from './system-world.js';

interface Placed {
  qty: number;
  /** Why it should not have been placed, when it should not. */
  wrong?: string;
}
interface ExitState {
  token: string;
  tag: string;
  placed: Map<string, Placed>;
}
const EXIT = new WeakMap<Sys, ExitState>();

const exitAssistant = async (s: Sys): Promise<ExitState> => {
  const known = EXIT.get(s);
  if (known) return known;
  const body = { name: 'system-exit', scopes: ['read', 'exit'] };
  const a = await request(s.w, 'POST', '/assistants', body, { 'Idempotency-Key': keyOf(nextId()) });
  if (a.status !== 201) throw new Error(`POST /assistants (exit): ${a.status} ${JSON.stringify(a.body)}`);
  const state = { token: String(a.body.token), tag: `ex${String(nextId()).padStart(7, '0')}`, placed: new Map() };
  EXIT.set(s, state);
  return state;
};

/** A symbol no other command trades (its start price 1450), so the positions here are the exit command's own. */
const TSYM = 'WIPRO-EQ';
/** The net quantity of NSE:WIPRO-EQ product C, from the emulator's own fills. */
const held = (s: Sys): number => heldOf(s, TSYM);

const bodyOf = (tag: string, kind: 'gtt' | 'oco', side: 'B' | 'S', qty: number) => {
  const up = side === 'S';
  if (kind === 'gtt')
    return {
      exch: 'NSE',
      tsym: TSYM,
      qty,
      prd: 'C',
      trantype: side,
      prctyp: 'LMT',
      ret: 'DAY',
      ai_t: up ? 'LTP_A_O' : 'LTP_B_O',
      d: up ? '1500' : '1400',
      prc: up ? '1500' : '1400',
      tag,
    };
  const leg = (trigger: string) => ({ trigger, order: { trantype: side, prctyp: 'LMT', qty, prc: trigger, prd: 'C' } });
  return { exch: 'NSE', tsym: TSYM, tag, target: leg(up ? '1520' : '1380'), stopLoss: leg(up ? '1380' : '1520') };
};

const legQtys = (g: Order): number[] => (g.kind === 'oco' ? [g.legs.x.qty, g.legs.y.qty] : [g.qty]);
const sidesOf = (g: Order): string[] => (g.kind === 'oco' ? [g.legs.x.trantype, g.legs.y.trantype] : [g.trantype]);

/** The exit assistant previews a place and maybe confirms it; the position read just before the confirm judges it. */
const mcpExit = fc
  .record({
    kind: fc.constantFrom<'gtt' | 'oco'>('gtt', 'gtt', 'oco'),
    side: fc.constantFrom<'B' | 'S'>('B', 'S', 'S'),
    qty: fc.integer({ min: 1, max: 6 }),
    confirm: fc.boolean(),
    trade: fc.constantFrom(0, 0, 3, 5, -2),
  })
  .map(
    ({ kind, side, qty, confirm, trade }) =>
      new Command(
        'mcp exit-only',
        `mcp exit place_${kind} ${side} x${qty}${confirm ? ', confirmed' : ''}${trade ? `, after an outside trade of ${trade}` : ''}`,
        async (s) => {
          const me = await exitAssistant(s);
          if (trade !== 0) await tradeOutside(s, TSYM, 1450, trade);
          const tag = `${me.tag}:${nextId()}`;
          const p = await callTool(s, me.token, `place_${kind}`, bodyOf(tag, kind, side, qty));
          const id = p.content.confirmationId;
          s.log.push(
            `  exit preview: ${p.content.refused ? `refused ${String(p.content.reason).slice(0, 80)}` : 'ok'}`,
          );
          if (!confirm || typeof id !== 'string') return;
          const position = held(s);
          const c = await callTool(s, me.token, 'confirm', { confirmationId: id });
          const alId = (c.content.result as { al_id?: unknown } | undefined)?.al_id;
          s.log.push(
            `  exit confirm (held ${position}): ${typeof alId === 'string' ? alId : String(c.content.reason)}`,
          );
          if (typeof alId !== 'string') return;
          const opposite = position > 0 ? 'S' : 'B';
          const wrong =
            position === 0
              ? `placed with no position held`
              : side !== opposite
                ? `a ${side} placed against a position of ${position}`
                : qty > Math.abs(position)
                  ? `${qty} placed against a position of ${position}`
                  : undefined;
          me.placed.set(alId, { qty, ...(wrong ? { wrong } : {}) });
        },
      ),
  );

/** The exit assistant changes one of its pending orders' quantity (raised as often as not). */
const mcpExitChange = fc.record({ qty: fc.integer({ min: 1, max: 12 }) }).map(
  ({ qty }) =>
    new Command('mcp exit-only change', `mcp exit change_gtt to x${qty}`, async (s) => {
      const me = await exitAssistant(s);
      const order = [...s.w.stack.emulator.emulator.state.orders.values()].find(
        (g) => g.kind === 'gtt' && g.state === 'pending' && me.placed.has(g.al_id),
      );
      if (!order) return;
      const p = await callTool(s, me.token, 'change_gtt', { alId: order.al_id, qty });
      const id = p.content.confirmationId;
      const c = typeof id === 'string' ? await callTool(s, me.token, 'confirm', { confirmationId: id }) : p;
      s.log.push(`  exit change ${order.al_id}: ${c.content.confirmed ? 'done' : String(c.content.reason ?? 'error')}`);
    }),
);

/** Invariant 10 after every step: each broker order of the exit assistant's was a checked confirm, never grown. */
export const checkExit = (s: Sys, gtts: Order[]): void => {
  const me = EXIT.get(s);
  if (!me) return;
  for (const g of gtts) {
    if (!g.remarks.startsWith(`${me.tag}:`)) continue;
    const placed = me.placed.get(g.al_id);
    if (!placed) fail(s, 10, `exit-only order ${g.al_id} "${g.remarks}" is at the broker, yet no confirm answered it`);
    else if (placed.wrong) fail(s, 10, `exit-only order ${g.al_id}: ${placed.wrong}`);
    else if (legQtys(g).some((q) => q > placed.qty))
      fail(s, 10, `exit-only order ${g.al_id} holds ${legQtys(g).join('/')}, placed at ${placed.qty}`);
    else if (new Set(sidesOf(g)).size !== 1)
      fail(s, 10, `exit-only order ${g.al_id} has legs of both sides: ${sidesOf(g).join('/')}`);
  }
};

export const exitCommands = { mcpExit, mcpExitChange };
