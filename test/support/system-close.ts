/**
 * The system model's close of a position (`POST /positions/close`, functions/risk/close.ts, over the API with one key,
 * or over /mcp by an exit-only assistant's `close_position`, previewed then confirmed) on HDFCBANK-EQ, a symbol no
 * other command trades: after the trader maybe traded outside the gateway (a GTT at the emulator fired by the
 * price) and maybe left an exit resting outside (a GTT on the closing side the price does not reach), a close of the
 * whole position or a part, sometimes of more than is held, sometimes with its reply lost (the broker acted), sent
 * once or twice with one key. The model reads the position and the resting exits from the emulator's own state.
 *
 * Invariants: 1 (never twice): one key places at most one order at the broker, however often it is sent and whatever
 * reply was lost; 13 (a close never sells, or buys back, more than is held): the position never flips its sign, and
 * the exits resting on the closing side never exceed what is left of it (all of them firing cannot flip it); a close
 * refused (or the key's reply lost, then answered, or a confirm sent twice) sends nothing more; an answer that names an
 * order names one the broker holds of that side and quantity.
 */
import fc from 'fast-check';

import { positionsOf } from '../../emulator/state/positions.js';
import { jdata } from '../contract/jdata-client.js';
import { fail, OUTSIDE } from './system-invariants.js';
import { callTool } from './system-mcp.js';
import { Command, keyOf, nextId, type Sys } from './system-state.js';
import { request } from './system-world.js';
import { wireGtt } from './wire-order.js';

const TSYM = 'HDFCBANK-EQ';
const START = 1500;

const book = (s: Sys) => [...s.w.stack.emulator.emulator.book.orders.values()];
/** The plain orders (PlaceOrder's: no GTT behind them) of the symbol the broker ever held. */
const plainOrders = (s: Sys) => book(s).filter((o) => o.tsym === TSYM && o.al_id === '');
/** The net quantity of NSE:HDFCBANK-EQ product C, from the emulator's own fills. */
const held = (s: Sys): number =>
  positionsOf(
    book(s),
    s.w.stack.emulator.uid,
    () => '',
    () => undefined,
  )
    .filter((p) => p.exch === 'NSE' && p.tsym === TSYM && p.prd === 'C')
    .reduce((sum, p) => sum + Number(p.netqty), 0);
/** What the pending GTTs of the symbol would sell (buy): an OCO once, at its larger leg on that side. */
const resting = (s: Sys, side: 'B' | 'S'): number =>
  [...s.w.stack.emulator.emulator.state.orders.values()]
    .filter((g) => g.tsym === TSYM && g.state === 'pending')
    .map((g) => (g.kind === 'oco' ? [g.legs.x, g.legs.y] : [g]).filter((o) => o.trantype === side && o.prd === 'C'))
    .reduce((sum, legs) => sum + Math.max(0, ...legs.map((o) => o.qty)), 0);

/** A GTT of the trader's own at the emulator: fired at once (`fire`) or left resting far from the price. */
const outsideGtt = async (s: Sys, side: 'B' | 'S', qty: number, fire: boolean): Promise<void> => {
  const { emulator } = s.w.stack;
  const { token } = await s.w.control.newSession(emulator.uid);
  // A buy fires when the price falls to it, a sell when it rises to it; a resting exit sits 200 away.
  const at = String(fire ? (side === 'B' ? START - 10 : START + 10) : side === 'B' ? START + 200 : START - 200);
  const fields = wireGtt(
    {
      tsym: TSYM,
      qty: String(qty),
      prc: at,
      d: at,
      trantype: side,
      ai_t: fire === (side === 'B') ? 'LTP_B_O' : 'LTP_A_O',
      remarks: OUTSIDE,
    },
    emulator,
  );
  const reply = await jdata(emulator.url, 'PlaceGTTOrder', fields, token);
  if (fire) {
    await s.w.control.ltp('NSE', TSYM, side === 'B' ? START - 11 : START + 11, START);
    await s.w.control.ltp('NSE', TSYM, START, START);
  }
  s.log.push(`  outside ${fire ? '' : 'resting '}${side} ${qty} ${TSYM}: ${reply.status}, held now ${held(s)}`);
};

/** An assistant with scopes read and exit, made once per sequence (its token). */
const ASSISTANTS = new WeakMap<Sys, string>();
const exitAssistant = async (s: Sys): Promise<string> => {
  const known = ASSISTANTS.get(s);
  if (known) return known;
  const body = { name: 'system-close', scopes: ['read', 'exit'] };
  const a = await request(s.w, 'POST', '/assistants', body, { 'Idempotency-Key': keyOf(nextId()) });
  if (a.status !== 201) throw new Error(`POST /assistants (close): ${a.status} ${JSON.stringify(a.body)}`);
  ASSISTANTS.set(s, String(a.body.token));
  return String(a.body.token);
};

