/**
 * The exit-only rule counts what the live plans owe (functions/base/schemas/exit-only.ts, `planOwedExit`): a trailing
 * stop's stop and a filled bracket's exit count against the position whether they rest at the broker or not (a first
 * place whose reply was lost, an exit the watcher has still to place), and a plan whose GTT is at the broker is
 * counted once, found by its al_id or by its stamp in the tag. The MCP server's check reads every page of the plans,
 * and a plans read that fails refuses.
 */
import { describe, expect, it } from 'vitest';

import {
  exitOnlyLine,
  exitOnlyRefusal,
  owedExitsOf,
  planExitOrder,
  planOwedExit,
  waitingExits,
} from '../../functions/base/schemas/exit-only.js';
import { exitOnlyCheck } from '../../mcp/exit-only.js';
import type { GatewayPort } from '../../mcp/port.js';

const at = { exch: 'NSE', tsym: 'INFY-EQ', prd: 'C' };
const sell = (qty: number) => ({ ...at, trantype: 'S', qty });
const buy = (qty: number) => ({ ...at, trantype: 'B', qty });
const held = (netQty: number) => [{ exch: 'NSE', tsym: 'INFY-EQ', product: 'C', netQty }];
const PLAN = 'pl0123456789abcdef';
const OTHER = 'plfedcba9876543210';

