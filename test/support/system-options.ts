/**
 * Option plans in the system model (functions/plans/option-*.ts, docs/how-to/option-entry.md), by the ways a trader
 * uses: POST /plans `{kind: "option-entry"}` with a key (sent once or twice) and an assistant's create_plan over
 * /mcp, previewed then confirmed (an exit-only assistant's refused); and NIFTY's index (NSE "Nifty 50") moved across
 * the levels, a watcher run after it (its entry's PlaceOrder faulted or filled in part now and then). The day's chain
 * is loaded once per stack (POST /_local/run/InstrumentRefresh). The kill switch and the day's limits are driven by
 * their own commands (system-halts.ts, system-risk.ts) in the same sequences.
 *
 * Invariants, with option plans in the mix (checked against the emulator's order book, never the gateway's word):
 * 1. never twice: an option plan's entry (a plain order stamped `<planId>.e` in remarks) is placed at most once
 *    (checkOptions, in checkAll after every step); its exit OCO is a step of its plan as any plan's is;
 * 2. while the kill switch answered a complete sweep and is on, a watcher run places no option entry;
 * 4. the plan's record is the broker's: a plan that says it holds a position names the contract its entry order
 *    bought, with the quantity the broker filled, and its exit is an order the broker holds on that contract;
 * 10. an exit-only assistant's create_plan of an option entry is refused and creates no plan.
 */
import fc from 'fast-check';

import type { BookOrder } from '../../emulator/state/order-book.js';
import { startCloseOf } from '../../emulator/state/prices.js';
import { masterRows } from '../../emulator/state/symbol-master.js';
import { fail } from './system-invariants.js';
import { callTool } from './system-mcp.js';
import { type Fault, faultLabel, withFault } from './system-orders.js';
import { Command, keyOf, newIntent, nextId, record, type Sys } from './system-state.js';
import { request } from './system-world.js';

/** NIFTY's levels the index moves among (its strikes are multiples of 50 from 23000 to 27000). */
const LEVELS = [24_880, 24_950, 25_000, 25_060, 25_130, 25_210] as const;
const START = 25_000;

interface OptionState {
  level: number;
  planIds: Set<string>;
  trade?: string;
  exit?: string;
}
const states = new WeakMap<Sys, OptionState>();
/** The stacks whose day's chain is loaded (the chain lives in DynamoDB: a sequence's emulator reset keeps it). */
const loaded = new WeakSet<object>();

