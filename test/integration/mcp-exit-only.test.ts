/**
 * An exit-only assistant (`scopes: ["read", "exit"]`) over the real remote server (`POST /mcp` on the local stack, the
 * broker emulator behind it, positions from its fills): it may place a GTT or OCO that reduces an open position
 * (counting the pending exits of that position) or start a trailing stop that does, cancel, and move triggers and
 * prices; an opening order, a sell past the long, a raised quantity, a bracket or a full replacement are refused with
 * the reason and nothing is sent. A position that shrank (or an exit placed) between preview and confirm refuses the
 * confirm, and the broker sees no place. A live plan's stop counts whether or not it rests at the broker yet (a first
 * place whose reply was lost), and once it rests there it is counted once.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPlanEngine } from '../../functions/plans/engine-wiring.js';
import type { LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { captureLogger } from '../support/logs.js';
import { callTool, remoteMcpClient } from '../support/mcp-tools.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';

let stack: LocalStack;
let control: EmulatorControl;
useLocalStack(
  { settings: HIGH_ORDER_RATE },
  (s, c) => {
    stack = s;
    control = c;
  },
  { clearFaults: true },
);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies read field by field
type Json = Record<string, any>;
let keys = 0;
const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${stack.api.url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(method === 'GET' ? {} : { 'Idempotency-Key': `mcp-exit-${++keys}-${Date.now()}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Json };
};

const START: Record<string, number> = {
  'INFY-EQ': 1500,
  'WIPRO-EQ': 1450,
  'M&M-EQ': 1500,
  'TCS-EQ': 3500,
  'HDFCBANK-EQ': 985,
};
const gtt = (tsym: string, trantype: 'B' | 'S', qty: number, away: number) => {
  const price = START[tsym]! + (trantype === 'S' ? away : -away);
  return {
    exch: 'NSE',
    tsym,
    qty,
    prd: 'C',
    trantype,
    prctyp: 'LMT',
    ret: 'DAY',
    ai_t: trantype === 'S' ? 'LTP_A_O' : 'LTP_B_O',
    d: String(price),
    prc: String(price),
  };
};
const netQty = async (tsym: string): Promise<number> =>
  ((await api('GET', '/positions')).body.positions as Json[])
    .filter((p) => p.tsym === tsym)
    .reduce((sum, p) => sum + (p.netQty as number), 0);

/** The trader's own fill: a GTT placed over the API and fired at once by moving the price across it. */
const fill = async (tsym: string, trantype: 'B' | 'S', qty: number) => {
  const before = await netQty(tsym);
  const placed = await api('POST', '/gtt-orders', gtt(tsym, trantype, qty, 10));
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  await control.ltp('NSE', tsym, START[tsym]! + (trantype === 'S' ? 11 : -11));
  await control.ltp('NSE', tsym, START[tsym]!);
  expect(await netQty(tsym)).toBe(before + (trantype === 'B' ? qty : -qty));
};
const placesAtBroker = async () =>
  (await control.requests()).filter((r) => r.operation === 'PlaceGTTOrder' || r.operation === 'PlaceOCOOrder').length;

