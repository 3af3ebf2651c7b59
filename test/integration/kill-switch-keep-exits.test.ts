/**
 * The kill switch's two modes against the emulator (functions/controls/kill-switch.ts, docs/explanation/compliance.md):
 * `keep-exits` cancels the entries and leaves the exits at the broker (a plan's exit OCO, a standalone OCO), so no
 * plan is left unprotected, while every new entry is refused; `cancel-all`, the default, still sweeps everything.
 * And the command line: `kill-switch on --mode keep-exits`, the sweep's time, TRADING_HALTED naming
 * `kill-switch off`, a mistyped action answered with a suggestion.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { CLI_ORDER } from '../support/cli-orders.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let keys = 0;

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions on arbitrary JSON
  body: Record<string, any>;
}
const api = async (method: string, path: string, body?: unknown, key?: string): Promise<Answer> => {
  const res = await fetch(`${stack.api.url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key === undefined ? {} : { 'Idempotency-Key': key }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
};
const key = () => `keep-exits-${++keys}`;
const pendingIds = async () =>
  (await control.orders(stack.emulator.uid)).filter((o) => o.state === 'pending').map((o) => o.al_id);
const planOf = async (planId: string) => (await api('GET', `/plans/${planId}`)).body;

const BRACKET = (tsym: string) => ({
  kind: 'bracket',
  entry: { ...SAMPLE_ORDER, tsym, qty: 2 },
  target: { trigger: '1600', price: '1600' },
  stopLoss: { trigger: '1400', price: '1400' },
});
const OCO = {
  exch: 'NSE',
  tsym: 'INFY-EQ',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1600', prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1390', prd: 'C' } },
};

/** A bracket plan whose entry filled and whose exit OCO is at the broker: its planId and the exit's al_id. */
const planWithLiveExit = async (): Promise<{ planId: string; exit: string }> => {
  const created = await api('POST', '/plans', BRACKET('M&M-EQ'), key());
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await control.ltp('NSE', 'M&M-EQ', 1480);
  await stack.watch();
  const armed = await planOf(created.body.planId as string);
  expect(armed.state).toBe('exit-armed');
  return { planId: armed.planId as string, exit: armed.alIds.exit as string };
};

beforeAll(async () => {
  // A short broker timeout and late window: the sweep waits until the writes permitted before it can no longer land.
  stack = await startLocalStack({
    brokerTimeoutMs: 2_000,
    settings: { ...HIGH_ORDER_RATE, ORDER_LATE_WINDOW_MS: 1_000 },
  });
  control = emulatorControl(stack.emulator.url);
});
afterAll(async () => {
  await api('DELETE', '/kill-switch').catch(() => undefined);
  await stack?.close();
});
beforeEach(async () => {
  await api('DELETE', '/kill-switch');
  // The plans of an earlier test end with their orders gone: the watcher's next runs settle them.
  await control.reset();
  await stack.watch();
});

