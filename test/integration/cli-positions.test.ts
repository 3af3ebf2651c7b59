/**
 * `gtt positions` against the local stack (client/cli/main.ts in-process): an empty day said in words; a GTT placed
 * from the command line, fired by `gtt ltp`, makes a position the table shows with the emulator's numbers (net
 * quantity long, average, last, unrealised in rupees the Indian way), a partial sell realises the difference, and the
 * day's totals line sums them; `--json` answers the route's own result.
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
const ok = async (args: string[]) => {
  const r = await gtt(args);
  expect(r, args.join(' ')).toMatchObject({ code: 0, err: '' });
  return r.out;
};
const ORDER = '--exch NSE --tsym INFY-EQ --product C --price-type LMT --retention DAY';
/** The row of a symbol in the table, its cells split on the table's two-space gaps. */
const rowOf = (text: string, symbol: string) =>
  text
    .split('\n')
    .find((line) => line.startsWith(symbol))
    ?.split(/ {2,}/);

describe('gtt positions', () => {
  it('says an empty day in words, and --json is the route answer with every total 0', async () => {
    expect(await ok(['positions'])).toBe('no positions today: nothing has filled at the broker');
    expect(JSON.parse(await ok(['positions', '--json']))).toEqual({
      positions: [],
      totals: { realised: 0, unrealised: 0, total: 0, open: 0 },
    });
  });

  it('a fired GTT makes a long position marked to the market; a partial sell realises the difference', async () => {
    await ok(['ltp', 'INFY-EQ', '1500']);
    await ok([
      'place',
      ...ORDER.split(' '),
      '--qty',
      '1000',
      '--side',
      'B',
      '--price',
      '1500',
      '--alert',
      'LTP_B_O',
      '--trigger',
      '1490',
    ]);
    // The trigger (1490) is met at 1489: the buy fills there.
    expect(await ok(['ltp', 'INFY-EQ', '1489'])).toContain('1 GTT order(s) fired');
    await ok(['ltp', 'INFY-EQ', '1495']);

    let text = await ok(['positions']);
    expect(text.split('\n')[0]).toMatch(/^symbol +product +net qty +average +last +realised +unrealised$/);
    expect(rowOf(text, 'NSE:INFY-EQ')).toEqual([
      'NSE:INFY-EQ',
      'C',
      '1000 long',
      '1489.00',
      '1495.00',
      '₹0.00',
      '₹6,000.00',
    ]);
    expect(text).toContain('day: realised ₹0.00, unrealised ₹6,000.00, total ₹6,000.00 (1 open position)');

    await ok([
      'place',
      ...ORDER.split(' '),
      '--qty',
      '200',
      '--side',
      'S',
      '--price',
      '1500',
      '--alert',
      'LTP_A_O',
      '--trigger',
      '1505',
    ]);
    await ok(['ltp', 'INFY-EQ', '1510']);
    // 200 sold at 1510 against 1489: 4,200 realised; 800 left marked at 1510: 16,800 unrealised.
    text = await ok(['positions']);
    expect(rowOf(text, 'NSE:INFY-EQ')).toEqual([
      'NSE:INFY-EQ',
      'C',
      '800 long',
      '1489.00',
      '1510.00',
      '₹4,200.00',
      '₹16,800.00',
    ]);
    expect(text).toContain('day: realised ₹4,200.00, unrealised ₹16,800.00, total ₹21,000.00 (1 open position)');
    const json = JSON.parse(await ok(['positions', '--json'])) as { positions: object[]; totals: object };
    expect(json.positions).toEqual([
      expect.objectContaining({ exch: 'NSE', tsym: 'INFY-EQ', product: 'C', netQty: 800, realised: 4200 }),
    ]);
    expect(json.totals).toEqual({ realised: 4200, unrealised: 16800, total: 21000, open: 1 });
  });

  it('a short position and a lakh of P&L, grouped the Indian way', async () => {
    await ok(['ltp', 'INFY-EQ', '1500']);
    await ok([
      'place',
      ...ORDER.split(' '),
      '--qty',
      '1000',
      '--side',
      'S',
      '--price',
      '1500',
      '--alert',
      'LTP_A_O',
      '--trigger',
      '1505',
    ]);
    await ok(['ltp', 'INFY-EQ', '1510']);
    await ok(['ltp', 'INFY-EQ', '1380']);
    // Sold 1000 at 1510, marked at 1380: 1,30,000 to the good.
    const text = await ok(['positions']);
    expect(rowOf(text, 'NSE:INFY-EQ')).toEqual([
      'NSE:INFY-EQ',
      'C',
      '1000 short',
      '1510.00',
      '1380.00',
      '₹0.00',
      '₹1,30,000.00',
    ]);
  });
});