const trailing = (fields: Record<string, unknown> = {}, order: Record<string, unknown> = {}) => ({
  planId: PLAN,
  kind: 'trailing-stop',
  state: 'armed',
  exch: 'NSE',
  tsym: 'INFY-EQ',
  alIds: {},
  order: { ...at, trantype: 'S', qty: 5, prctyp: 'LMT', ai_t: 'LTP_B_O', d: '1400', prc: '1400' },
  ...fields,
  ...(Object.keys(order).length ? { order: { ...at, trantype: 'S', qty: 5, ...order } } : {}),
});
const bracket = (state: string, fields: Record<string, unknown> = {}) => ({
  planId: OTHER,
  kind: 'bracket',
  state,
  exch: 'NSE',
  tsym: 'INFY-EQ',
  alIds: {},
  entry: { ...at, trantype: 'B', qty: 4 },
  ...(state === 'armed' ? {} : { position: { side: 'B', qty: 4 } }),
  ...fields,
});
const stop = (alId: string, qty: number, tag?: string) => ({
  al_id: alId,
  type: 'single',
  ...at,
  trantype: 'S',
  qty: String(qty),
  ...(tag ? { tag } : {}),
});
const exitOco = (alId: string, qty: number, tag: string) => ({
  al_id: alId,
  type: 'oco',
  ...at,
  tag,
  target: { trigger: '1600', order: { trantype: 'S', qty: String(qty), prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', qty: String(qty), prd: 'C' } },
});

describe('a live plan owes its exit', () => {
  it('a trailing stop whose stop is not at the broker yet (a lost reply) uses the room: a further sell is refused', () => {
    const owed = owedExitsOf([trailing({ inFlight: { stamp: `${PLAN}.s` } })]);
    expect(owed).toEqual([{ planId: PLAN, ...at, trantype: 'S', qty: 5, what: 'its stop', alIds: [] }]);
    expect(exitOnlyRefusal(sell(1), held(5), [], owed)).toBe(
      `EXIT_ONLY: a sell of 1 NSE:INFY-EQ (product C) would exceed the long of 5 (pending exits sell 5, of which live plans owe 5: plan ${PLAN} 5, its stop not at the broker yet): at most 0 more may be sold`,
    );
    expect(exitOnlyRefusal(sell(2), held(7), [], owed)).toBeUndefined();
    expect(exitOnlyRefusal(sell(3), held(7), [], owed)).toMatch(/at most 2 more may be sold$/);
  });

  it('a plan whose stop is at the broker is counted once, found by its al_id or by its stamp', () => {
    const known = owedExitsOf([trailing({ alIds: { stop: '101' } })]);
    expect(waitingExits([stop('101', 5)], known, at, 'S').total).toBe(5);
    expect(exitOnlyRefusal(sell(5), held(10), [stop('101', 5)], known)).toBeUndefined();
    expect(exitOnlyRefusal(sell(6), held(10), [stop('101', 5)], known)).toBe(
      `EXIT_ONLY: a sell of 6 NSE:INFY-EQ (product C) would exceed the long of 10 (pending exits sell 5, of which live plans owe 5: plan ${PLAN} 5, its stop at the broker): at most 5 more may be sold`,
    );
    // A lost reply adopted later: the record has no al_id yet, the GTT carries the plan's stamp.
    const adopting = owedExitsOf([trailing({ inFlight: { stamp: `${PLAN}.s` } })]);
    expect(waitingExits([stop('102', 5, `${PLAN}.s`)], adopting, at, 'S').total).toBe(5);
    // Another exit beside it still counts.
    expect(waitingExits([stop('102', 5, `${PLAN}.s`), stop('103', 2)], adopting, at, 'S').total).toBe(7);
    expect(exitOnlyLine(sell(1), held(10), [stop('101', 5)], known)).toBe(
      `exit-only: NSE:INFY-EQ (product C) held 10, pending exits sell 5, of which live plans owe 5: plan ${PLAN} 5, its stop at the broker (positions, pending orders and plans read now)`,
    );
  });

  it("a filled bracket's exit counts, placed or owed; an armed bracket and an ended plan owe nothing", () => {
    expect(planOwedExit(bracket('armed'))).toBeUndefined();
    expect(planOwedExit(bracket('entry-filled'))).toMatchObject({ trantype: 'S', qty: 4, what: 'its exit' });
    const armed = owedExitsOf([bracket('exit-armed', { alIds: { entry: '1', exit: '201' } })]);
    expect(waitingExits([exitOco('201', 4, `${OTHER}.x1`)], armed, at, 'S').total).toBe(4);
    expect(exitOnlyRefusal(sell(1), held(4), [exitOco('201', 4, `${OTHER}.x1`)], armed)).toMatch(
      new RegExp(`plan ${OTHER} 4, its exit at the broker\\): at most 0 more`),
    );
    expect(planOwedExit(bracket('unprotected', { retrying: true }))).toMatchObject({ qty: 4 });
    expect(planOwedExit(bracket('unprotected', { retrying: false, inFlight: { stamp: 'x' } }))).toMatchObject({
      qty: 4,
    });
    expect(planOwedExit(bracket('unprotected', { retrying: false }))).toBeUndefined();
    for (const state of ['done', 'failed', 'cancelled']) expect(planOwedExit(bracket(state)), state).toBeUndefined();
    for (const state of ['unprotected', 'done', 'failed', 'cancelled'])
      expect(planOwedExit(trailing({ state })), state).toBeUndefined();
  });

  it('an option plan owes its exit as a bracket once its entry filled; watching or entering, nothing', () => {
    const NFO = { exch: 'NFO', tsym: 'NIFTY08DEC26C24500', prd: 'M' };
    const option = (state: string, fields: Record<string, unknown> = {}) => ({
      ...bracket(state, fields),
      kind: 'option-entry',
      ...NFO,
      entry: { ...NFO, trantype: 'B', qty: 130, prctyp: 'LMT', ret: 'IOC', prc: '103' },
      ...(state === 'watching' || state === 'entry-placed'
        ? { position: undefined }
        : { position: { side: 'B', qty: 130 } }),
    });
    for (const state of ['watching', 'entry-placed', 'done', 'failed', 'cancelled'])
      expect(planOwedExit(option(state)), state).toBeUndefined();
    const owed = owedExitsOf([option('exit-armed', { alIds: { exit: '301' } })]);
    expect(owed).toMatchObject([{ ...NFO, trantype: 'S', qty: 130, what: 'its exit', alIds: ['301'] }]);
    const long = [{ exch: 'NFO', tsym: NFO.tsym, product: 'M', netQty: 130 }];
    expect(exitOnlyRefusal({ ...NFO, trantype: 'S', qty: 65 }, long, [], owed)).toMatch(/at most 0 more may be sold/);
  });

  it('an exit-only caller may not start an option plan: it opens a position', () => {
    expect(planExitOrder({ kind: 'option-entry', underlying: 'NIFTY', lots: 1 })).toEqual({
      refused:
        'EXIT_ONLY: an option-entry plan places an entry that opens a position, which an exit-only caller may not; a trailing-stop plan on the side that closes the position may be started',
    });
  });

  it("another symbol's, product's or side's plan is not counted", () => {
    const owed = owedExitsOf([
      trailing({ planId: 'pl0000000000000001' }, { tsym: 'TCS-EQ' }),
      trailing({ planId: 'pl0000000000000002' }, { prd: 'I' }),
      trailing({ planId: 'pl0000000000000003' }, { trantype: 'B' }),
    ]);
    expect(owed).toHaveLength(3);
    expect(exitOnlyRefusal(sell(5), held(5), [], owed)).toBeUndefined();
    // A short's buy counts the buy stop.
    expect(exitOnlyRefusal(buy(1), held(-5), [], owed)).toMatch(/pending exits buy 5, of which live plans owe 5/);
  });
});

describe("the MCP server's check reads the plans over its port", () => {
  /** A port over a long of 5 INFY-EQ, nothing pending, and the plans in two pages (or a plans read that fails). */
  const port = (plans: 'fail' | Record<string, unknown>[][]): GatewayPort => ({
    call: (request) => {
      if (request.operation === 'GetPositions') return Promise.resolve({ positions: held(5) });
      if (request.operation === 'GetPendingGTTOrder') return Promise.resolve({ orders: [] });
      if (request.operation !== 'ListPlans') return Promise.reject(new Error(`unexpected ${request.operation}`));
      if (plans === 'fail') return Promise.reject(Object.assign(new Error('table unreachable'), { code: 'INTERNAL' }));
      const page = request.query?.cursor === undefined ? 0 : 1;
      return Promise.resolve({ plans: plans[page], ...(page === 0 ? { nextCursor: 'next' } : {}) });
    },
  });
  const place = { operation: 'PlaceGTTOrder' as const, body: { ...sell(1), prctyp: 'LMT', d: '1600', prc: '1600' } };

  it("counts a plan on the plans' second page", async () => {
    const owing = port([[bracket('done')], [trailing({ inFlight: { stamp: `${PLAN}.s` } })]]);
    const { refused } = await exitOnlyCheck(owing, place);
    expect(refused).toMatch(new RegExp(`of which live plans owe 5: plan ${PLAN} 5, its stop not at the broker yet`));
    expect((await exitOnlyCheck(port([[bracket('done')], []]), place)).refused).toBeUndefined();
  });

  it('refuses when the plans cannot be read, never passes blind', async () => {
    expect((await exitOnlyCheck(port('fail'), place)).refused).toBe(
      'EXIT_ONLY: the plans could not be read (INTERNAL), so the exits the live plans owe cannot be counted; nothing was sent.',
    );
  });
});
