/**
 * The command line as a trader types it, against the local stack (client/cli/main.ts in-process): values as traders
 * write them (`--exch nse --side buy --price-type lmt`) sent as the API's canonical ones, --retention and --alert
 * defaulted and said; `modify-oco <id> --stop-trigger 1410` changing the stop and nothing else; `modify` on an OCO
 * saying it is one and pointing to modify-oco.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { CLI_OCO } from '../support/cli-orders.js';
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

interface Leg {
  trigger: string;
  order: { prc?: string; prctyp?: string; qty?: number | string; trantype?: string };
}
const getJson = async <T>(alId: string): Promise<T> => {
  const r = await gtt(['get', alId, '--json']);
  expect(r).toMatchObject({ code: 0, err: '' });
  return JSON.parse(r.out) as T;
};

describe('values as traders type them', () => {
  it('place --exch nse --side buy --price-type lmt --retention day: sent as NSE, B, LMT, DAY', async () => {
    const typed =
      '--exch nse --tsym M&M-EQ --qty 1 --price 1500 --product cnc --side buy --price-type lmt --retention day --alert below --trigger 1490';
    const dry = await gtt(['place', ...typed.split(' '), '--dry-run']);
    expect(dry).toMatchObject({ code: 0, err: '' });
    expect(dry.out).toMatch(/"exch":"NSE"/);
    expect(dry.out).toMatch(/"trantype":"B"/);
    expect(dry.out).toMatch(/"prctyp":"LMT"/);
    expect(dry.out).toMatch(/"ret":"DAY"/);
    expect(dry.out).toMatch(/"ai_t":"LTP_B_O"/);

    const placed = await gtt(['place', ...typed.replace('--side buy', '--side b').split(' ')]);
    expect(placed).toMatchObject({ code: 0, err: '' });
    // Every flag given: no default to say.
    expect(placed.out).not.toMatch(/default:/);
    const order = await getJson<{ exch: string; trantype: string; prctyp: string; ai_t: string }>(alIdOf(placed.out));
    expect(order).toMatchObject({ exch: 'NSE', trantype: 'B', prctyp: 'LMT', ai_t: 'LTP_B_O' });
  });

  it('--price without --price-type is a limit order (LMT, said); a market order still names its type', async () => {
    const typed = '--exch NSE --tsym M&M-EQ --qty 1 --price 1500 --product C --side B --retention DAY --trigger 1490';
    const placed = await gtt(['place', ...typed.split(' '), '--alert', 'LTP_B_O']);
    expect(placed).toMatchObject({ code: 0, err: '' });
    expect(placed.out).toMatch(/^default: price type LMT \(a limit order at --price\)/m);
    expect(await getJson(alIdOf(placed.out))).toMatchObject({ prctyp: 'LMT', prc: '1500' });
    const unpriced = await gtt(['place', ...typed.replace('--price 1500 ', '').split(' '), '--alert', 'LTP_B_O']);
    expect(unpriced.code).toBe(2);
    expect(unpriced.err).toMatch(/^missing --price-type/);
  });

  it('--retention and --alert left out: DAY and the alert that fits the trigger against the last price', async () => {
    expect(await gtt(['ltp', 'M&M-EQ', '1500'])).toMatchObject({ code: 0 });
    const quote = await gtt(['quote', 'M&M-EQ', '--exch', 'NSE', '--json']);
    expect(quote).toMatchObject({ code: 0, err: '' });
    const lp = Number((JSON.parse(quote.out) as { lp: string }).lp);
    expect(lp).toBeGreaterThan(0);
    const at = (offset: number) => (Math.round((lp + offset) * 20) / 20).toFixed(2);
    const base = ['--exch', 'NSE', '--tsym', 'M&M-EQ', '--qty', '1', '--product', 'C', '--price-type', 'LMT'];

    // A sell above the price: it fires when the price rises to it.
    const sell = await gtt(['place', ...base, '--price', at(100), '--trigger', at(110), '--side', 'sell']);
    expect(sell).toMatchObject({ code: 0, err: '' });
    expect(sell.out).toMatch(/^default: retention DAY /m);
    expect(sell.out).toMatch(
      new RegExp(`^default: alert LTP_A_O \\(the trigger ${at(110)} is above the last price ${lp}: fires when`, 'm'),
    );
    expect(await getJson(alIdOf(sell.out))).toMatchObject({ trantype: 'S', ai_t: 'LTP_A_O' });

    // A buy above the price is a breakout: LTP_A_O too (the side's usual LTP_B_O would fire it at once).
    const breakout = await gtt(['place', ...base, '--price', at(112), '--trigger', at(110), '--side', 'B', '--json']);
    // --json prints the result alone; the defaults still apply.
    expect(breakout).toMatchObject({ code: 0, err: '' });
    const { al_id } = JSON.parse(breakout.out) as { al_id: string };
    expect(await getJson(al_id)).toMatchObject({ trantype: 'B', ai_t: 'LTP_A_O' });

    // A buy below the price: the dip, LTP_B_O.
    const dip = await gtt(['place', ...base, '--price', at(-10), '--trigger', at(-10), '--side', 'buy']);
    expect(dip.out).toMatch(/^default: alert LTP_B_O \(the trigger [\d.]+ is below the last price/m);
    expect(await getJson(alIdOf(dip.out))).toMatchObject({ trantype: 'B', ai_t: 'LTP_B_O' });
  });

  it('a value none of the spellings: a usage error naming what the flag takes; nothing sent', async () => {
    const r = await gtt([
      'place',
      '--exch',
      'nse',
      '--tsym',
      'M&M-EQ',
      '--qty',
      '1',
      '--price',
      '1500',
      '--product',
      'C',
      '--side',
      'bought',
      '--price-type',
      'lmt',
      '--trigger',
      '1490',
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^--side must be B or S \(also buy, sell\), got "bought"/);
  });
});

describe('modify-oco: one field', () => {
  const placeOco = async (): Promise<string> => {
    const placed = await gtt(['place-oco', ...CLI_OCO]);
    expect(placed).toMatchObject({ code: 0, err: '' });
    return alIdOf(placed.out);
  };

  it('--stop-trigger 1410 changes the stop and nothing else', async () => {
    const alId = await placeOco();
    const before = await getJson<{ target: Leg; stopLoss: Leg; tag?: string }>(alId);
    const r = await gtt(['modify-oco', alId, '--stop-trigger', '1410']);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/^modified OCO al_id /);
    const after = await getJson<{ target: Leg; stopLoss: Leg; tag?: string }>(alId);
    expect(Number(after.stopLoss.trigger)).toBe(1410);
    expect(after.target).toEqual(before.target);
    expect(after.stopLoss.order).toEqual(before.stopLoss.order);
    expect(after.tag).toBe(before.tag);
  });

  it('--qty and a leg price as typed: the quantity of both legs, the price of one', async () => {
    const alId = await placeOco();
    const before = await getJson<{ target: Leg; stopLoss: Leg }>(alId);
    const r = await gtt(['modify-oco', alId, '--qty', '3', '--target-price', '1610', '--stop-price-type', 'lmt']);
    expect(r).toMatchObject({ code: 0, err: '' });
    const after = await getJson<{ target: Leg; stopLoss: Leg }>(alId);
    expect(Number(after.target.order.qty)).toBe(3);
    expect(Number(after.stopLoss.order.qty)).toBe(3);
    expect(Number(after.target.order.prc)).toBe(1610);
    expect(after.stopLoss.order.prc).toEqual(before.stopLoss.order.prc);
    expect(after.target.trigger).toEqual(before.target.trigger);
  });

  it('nothing to change, or --exch without the rest: a usage error', async () => {
    expect((await gtt(['modify-oco', '1'])).err).toMatch(/^modify-oco needs what to change/);
    expect((await gtt(['modify-oco', '1', '--exch', 'NSE', '--stop-trigger', '1410'])).err).toMatch(
      /--exch and --tsym are the OCO's own/,
    );
  });

  it('modify on an OCO says it is one and points to modify-oco; nothing changes', async () => {
    const alId = await placeOco();
    const before = await getJson<unknown>(alId);
    const r = await gtt(['modify', alId, '--trigger', '1410']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`GTT order ${alId} is an OCO order`));
    expect(r.err).toContain(
      `next: it is an OCO: change it with modify-oco, e.g. \`npm run gtt -- modify-oco ${alId} --stop-trigger 1410\``,
    );
    expect(r.err).toMatch(/outcome: not executed/);
    expect(await getJson<unknown>(alId)).toEqual(before);
  });

  it('modify-oco on a single GTT points to modify', async () => {
    const placed = await gtt([
      'place',
      ...'--exch NSE --tsym M&M-EQ --qty 1 --price 1500 --product C --side B --price-type LMT --trigger 1490'.split(
        ' ',
      ),
    ]);
    const alId = alIdOf(placed.out);
    const r = await gtt(['modify-oco', alId, '--stop-trigger', '1410']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`GTT order ${alId} is a single GTT order, not an OCO`));
    expect(r.err).toContain('next: it is a single GTT: change it with modify');
  });
});
