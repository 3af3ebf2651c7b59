/**
 * The in-memory plan engine's parts (option-plan-deps.ts) for the legs-as-one tests: what each order on a contract
 * does, in turn (filled in full, half, nothing, refused by the order core, the kill switch turned on just before it),
 * fills at the contract's price now, and the order core's kill switch as it is (an order with `exit: true` passes).
 */
import { ValidationFailedError } from '../../functions/base/contract/errors.js';
import { memoryDeps } from './option-plan-deps.js';

export type Outcome = 'all' | 'part' | 'none' | 'refuse' | 'halt' | 'lose';

export const legsDeps = (now: () => Date) => {
  const m = memoryDeps([], now);
  /** The outcomes of the next orders on each contract (tsym), in turn; none listed: filled in full. */
  const outcomes = new Map<string, Outcome[]>();
  const inner = m.deps.placeOrder;
  m.deps.placeOrder = async (input, deadline) => {
    const order = input as { exch: string; tsym: string; exit?: boolean; idempotencyKey: string };
    const next = outcomes.get(order.tsym)?.shift() ?? 'all';
    if (next === 'refuse')
      throw new ValidationFailedError(`prc is outside the day's band of ${order.tsym}`, { outcome: 'not_executed' });
    if (next === 'halt') m.broker.halted = true;
    if (next === 'lose') m.broker.loseReply = true;
    const halted = m.broker.halted;
    if (order.exit) m.broker.halted = false; // the kill switch lets an order through that only reduces
    m.broker.fill = next === 'part' || next === 'none' ? next : 'all';
    const price = m.prices.get(`${order.exch}:${order.tsym}`);
    m.broker.average = price === undefined ? undefined : String(price);
    try {
      return await inner(input, deadline);
    } finally {
      m.broker.halted = halted;
    }
  };
  m.deps.instrument = (_exch, tsym) => Promise.resolve({ tick: '0.05', lot: 65, token: `t-${tsym}` });
  return { ...m, outcomes };
};