const index = async (s: Sys, ltp: number) => {
  const res = await fetch(`${s.w.stack.emulator.url}/_emulator/ltp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ exch: 'NSE', tsym: 'Nifty 50', ltp }),
  });
  if (!res.ok) throw new Error(`POST /_emulator/ltp Nifty 50: ${res.status}`);
  stateOf(s).level = ltp;
};

const stateOf = (s: Sys): OptionState => {
  let st = states.get(s);
  if (!st) states.set(s, (st = { level: NaN, planIds: new Set() }));
  return st;
};

/** The chain loaded, the index at a known level (START at a sequence's first option command). */
const ready = async (s: Sys): Promise<OptionState> => {
  if (!loaded.has(s.w.stack)) {
    const a = await request(s.w, 'POST', '/_local/run/InstrumentRefresh');
    if (a.status !== 200) throw new Error(`InstrumentRefresh: ${a.status} ${JSON.stringify(a.body)}`);
    loaded.add(s.w.stack);
  }
  const st = stateOf(s);
  if (Number.isNaN(st.level)) {
    await index(s, START);
    // The model's market has no start prices: the nearest expiry's contracts near the index quoted at their model
    // price at START (a plan's pick reads the contract's quote).
    const now = new Date();
    const rows = (masterRows('NFO', now) ?? [])
      .map((r) => r.split(','))
      .filter((r) => r[6] === 'OPTIDX' && r[3] === 'NIFTY');
    const nearest = rows[0]?.[5];
    for (const r of rows)
      if (r[5] === nearest && Math.abs(Number(r[8]) - START) <= 500) {
        const price = startCloseOf('NFO', r[4]!, now);
        if (price !== undefined) await s.w.control.ltp('NFO', r[4]!, price);
      }
  }
  return st;
};

const book = (s: Sys): BookOrder[] => [...s.w.stack.emulator.emulator.book.orders.values()];
/** The plain orders stamped as an option plan's entry. */
const entriesOf = (s: Sys, planId: string): BookOrder[] =>
  book(s).filter((o) => o.al_id === '' && o.remarks.startsWith(`${planId}.e`));
const allEntries = (s: Sys): number => [...stateOf(s).planIds].reduce((n, id) => n + entriesOf(s, id).length, 0);

/** Invariant 1 for option entries, after every step (system-invariants.ts checkAll). */
export const checkOptions = (s: Sys): void => {
  for (const planId of states.get(s)?.planIds ?? []) {
    const list = entriesOf(s, planId);
    if (list.length > 1)
      fail(s, 1, `option plan ${planId}: ${list.length} entry orders (${list.map((o) => o.norenordno).join(', ')})`);
  }
};

const body = (above: boolean, level: number, type: 'CE' | 'PE', lots: number) => ({
  kind: 'option-entry',
  underlying: 'NIFTY',
  when: above ? { above: String(level) } : { below: String(level) },
  pick: { expiry: 'nearest', strike: 'ATM', type },
  lots,
  exit: { stop: '30%', target: '40' },
});

const planArgs = fc.record({
  above: fc.boolean(),
  away: fc.constantFrom(40, 90, 150, -20),
  type: fc.constantFrom<'CE' | 'PE'>('CE', 'PE'),
  lots: fc.constantFrom(1, 2),
});

/** POST /plans with a key, once or twice (a client's retry: one plan). A level already crossed is refused. */
const optionPlan = fc.record({ plan: planArgs, twice: fc.boolean() }).map(
  ({ plan: { above, away, type, lots }, twice }) =>
    new Command(
      'option plan',
      `option plan ${type} ${above ? 'above' : 'below'} index${away >= 0 ? '+' : ''}${above ? away : -away} x${lots}${twice ? ' sent twice' : ''}`,
      async (s) => {
        const st = await ready(s);
        const level = st.level + (above ? away : -away);
        const key = keyOf(nextId());
        const input = body(above, level, type, lots);
        const sends = twice ? 2 : 1;
        for (let n = 0; n < sends; n += 1) {
          const started = Date.now();
          const a = await request(s.w, 'POST', '/plans', input, { 'Idempotency-Key': key });
          if (typeof a.body.planId === 'string' && !st.planIds.has(a.body.planId)) {
            st.planIds.add(a.body.planId);
            record(
              s,
              newIntent(s, { label: `option plan ${a.body.planId}`, kind: 'plan', key, planId: a.body.planId }),
              a,
              started,
            );
          } else s.log.push(`option plan (${n + 1}): ${a.status}${a.code ? ` ${a.code}` : ''}`);
        }
      },
    ),
);

const assistant = async (s: Sys, scope: 'trade' | 'exit'): Promise<string> => {
  const st = stateOf(s);
  const have = scope === 'trade' ? st.trade : st.exit;
  if (have) return have;
  const input = { name: `system-option-${scope}`, scopes: ['read', scope] };
  const a = await request(s.w, 'POST', '/assistants', input, { 'Idempotency-Key': keyOf(nextId()) });
  if (a.status !== 201) throw new Error(`POST /assistants: ${a.status} ${JSON.stringify(a.body)}`);
  const token = String(a.body.token);
  if (scope === 'trade') st.trade = token;
  else st.exit = token;
  return token;
};

const plansNow = async (s: Sys): Promise<number> =>
  ((await request(s.w, 'GET', '/plans?limit=1000')).body.plans as unknown[] | undefined)?.length ?? 0;

/** create_plan over /mcp: previewed, confirmed once or twice (one plan); an exit-only assistant's refused. */
const mcpOptionPlan = fc
  .record({ plan: planArgs, who: fc.constantFrom('trade', 'trade', 'exit'), twice: fc.boolean() })
  .map(
    ({ plan: { above, away, type, lots }, who, twice }) =>
      new Command(
        'mcp option plan',
        `mcp ${who} create_plan option ${type} ${above ? 'above' : 'below'} x${lots}${twice ? ', confirmed twice' : ''}`,
        async (s) => {
          const st = await ready(s);
          const token = await assistant(s, who as 'trade' | 'exit');
          const level = st.level + (above ? away : -away);
          // The tool takes the level as a number (the API takes a string too).
          const when = above ? { above: level } : { below: level };
          const input = { ...body(above, level, type, lots), when, tag: `mo${nextId()}` };
          const before = who === 'exit' ? await plansNow(s) : 0;
          const p = await callTool(s, token, 'create_plan', input);
          const id = p.content.confirmationId;
          s.log.push(
            `  mcp ${who} create_plan option: ${typeof id === 'string' ? 'preview' : JSON.stringify(p.content).slice(0, 90)}`,
          );
          if (who === 'exit') {
            if (typeof id === 'string' || !p.content.refused)
              fail(s, 10, `an exit-only assistant's option create_plan was not refused: ${JSON.stringify(p.content)}`);
            if ((await plansNow(s)) !== before) fail(s, 10, `an exit-only assistant's option create_plan made a plan`);
            return;
          }
          if (typeof id !== 'string') return;
          for (let n = 0; n < (twice ? 2 : 1); n += 1) {
            const c = await callTool(s, token, 'confirm', { confirmationId: id });
            const planId = (c.content.result as { planId?: unknown } | undefined)?.planId;
            s.log.push(
              `  confirm (${n + 1}): ${typeof planId === 'string' ? planId : JSON.stringify(c.content).slice(0, 90)}`,
            );
            if (typeof planId === 'string' && !st.planIds.has(planId)) {
              st.planIds.add(planId);
              newIntent(s, { label: `mcp option plan ${planId}`, kind: 'plan', planId });
            }
          }
        },
      ),
  );

