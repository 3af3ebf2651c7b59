/**
 * The family's other alert types through the command line and the API against the emulator (local stack, in
 * process): `--alert change-below --trigger=-2` and `--alert volume-above` are sent as CH_PER_B_O and VOLUME_A_O,
 * rest pending while their figure has not reached the trigger, and fire (the triggered history shows them) once
 * it has; a refused one says why and sends nothing. `--alert 52-week-high` fires when the price makes a new 52-week
 * high at the emulator (its model, emulator/state/week52.ts), and `gtt quote` shows the high before and after.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';

let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack();
});
afterAll(async () => {
  await stack.close();
});
beforeEach(async () => {
  await emulatorControl(stack.emulator.url).reset();
});

const gtt = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args, '--url', stack.api.url], {}, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
};
const alIdOf = (text: string): string => /al_id (\S+)/.exec(text)?.[1] ?? '';
const market = async (figures: Record<string, number>) => {
  const res = await fetch(`${stack.emulator.url}/_emulator/ltp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ exch: 'NSE', tsym: 'INFY-EQ', ...figures }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { triggered: string[] }).triggered;
};
const triggeredIds = async () => {
  const r = await gtt(['triggered', '--json']);
  expect(r).toMatchObject({ code: 0, err: '' });
  const body = JSON.parse(r.out) as { orders?: { al_id: string }[] } | { al_id: string }[];
  return (Array.isArray(body) ? body : (body.orders ?? [])).map((o) => o.al_id);
};
const ORDER =
  '--exch nse --tsym INFY-EQ --qty 1 --price 1400 --product cnc --side buy --price-type lmt --retention day';

describe('the other alert types, placed from the command line', () => {
  it('change-below at -2%: sent as CH_PER_B_O, pending at -1%, fired at -2.5%', async () => {
    await market({ ltp: 1500, close: 1500 });
    const placed = await gtt(['place', ...ORDER.split(' '), '--alert', 'change-below', '--trigger=-2']);
    expect(placed).toMatchObject({ code: 0, err: '' });
    const alId = alIdOf(placed.out);
    const order = JSON.parse((await gtt(['get', alId, '--json'])).out) as { ai_t: string; d: string };
    expect(order).toMatchObject({ ai_t: 'CH_PER_B_O', d: '-2' });
    expect(await market({ ltp: 1485 })).toEqual([]);
    expect(await market({ ltp: 1462.5 })).toEqual([alId]);
    expect(await triggeredIds()).toContain(alId);
  });

  it('volume-above: sent as VOLUME_A_O, fired when the volume set beside the price reaches it', async () => {
    await market({ ltp: 1500 });
    const placed = await gtt(['place', ...ORDER.split(' '), '--alert', 'volume-above', '--trigger', '250000']);
    expect(placed).toMatchObject({ code: 0, err: '' });
    const alId = alIdOf(placed.out);
    expect(await market({ ltp: 1500, volume: 100000 })).toEqual([]);
    expect(await market({ ltp: 1500, volume: 250000 })).toEqual([alId]);
    expect(await triggeredIds()).toContain(alId);
  });

  it('52-week-high: sent as LTP_A_52HIGH, pending at and below the 52-week high, fired by a new high', async () => {
    await market({ ltp: 1500, close: 1500, week52High: 1600, week52Low: 1200 });
    // A breakout buy: its limit near the trigger, inside the band.
    const breakout = ORDER.replace('--price 1400', '--price 1610').split(' ');
    const placed = await gtt(['place', ...breakout, '--alert', '52-week-high', '--trigger', '1600']);
    expect(placed).toMatchObject({ code: 0, err: '' });
    const alId = alIdOf(placed.out);
    const order = JSON.parse((await gtt(['get', alId, '--json'])).out) as { ai_t: string; d: string };
    expect(order).toMatchObject({ ai_t: 'LTP_A_52HIGH', d: '1600' });
    const quoted = await gtt(['quote', 'INFY-EQ']);
    expect(quoted.out).toMatch(/52-week high 1600\.00 {2}52-week low 1200\.00$/m);
    // At the 52-week high is no new high: the emulator's broker waits for a price above it (its own high, not d).
    expect(await market({ ltp: 1590 })).toEqual([]);
    expect(await market({ ltp: 1600 })).toEqual([]);
    expect(await market({ ltp: 1605 })).toEqual([alId]);
    expect(await triggeredIds()).toContain(alId);
    expect((await gtt(['quote', 'INFY-EQ'])).out).toMatch(/52-week high 1605\.00 {2}52-week low 1200\.00$/m);
  });

  it('oi-above on an equity is refused by the gateway with the way forward; nothing reaches the broker', async () => {
    const refused = await gtt(['place', ...ORDER.split(' '), '--alert', 'oi-above', '--trigger', '1000']);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/OI_A_O watches open interest, which NSE cash equities do not have/);
    const pending = await gtt(['list', '--json']);
    expect(pending.out).not.toMatch(/OI_A_O/);
  });
});
