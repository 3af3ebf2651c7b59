/**
 * The system model's positions invariant (system-model.ts), checked after every step and at a sequence's end:
 *
 * 14. the positions the gateway answers are the broker's: when `GET /positions` succeeds, each position it lists
 *     (net quantity, average and last price, realised and unrealised P&L, the day's bought and sold quantities) is
 *     the emulator's own PositionBook record for the account (emulator/state/positions.ts over its order book and
 *     market), one for one, and its totals are their sums.
 *
 * The emulator's book is read before and after the request: a fill or a price move landing meanwhile (a late act,
 * the market) leaves nothing to compare, and only a book that stayed the same is held to. A failed read (the session
 * logged out, the broker's read faulted) is no claim. The read is a plain fetch: it counts in none of the model's
 * statistics, and no fault is armed on PositionBook, so it takes none meant for a step.
 */
import { instrumentToken } from '../../emulator/state/formats.js';
import { positionsOf } from '../../emulator/state/positions.js';
import { ltpKey } from '../../emulator/state/state.js';
import { fail } from './system-invariants.js';
import type { Sys } from './system-state.js';

/** A position as both sides are compared: numbers by name. */
type Figures = Record<string, number | undefined>;

/** The emulator's PositionBook of the model's account, keyed `exch|tsym|prd`. */
const brokerBook = (s: Sys): Map<string, Figures> => {
  const emulator = s.w.stack.emulator.emulator;
  const records = positionsOf(
    emulator.book.orders.values(),
    s.w.stack.emulator.uid,
    (exch, tsym) => instrumentToken(exch, tsym),
    (exch, tsym) => emulator.state.ltps.get(ltpKey(exch, tsym)),
  ) as Record<string, string | undefined>[];
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  return new Map(
    records.map((r) => [
      `${r.exch}|${r.tsym}|${r.prd}`,
      {
        netQty: num(r.netqty),
        averagePrice: num(r.netavgprc),
        lastPrice: num(r.lp),
        realised: num(r.rpnl),
        unrealised: num(r.urmtom),
        boughtQty: num(r.daybuyqty),
        soldQty: num(r.daysellqty),
      },
    ]),
  );
};

interface Answered {
  positions: (Figures & { exch: string; tsym: string; product: string })[];
  totals: { realised: number; unrealised: number; total: number; open: number };
}

const same = (a: Map<string, Figures>, b: Map<string, Figures>) =>
  JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/** Where the answer differs from the book, in words; none when it agrees. */
const differences = (answer: Answered, book: Map<string, Figures>): string[] => {
  const wrong: string[] = [];
  const seen = new Set<string>();
  for (const p of answer.positions) {
    const key = `${p.exch}|${p.tsym}|${p.product}`;
    seen.add(key);
    const held = book.get(key);
    if (!held) {
      wrong.push(`${key} answered (net ${p.netQty}) but the broker has no such position`);
      continue;
    }
    for (const [field, value] of Object.entries(held))
      if (Math.abs((p[field] ?? 0) - (value ?? 0)) > 0.005 || (value === undefined) !== (p[field] === undefined))
        wrong.push(`${key} ${field} answered ${p[field]}, the broker's ${value}`);
  }
  for (const key of book.keys()) if (!seen.has(key)) wrong.push(`${key} is the broker's but was not answered`);
  const sum = (field: string) => [...book.values()].reduce((n, f) => n + (f[field] ?? 0), 0);
  const open = [...book.values()].filter((f) => f.netQty !== 0).length;
  const t = answer.totals;
  if (Math.abs(t.realised - sum('realised')) > 0.005 || Math.abs(t.unrealised - sum('unrealised')) > 0.005)
    wrong.push(`totals ${JSON.stringify(t)} are not the book's sums`);
  if (t.open !== open) wrong.push(`totals say ${t.open} open, the broker's book ${open}`);
  return wrong;
};

/** Invariant 14: what GET /positions answers, when it answers, is the broker's PositionBook. */
export const checkPositions = async (s: Sys): Promise<void> => {
  const before = brokerBook(s);
  let status = 0;
  let body: unknown;
  try {
    const res = await fetch(`${s.w.stack.api.url}/positions`);
    status = res.status;
    body = await res.json();
  } catch {
    return; // no answer: nothing claimed
  }
  if (status !== 200) return;
  const after = brokerBook(s);
  if (!same(before, after)) return; // the book moved while it was read
  const wrong = differences(body as Answered, after);
  if (wrong.length) fail(s, 14, `GET /positions is not the broker's PositionBook: ${wrong.slice(0, 4).join('; ')}`);
};
