/**
 * The system model's close of a position (`POST /positions/close`, functions/risk/close.ts) on HDFCBANK-EQ, a symbol
 * no other command trades: after the trader maybe traded outside the gateway (a GTT at the emulator fired by the
 * price) and maybe left an exit resting outside (a GTT on the closing side the price does not reach), a close of the
 * whole position or a part, sometimes of more than is held, sometimes with its reply lost (the broker acted), sent
 * once or twice with one key. The model reads the position and the resting exits from the emulator's own state.
 *
 * Invariants: 1 (never twice): one key places at most one order at the broker, however often it is sent and whatever
 * reply was lost; 13 (a close never sells, or buys back, more than is held): the position never flips its sign, and
 * the exits resting on the closing side never exceed what is left of it (all of them firing cannot flip it); a close
 * refused (or the key's reply lost, then answered) sends nothing more; an answer of 200 names an order the broker holds
 * of that side and quantity.
 */
import fc from 'fast-check';

import { positionsOf } from '../../emulator/state/positions.js';
import { jdata } from '../contract/jdata-client.js';
import { fail, OUTSIDE } from './system-invariants.js';
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

const closePosition = fc
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
        'close position',
        `close ${TSYM}${qty === undefined ? '' : ` x${qty}`}${sends > 1 ? ', sent twice' : ''}${lost ? ', reply lost' : ''}${trade ? `, after an outside trade of ${trade}` : ''}${exit ? `, an exit of ${exit} resting` : ''}`,
        async (s) => {
          await s.w.control.ltp('NSE', TSYM, START, START);
          if (trade !== 0) await outsideGtt(s, trade > 0 ? 'B' : 'S', Math.abs(trade), true);
          const before = held(s);
          const closing = before < 0 ? 'B' : 'S';
          if (exit !== 0 && before !== 0) await outsideGtt(s, closing, exit, false);
          const pending = resting(s, closing);
          const placedBefore = plainOrders(s).length;
          const key = keyOf(nextId());
          const body = { exch: 'NSE', tsym: TSYM, prd: 'C', ...(qty === undefined ? {} : { qty }) };
          if (lost) await s.w.control.fault({ operation: 'PlaceOrder', kind: 'drop', executed: true, times: 1 });
          const answers = [];
          try {
            for (let i = 0; i < sends + (lost ? 1 : 0); i++)
              answers.push(await request(s.w, 'POST', '/positions/close', body, { 'Idempotency-Key': key }));
          } finally {
            if (lost) await s.w.control.clearFaults();
          }
          const after = held(s);
          const placed = plainOrders(s).slice(placedBefore);
          s.log.push(
            `  close (held ${before}, resting ${pending}): ${answers.map((a) => `${a.status} ${a.code ?? String(a.body.outcome)}`).join(', ')}; held ${after}`,
          );
          const size = Math.abs(before);
          const wanted = qty ?? size;
          const allowed = size > 0 && wanted <= size && wanted + pending <= size;
          if (placed.length > 1) fail(s, 1, `one close key placed ${placed.length} orders of ${TSYM}`);
          if (!allowed && placed.length > 0)
            fail(s, 13, `a close of ${wanted} (held ${before}, exits resting ${pending}) placed an order`);
          if (before !== 0 && Math.sign(after) === -Math.sign(before))
            fail(s, 13, `a close flipped ${TSYM} from ${before} to ${after}`);
          if (placed.length > 0 && resting(s, closing) > Math.abs(after))
            fail(s, 13, `after a close, exits of ${resting(s, closing)} rest on a position of ${after}`);
          for (const a of answers.filter((x) => x.status === 200)) {
            const order = placed.find((o) => o.norenordno === a.body.norenordno);
            if (!order || order.trantype !== closing || order.qty !== wanted)
              fail(
                s,
                13,
                `close answered ${JSON.stringify(a.body)}, the broker holds ${JSON.stringify(order ?? null)}`,
              );
          }
        },
      ),
  );

export const closeCommands = { closePosition };