let exit: Client;
const clients: Client[] = [];
beforeAll(async () => {
  const created = await api('POST', '/assistants', { name: 'exit-only', scopes: ['read', 'exit'] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.scopes).toEqual(['read', 'exit']);
  exit = await remoteMcpClient(stack.api.url, created.body.token as string);
  clients.push(exit);
});
afterAll(async () => {
  for (const client of clients) await client.close();
});

describe('an exit-only assistant places only what reduces a position', () => {
  it('a sell within the long is previewed and placed; one past it (pending exits counted), or a buy, is refused', async () => {
    await fill('INFY-EQ', 'B', 3);
    const preview = (await callTool(exit, 'place_gtt', gtt('INFY-EQ', 'S', 2, 100))).structuredContent!;
    expect(preview.refused, JSON.stringify(preview)).toBeUndefined();
    expect(preview.rulesChecked).toContain(
      'exit-only: NSE:INFY-EQ (product C) held 3, pending exits sell 0 (positions, pending orders and plans read now)',
    );
    const done = (await callTool(exit, 'confirm', { confirmationId: preview.confirmationId })).structuredContent!;
    expect(done, JSON.stringify(done)).toMatchObject({ confirmed: true });
    const alId = (done.result as Json).al_id as string;

    const sent = await placesAtBroker();
    const beyond = (await callTool(exit, 'place_gtt', gtt('INFY-EQ', 'S', 2, 100))).structuredContent!;
    expect(beyond).toMatchObject({
      refused: true,
      reason:
        'EXIT_ONLY: a sell of 2 NSE:INFY-EQ (product C) would exceed the long of 3 (pending exits sell 2): at most 1 more may be sold; nothing was sent.',
    });
    const opening = (await callTool(exit, 'place_gtt', gtt('INFY-EQ', 'B', 1, 100))).structuredContent!;
    expect(opening.reason).toBe(
      'EXIT_ONLY: a buy of 1 NSE:INFY-EQ (product C) would add to the long of 3; an exit-only caller may only sell it; nothing was sent.',
    );
    const flat = (await callTool(exit, 'place_gtt', gtt('M&M-EQ', 'S', 1, 100))).structuredContent!;
    expect(flat.reason).toMatch(/^EXIT_ONLY: a sell of 1 NSE:M&M-EQ \(product C\) would open a position: none is held/);
    expect(await placesAtBroker()).toBe(sent);

    // Changes: a trigger moved is allowed; a quantity raised is refused.
    const moved = (await callTool(exit, 'change_gtt', { alId, d: '1580', prc: '1580' })).structuredContent!;
    expect(moved.refused, JSON.stringify(moved)).toBeUndefined();
    expect(moved.rulesChecked).toContain(
      'exit-only: the change keeps the side, instrument and product and raises no quantity',
    );
    const raised = (await callTool(exit, 'change_gtt', { alId, qty: 3 })).structuredContent!;
    expect(raised.reason).toBe(
      'EXIT_ONLY: the change raises the quantity from 2 to 3; it may only keep or lower it; nothing was sent.',
    );
    const flipped = (await callTool(exit, 'change_gtt', { alId, trantype: 'B', ai_t: 'LTP_B_O' })).structuredContent!;
    expect(flipped.reason).toMatch(/^EXIT_ONLY: the change flips the side from sell to buy/);

    // A bracket (it opens a position) and a full replacement are not exit-only writes; cancel is.
    const bracket = (
      await callTool(exit, 'create_plan', {
        kind: 'bracket',
        entry: gtt('INFY-EQ', 'S', 1, 100),
        target: { trigger: '1500', price: '1500' },
        stopLoss: { trigger: '1700', price: '1700' },
      })
    ).structuredContent!;
    expect(bracket.reason).toBe(
      'EXIT_ONLY: a bracket plan places an entry that opens a position, which an exit-only caller may not; a trailing-stop plan on the side that closes the position may be started; nothing was sent.',
    );
    const replaced = (await callTool(exit, 'modify_gtt', { alId, ...gtt('INFY-EQ', 'S', 1, 90) })).structuredContent!;
    expect(replaced.reason).toMatch(/^EXIT_ONLY: ModifyGTTOrder is not an exit-only write .*use change_gtt/);
    const cancel = (await callTool(exit, 'cancel_gtt', { alId })).structuredContent!;
    expect(cancel.refused, JSON.stringify(cancel)).toBeUndefined();
    const cancelled = (await callTool(exit, 'confirm', { confirmationId: cancel.confirmationId })).structuredContent!;
    expect(cancelled, JSON.stringify(cancelled)).toMatchObject({ confirmed: true });
    expect((await control.orders(stack.emulator.uid)).find((o) => o.al_id === alId)?.state).not.toBe('pending');
  });

  it('an OCO whose legs each fit the short is allowed: the exit of a short is a buy', async () => {
    await fill('M&M-EQ', 'S', 2);
    const oco = (
      await callTool(exit, 'place_oco', {
        exch: 'NSE',
        tsym: 'M&M-EQ',
        target: { trigger: '1450', order: { trantype: 'B', prctyp: 'LMT', qty: 2, prc: '1450', prd: 'C' } },
        stopLoss: { trigger: '1550', order: { trantype: 'B', prctyp: 'LMT', qty: 2, prc: '1555', prd: 'C' } },
      })
    ).structuredContent!;
    expect(oco.refused, JSON.stringify(oco)).toBeUndefined();
    expect(oco.rulesChecked).toContain(
      'exit-only: NSE:M&M-EQ (product C) held -2, pending exits buy 0 (positions, pending orders and plans read now)',
    );
  });

  it('a position reduced between preview and confirm refuses the confirm; nothing is sent', async () => {
    await fill('WIPRO-EQ', 'B', 3);
    const preview = (await callTool(exit, 'place_gtt', gtt('WIPRO-EQ', 'S', 3, 100))).structuredContent!;
    expect(preview.refused, JSON.stringify(preview)).toBeUndefined();
    await fill('WIPRO-EQ', 'S', 2);
    await control.clearRequests();
    const late = (await callTool(exit, 'confirm', { confirmationId: preview.confirmationId })).structuredContent!;
    expect(late).toMatchObject({
      refused: true,
      reason:
        'EXIT_ONLY: a sell of 3 NSE:WIPRO-EQ (product C) would exceed the long of 1 (pending exits sell 0): at most 1 more may be sold; nothing was sent. (checked again at confirm)',
    });
    expect(await placesAtBroker()).toBe(0);
    expect(await netQty('WIPRO-EQ')).toBe(1);
  });

  it('a trailing stop within the long is started; one past it refused; its stop then counts as a pending exit', async () => {
    await fill('TCS-EQ', 'B', 5);
    const trailing = (qty: number) => ({
      kind: 'trailing-stop',
      order: { ...gtt('TCS-EQ', 'B', qty, 100), trantype: 'S' },
      trailBy: '20',
    });
    await control.clearRequests();
    const six = (await callTool(exit, 'create_plan', trailing(6))).structuredContent!;
    expect(six).toMatchObject({
      refused: true,
      reason:
        'EXIT_ONLY: a sell of 6 NSE:TCS-EQ (product C) would exceed the long of 5 (pending exits sell 0): at most 5 more may be sold; nothing was sent.',
    });
    expect(await placesAtBroker()).toBe(0);

    // Two previews that fit alone: the GTT confirmed first uses the room, so the plan's confirm is refused.
    const plan = (await callTool(exit, 'create_plan', trailing(5))).structuredContent!;
    expect(plan.refused, JSON.stringify(plan)).toBeUndefined();
    expect(plan.rulesChecked).toContain(
      'exit-only: NSE:TCS-EQ (product C) held 5, pending exits sell 0 (positions, pending orders and plans read now)',
    );
    const other = (await callTool(exit, 'place_gtt', gtt('TCS-EQ', 'S', 2, 100))).structuredContent!;
    const placed = (await callTool(exit, 'confirm', { confirmationId: other.confirmationId })).structuredContent!;
    expect(placed, JSON.stringify(placed)).toMatchObject({ confirmed: true });
    const late = (await callTool(exit, 'confirm', { confirmationId: plan.confirmationId })).structuredContent!;
    expect(late.reason).toBe(
      'EXIT_ONLY: a sell of 5 NSE:TCS-EQ (product C) would exceed the long of 5 (pending exits sell 2): at most 3 more may be sold; nothing was sent. (checked again at confirm)',
    );
    expect(await placesAtBroker()).toBe(1);
    const cancel = (await callTool(exit, 'cancel_gtt', { alId: (placed.result as Json).al_id })).structuredContent!;
    expect(
      (await callTool(exit, 'confirm', { confirmationId: cancel.confirmationId })).structuredContent,
    ).toMatchObject({ confirmed: true });

    const again = (await callTool(exit, 'create_plan', trailing(5))).structuredContent!;
    const started = (await callTool(exit, 'confirm', { confirmationId: again.confirmationId })).structuredContent!;
    expect(started, JSON.stringify(started)).toMatchObject({ confirmed: true, result: { kind: 'trailing-stop' } });
    const stop = (started.result as Json).alIds.stop as string;
    expect((await control.orders(stack.emulator.uid)).find((o) => o.al_id === stop)).toMatchObject({
      state: 'pending',
      trantype: 'S',
      qty: 5,
    });
    expect(await placesAtBroker()).toBe(2);
    const more = (await callTool(exit, 'place_gtt', gtt('TCS-EQ', 'S', 1, 100))).structuredContent!;
    // The plan's stop is at the broker and the plan is live: counted once.
    expect(more.reason).toBe(
      `EXIT_ONLY: a sell of 1 NSE:TCS-EQ (product C) would exceed the long of 5 (pending exits sell 5, of which live plans owe 5: plan ${(started.result as Json).planId as string} 5, its stop at the broker): at most 0 more may be sold; nothing was sent.`,
    );
    expect(await placesAtBroker()).toBe(2);
  });

  it('a trailing stop whose first place lost its reply counts before the watcher places it: a sell of the same is refused', async () => {
    await fill('HDFCBANK-EQ', 'B', 4);
    const trailing = {
      kind: 'trailing-stop',
      order: { ...gtt('HDFCBANK-EQ', 'B', 4, 50), trantype: 'S' },
      trailBy: '10',
    };
    const preview = (await callTool(exit, 'create_plan', trailing)).structuredContent!;
    expect(preview.refused, JSON.stringify(preview)).toBeUndefined();
    // A sell of the same 4, previewed while nothing waits yet: it fits alone.
    const early = (await callTool(exit, 'place_gtt', gtt('HDFCBANK-EQ', 'S', 4, 50))).structuredContent!;
    expect(early.refused, JSON.stringify(early)).toBeUndefined();
    // The stop's place is lost on its way: the broker never holds it, the plan is recorded with its try in flight.
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'drop', executed: false, times: 1 });
    const lost = await callTool(exit, 'confirm', { confirmationId: preview.confirmationId });
    await control.clearFaults();
    const planId = /Plan (pl[0-9a-f]{16}) is recorded/.exec(JSON.stringify(lost))?.[1];
    expect(planId, JSON.stringify(lost)).toBeDefined();
    expect((await api('GET', `/plans/${planId}`)).body).toMatchObject({ state: 'armed', alIds: {} });
    const stops = async () =>
      (await control.orders(stack.emulator.uid)).filter((o) => o.tsym === 'HDFCBANK-EQ' && o.state === 'pending');
    expect(await stops()).toEqual([]);

    await control.clearRequests();
    const owed = `EXIT_ONLY: a sell of 4 NSE:HDFCBANK-EQ (product C) would exceed the long of 4 (pending exits sell 4, of which live plans owe 4: plan ${planId} 4, its stop not at the broker yet): at most 0 more may be sold; nothing was sent.`;
    const sell = (await callTool(exit, 'place_gtt', gtt('HDFCBANK-EQ', 'S', 4, 50))).structuredContent!;
    expect(sell).toMatchObject({ refused: true, reason: owed });
    const confirmed = (await callTool(exit, 'confirm', { confirmationId: early.confirmationId })).structuredContent!;
    expect(confirmed).toMatchObject({ refused: true, reason: `${owed} (checked again at confirm)` });
    expect(await placesAtBroker()).toBe(0);

    // Once its try can no longer be in flight the watcher places the stop: then it is counted once, at the broker.
    const later = createPlanEngine(stack.config, captureLogger().logger);
    (later as unknown as { deps: { now?: () => Date } }).deps.now = () => new Date(Date.now() + 120_000);
    await later.advance(Date.now() + 12_000);
    expect(await stops()).toMatchObject([{ trantype: 'S', qty: 4, remarks: expect.stringMatching(`^${planId}.s `) }]);
    const after = (await callTool(exit, 'place_gtt', gtt('HDFCBANK-EQ', 'S', 1, 50))).structuredContent!;
    expect(after.reason).toBe(
      `EXIT_ONLY: a sell of 1 NSE:HDFCBANK-EQ (product C) would exceed the long of 4 (pending exits sell 4, of which live plans owe 4: plan ${planId} 4, its stop at the broker): at most 0 more may be sold; nothing was sent.`,
    );
    expect(await placesAtBroker()).toBe(1);
  });

  it('a positions read that fails refuses, never allows blind', async () => {
    await control.fault({ operation: 'PositionBook', kind: 'http5xx', times: 10 });
    const blind = (await callTool(exit, 'place_gtt', gtt('INFY-EQ', 'S', 1, 100))).structuredContent!;
    await control.clearFaults();
    expect(blind.refused).toBe(true);
    expect(blind.reason).toMatch(/^EXIT_ONLY: the positions could not be read \(\w+\)/);
  });
});
