/**
 * What the system model's position commands share (system-exit.ts, system-exit-plus.ts, system-exit-gap.ts,
 * system-cover-gap.ts, system-close.ts), each on a symbol of its own: the net quantity the emulator's own fills
 * make, what its pending GTTs would close, and the trader's trade outside the gateway that opens a position.
 */
import { positionsOf } from '../../emulator/state/positions.js';
import type { Order } from '../../emulator/state/state.js';
import { jdata } from '../contract/jdata-client.js';
import { OUTSIDE } from './system-invariants.js';
import type { Sys } from './system-state.js';
import { wireGtt } from './wire-order.js';

/** The net quantity of NSE:`tsym` product C, from the emulator's own fills. */
export const heldOf = (s: Sys, tsym: string): number =>
  positionsOf(
    s.w.stack.emulator.emulator.book.orders.values(),
    s.w.stack.emulator.uid,
    () => '',
    () => undefined,
  )
    .filter((p) => p.exch === 'NSE' && p.tsym === tsym && p.prd === 'C')
    .reduce((sum, p) => sum + Number(p.netqty), 0);

/** Every GTT and OCO the emulator ever held. */
export const emulatorGtts = (s: Sys): Order[] => [...s.w.stack.emulator.emulator.state.orders.values()];

/** What the pending GTTs of `tsym` (product C) would sell (buy): an OCO once, at its larger leg on that side. */
export const pendingExitsOf = (gtts: readonly Order[], tsym: string, side: 'B' | 'S'): number =>
  gtts
    .filter((g) => g.tsym === tsym && g.state === 'pending')
    .map((g) => (g.kind === 'oco' ? [g.legs.x, g.legs.y] : [g]).filter((o) => o.trantype === side && o.prd === 'C'))
    .reduce((sum, legs) => sum + Math.max(0, ...legs.map((o) => o.qty)), 0);

/**
 * The trader's own trade outside the gateway: a GTT at the emulator 10 from `start` (below it for a buy, above for a
 * sell), fired at once by the price crossing it, then the price back at `start`. Logged with what is held after.
 */
export const tradeOutside = async (s: Sys, tsym: string, start: number, qty: number): Promise<void> => {
  const { emulator } = s.w.stack;
  const { token } = await s.w.control.newSession(emulator.uid);
  const buy = qty > 0;
  const at = String(buy ? start - 10 : start + 10);
  const fields = wireGtt(
    {
      tsym,
      qty: String(Math.abs(qty)),
      prc: at,
      d: at,
      trantype: buy ? 'B' : 'S',
      ai_t: buy ? 'LTP_B_O' : 'LTP_A_O',
      remarks: OUTSIDE,
    },
    emulator,
  );
  const reply = await jdata(emulator.url, 'PlaceGTTOrder', fields, token);
  await s.w.control.ltp('NSE', tsym, buy ? start - 11 : start + 11);
  await s.w.control.ltp('NSE', tsym, start);
  s.log.push(
    `  outside ${buy ? 'buy' : 'sell'} ${Math.abs(qty)} ${tsym}: ${reply.status}, held now ${heldOf(s, tsym)}`,
  );
};