describe('kill switch: keep-exits', () => {
  it('cancels the entries, keeps the OCO and the plan exit live, refuses every new entry; the plan stays protected', async () => {
    const withExit = await planWithLiveExit();
    const waiting = await api('POST', '/plans', BRACKET('SBIN-EQ'), key());
    expect(waiting.status).toBe(201);
    const entry = waiting.body.alIds.entry as string;
    const oco = (await api('POST', '/gtt-orders/oco', OCO, key())).body.al_id as string;
    const single = (await api('POST', '/gtt-orders', { ...SAMPLE_ORDER, qty: 3 }, key())).body.al_id as string;
    expect((await pendingIds()).sort()).toEqual([withExit.exit, entry, oco, single].sort());

    const before = Date.now();
    const on = await api('POST', '/kill-switch', { mode: 'keep-exits' });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body).toMatchObject({ halted: true, mode: 'keep-exits', sweep: { complete: true, failed: [] } });
    expect([...on.body.sweep.cancelled].sort()).toEqual([entry, single].sort());
    expect([...on.body.sweep.kept].sort()).toEqual([withExit.exit, oco].sort());
    // The sweep says when it ran.
    const { startedAt, finishedAt } = on.body.sweep as { startedAt: string; finishedAt: string };
    expect(Date.parse(startedAt)).toBeGreaterThanOrEqual(before - 1_000);
    expect(Date.parse(finishedAt)).toBeGreaterThanOrEqual(Date.parse(startedAt));
    expect((await pendingIds()).sort()).toEqual([withExit.exit, oco].sort());
    expect((await api('GET', '/kill-switch')).body).toMatchObject({ halted: true, mode: 'keep-exits' });

    // Every new entry is refused: a GTT, an OCO, a plan.
    for (const [path, body] of [
      ['/gtt-orders', SAMPLE_ORDER],
      ['/gtt-orders/oco', OCO],
      ['/plans', BRACKET('TCS-EQ')],
    ] as const) {
      const refused = await api('POST', path, body, key());
      expect(refused.status, `${path}: ${JSON.stringify(refused.body)}`).toBe(423);
      expect(refused.body.error).toMatchObject({ code: 'TRADING_HALTED' });
      expect(refused.body.error.message).toMatch(/keeping the exits at the broker/);
    }
    expect((await pendingIds()).sort()).toEqual([withExit.exit, oco].sort());

    // The watcher's run: the plan with its exit kept is still protected; the one whose entry went opened nothing.
    await stack.watch();
    expect(await planOf(withExit.planId)).toMatchObject({ state: 'exit-armed', alIds: { exit: withExit.exit } });
    expect((await planOf(waiting.body.planId as string)).state).toBe('failed');
    expect((await pendingIds()).sort()).toEqual([withExit.exit, oco].sort());

    // A cancel reduces risk: still allowed.
    expect((await api('DELETE', `/gtt-orders/${oco}`)).status).toBe(200);
    expect(await pendingIds()).toEqual([withExit.exit]);
  });

  it('cancel-all, by name or by default, is the sweep of old: the plan exit goes, and the plan is unprotected', async () => {
    const withExit = await planWithLiveExit();
    const on = await api('POST', '/kill-switch', { mode: 'cancel-all' });
    expect(on.body).toMatchObject({ halted: true, mode: 'cancel-all', sweep: { cancelled: [withExit.exit] } });
    expect(on.body.sweep.kept).toBeUndefined();
    expect(await pendingIds()).toEqual([]);
    await stack.watch();
    expect((await planOf(withExit.planId)).state).toBe('unprotected');

    await api('DELETE', '/kill-switch');
    const oco = (await api('POST', '/gtt-orders/oco', OCO, key())).body.al_id as string;
    expect((await api('POST', '/kill-switch')).body).toMatchObject({
      mode: 'cancel-all',
      sweep: { cancelled: [oco] },
    });
  });

  it('a mode it does not have is refused, and the switch stays as it was', async () => {
    const refused = await api('POST', '/kill-switch', { mode: 'keep-stops' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/mode must be cancel-all .* or keep-exits/);
    expect((await api('GET', '/kill-switch')).body).toMatchObject({ halted: false });
  });
});

describe('kill switch: the command line', () => {
  const gtt = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(
      [...args, '--url', stack.api.url],
      {},
      { out: (t) => out.push(t), err: (t) => err.push(t) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('on --mode keep-exits says the mode, the sweep time and what it kept; a place names kill-switch off', async () => {
    const oco = (await api('POST', '/gtt-orders/oco', OCO, key())).body.al_id as string;
    const on = await gtt('kill-switch', 'on', '--mode', 'keep-exits');
    expect(on).toMatchObject({ code: 0, err: '' });
    expect(on.out).toMatch(/^kill switch ON \(keep-exits\): places and modifies are refused \(since \S+/);
    expect(on.out).toMatch(
      /^swept {7}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+05:30 to \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+05:30$/m,
    );
    expect(on.out).toMatch(/^cancelled {3}none pending$/m);
    expect(on.out).toContain(`kept        ${oco} (exits: OCOs, plan exits and stops)`);

    const place = await gtt('place', ...CLI_ORDER);
    expect(place.code).toBe(4);
    expect(place.err).toMatch(/^error TRADING_HALTED \(HTTP 423\)/);
    expect(place.err).toContain(
      'next: the kill switch is on: `npm run gtt -- kill-switch status` says since when; `npm run gtt -- kill-switch off` turns it off',
    );
    const json = await gtt('place', ...CLI_ORDER, '--json');
    expect(JSON.parse(json.err)).toMatchObject({
      error: { code: 'TRADING_HALTED', hint: expect.stringContaining('kill-switch off') },
    });

    expect((await gtt('kill-switch', 'status')).out).toMatch(/^kill switch ON \(keep-exits\)/);
    expect((await gtt('kill-switch', 'off')).out).toMatch(/^kill switch off: trading/);
    expect(await pendingIds()).toEqual([oco]);
  });

  it('a mistyped action or mode gets a suggestion, and nothing is sent', async () => {
    const of = await gtt('kill-switch', 'of');
    expect(of.code).toBe(2);
    // One edit from on and from off: the switch does not guess between them.
    expect(of.err).toMatch(/^kill-switch takes on, off or status, got "of" \(did you mean on or off\?\)\n/);
    expect((await gtt('kill-switch', 'stauts')).err).toMatch(/got "stauts" \(did you mean status\?\)/);
    expect((await gtt('kill-switch', 'offf')).err).toMatch(/got "offf" \(did you mean off\?\)/);
    expect((await gtt('kill-switch', 'on', '--mode', 'keep-exit')).err).toMatch(
      /--mode must be cancel-all or keep-exits, got "keep-exit" \(did you mean keep-exits\?\)/,
    );
    expect((await gtt('kill-switch', 'off', '--mode', 'keep-exits')).err).toMatch(
      /--mode applies to kill-switch on only/,
    );
    expect((await api('GET', '/kill-switch')).body).toMatchObject({ halted: false });
  });
});