type Outcome = { status: 'filled' } | { status: 'partial'; fillQty: number } | { status: 'rejected' } | undefined;

/** The entry's PlaceOrder now and then failing, or its reply lost (acted or not). Own list: system-orders.ts imports
 * system-invariants.ts, which imports this file. */
const FAULTS = fc.constantFrom<Fault>(
  undefined,
  undefined,
  undefined,
  { kind: 'drop', executed: true },
  { kind: 'drop', executed: false },
  { kind: 'http5xx' },
);

/** The index moved to a level (across some plans' levels, or not), then one watcher run; what the broker holds checked. */
const indexMove = fc
  .record({
    level: fc.constantFrom(...LEVELS),
    next: fc.constantFrom<Outcome>(undefined, undefined, { status: 'partial', fillQty: 25 }, { status: 'rejected' }),
    fault: FAULTS,
  })
  .map(
    ({ level, next, fault }) =>
      new Command(
        'index move',
        `index ${level}, watcher run${next ? ` (next order ${next.status})` : ''}${faultLabel(fault)}`,
        async (s) => {
          await ready(s);
          await index(s, level);
          if (next)
            await fetch(`${s.w.stack.emulator.url}/_emulator/next-order`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(next),
            });
          const halted = s.halt === 'clean';
          const before = allEntries(s);
          await withFault(s, 'PlaceOrder', fault, async () => {
            const run = await s.w.stack.watch().then(
              () => 'ok',
              (error: unknown) => `failed: ${(error as Error).message}`,
            );
            s.log.push(`watcher: ${run}`);
          });
          if (halted && s.halt === 'clean' && allEntries(s) > before)
            fail(s, 2, `the kill switch is on after a complete sweep, yet a watcher run placed an option entry`);
          await recordedIsBrokers(s);
        },
      ),
  );

interface PlanRecord {
  planId: string;
  state: string;
  tsym: string;
  alIds?: Record<string, string>;
  position?: { side: string; qty: number };
}

/** Invariant 4: a plan holding a position names what its one entry order bought, and its exit is on that contract. */
const recordedIsBrokers = async (s: Sys): Promise<void> => {
  for (const planId of stateOf(s).planIds) {
    const p = (await request(s.w, 'GET', `/plans/${planId}`)).body as unknown as PlanRecord;
    if (!p.position) continue;
    const entry = entriesOf(s, planId)[0];
    // The history is newest first.
    const filled = entry ? (entry.history[0]?.fillshares ?? 0) : 0;
    if (!entry || entry.tsym !== p.tsym || filled !== p.position.qty)
      fail(
        s,
        4,
        `option plan ${planId} says it holds ${p.position.qty} ${p.tsym}, the broker's entry is ${entry ? `${entry.tsym} filled ${filled}` : 'absent'}`,
      );
    const exit = p.alIds?.exit && s.w.stack.emulator.emulator.state.orders.get(p.alIds.exit);
    if (p.alIds?.exit && (!exit || exit.tsym !== p.tsym))
      fail(s, 4, `option plan ${planId}'s exit ${p.alIds.exit} is not the broker's order on ${p.tsym}`);
  }
};

export const optionCommands = { optionPlan, mcpOptionPlan, indexMove };