type Body = Record<string, unknown>;
/** One close sent `sends` times (one more after a lost reply): what each answer said, and the results it named. */
type Sender = (s: Sys, body: Body, sends: number) => Promise<{ said: string[]; results: Body[] }>;

/** Over the API: one Idempotency-Key for every send. */
const overHttp: Sender = async (s, body, sends) => {
  const key = keyOf(nextId());
  const answers = [];
  for (let i = 0; i < sends; i++)
    answers.push(await request(s.w, 'POST', '/positions/close', body, { 'Idempotency-Key': key }));
  return {
    said: answers.map((a) => `${a.status} ${a.code ?? String(a.body.outcome)}`),
    results: answers.filter((a) => a.status === 200).map((a) => a.body),
  };
};

/** Over /mcp: an exit-only assistant's preview, then its confirm sent `sends` times. */
const overMcp: Sender = async (s, body, sends) => {
  const token = await exitAssistant(s);
  const preview = await callTool(s, token, 'close_position', body);
  const id = preview.content.confirmationId;
  if (typeof id !== 'string')
    return { said: [`preview: ${JSON.stringify(preview.content).slice(0, 160)}`], results: [] };
  const said = ['preview ok'];
  const results: Body[] = [];
  for (let i = 0; i < sends; i++) {
    const c = await callTool(s, token, 'confirm', { confirmationId: id });
    const result = c.content.result as Body | undefined;
    said.push(c.content.confirmed ? `confirmed ${String(result?.outcome)}` : JSON.stringify(c.content).slice(0, 120));
    if (c.content.confirmed && result) results.push(result);
  }
  return { said, results };
};

const closing = (kind: string, send: Sender) =>
  fc
    .record({
      trade: fc.constantFrom(5, 3, -4, 0),
      exit: fc.constantFrom(0, 0, 0, 2, 5),
      qty: fc.constantFrom<number | undefined>(undefined, undefined, undefined, 1, 3, 6),
      sends: fc.constantFrom(1, 1, 2),
      lost: fc.constantFrom(false, false, true),
    })
    .map(
      ({ trade, exit, qty, sends, lost }) =>
        new Command(
          kind,
          `${kind} ${TSYM}${qty === undefined ? '' : ` x${qty}`}${sends > 1 ? ', sent twice' : ''}${lost ? ', reply lost' : ''}${trade ? `, after an outside trade of ${trade}` : ''}${exit ? `, an exit of ${exit} resting` : ''}`,
          async (s) => {
            await s.w.control.ltp('NSE', TSYM, START, START);
            if (trade !== 0) await outsideGtt(s, trade > 0 ? 'B' : 'S', Math.abs(trade), true);
            const before = held(s);
            const side = before < 0 ? 'B' : 'S';
            if (exit !== 0 && before !== 0) await outsideGtt(s, side, exit, false);
            const pending = resting(s, side);
            const placedBefore = plainOrders(s).length;
            const body = { exch: 'NSE', tsym: TSYM, prd: 'C', ...(qty === undefined ? {} : { qty }) };
            if (lost) await s.w.control.fault({ operation: 'PlaceOrder', kind: 'drop', executed: true, times: 1 });
            let sent: Awaited<ReturnType<Sender>>;
            try {
              sent = await send(s, body, sends + (lost ? 1 : 0));
            } finally {
              if (lost) await s.w.control.clearFaults();
            }
            const after = held(s);
            const placed = plainOrders(s).slice(placedBefore);
            s.log.push(`  ${kind} (held ${before}, resting ${pending}): ${sent.said.join(', ')}; held ${after}`);
            const size = Math.abs(before);
            const wanted = qty ?? size;
            const allowed = size > 0 && wanted <= size && wanted + pending <= size;
            if (placed.length > 1) fail(s, 1, `one close placed ${placed.length} orders of ${TSYM}`);
            if (!allowed && placed.length > 0)
              fail(s, 13, `a close of ${wanted} (held ${before}, exits resting ${pending}) placed an order`);
            if (before !== 0 && Math.sign(after) === -Math.sign(before))
              fail(s, 13, `a close flipped ${TSYM} from ${before} to ${after}`);
            if (placed.length > 0 && resting(s, side) > Math.abs(after))
              fail(s, 13, `after a close, exits of ${resting(s, side)} rest on a position of ${after}`);
            for (const r of sent.results) {
              const order = placed.find((o) => o.norenordno === r.norenordno);
              if (!order || order.trantype !== side || order.qty !== wanted)
                fail(s, 13, `close answered ${JSON.stringify(r)}, the broker holds ${JSON.stringify(order ?? null)}`);
            }
          },
        ),
    );

const closePosition = closing('close position', overHttp);
const mcpClosePosition = closing('mcp close position', overMcp);

export const closeCommands = { closePosition, mcpClosePosition };
