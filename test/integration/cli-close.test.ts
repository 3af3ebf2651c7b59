/**
 * `gtt close` (`close NSE:INFY-EQ --product C`) against the local stack (client/cli/main.ts in-process) and its
 * emulator: a long of 5 closed with one protected sell (the emulator's request log), the key printed and a retry with
 * it placing nothing more; a quantity past the position refused with the gateway's reason, nothing sent; a bad
 * position or product is a usage error, no call made; --dry-run shows the order, nothing sent.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';

let stack: LocalStack;
const control = () => emulatorControl(stack.emulator.url);

beforeAll(async () => {
  stack = await startLocalStack();
});
afterAll(async () => {
  await stack.close();
});
beforeEach(async () => {
  await control().reset();
});

const gtt = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args, '--url', stack.api.url], {}, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
};
const plainOrders = async () => (await control().requests()).filter((r) => r.operation === 'PlaceOrder');

/** A long of 5 INFY-EQ, product C: a buy GTT fired by the price. */
const long5 = async () => {
  const placed = await gtt([
    'place',
    ...'--exch NSE --tsym INFY-EQ --product C --price-type LMT --retention DAY --side buy --qty 5'.split(' '),
    ...'--price 1500 --trigger 1490 --alert below'.split(' '),
  ]);
  expect(placed.code, placed.err).toBe(0);
  await control().ltp('NSE', 'INFY-EQ', 1489);
  await control().clearRequests();
};

describe('gtt close', () => {
  it('closes a long of 5 with one sell, prints its key; the same key again places nothing more', async () => {
    await long5();
    const r = await gtt(['close', 'NSE:INFY-EQ', '--product', 'C']);
    expect(r, r.err).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(
      /^sell 5 NSE:INFY-EQ \(product C\) at limit 1481\.60 \(last 1489\) to close the long of 5: order \d+$/m,
    );
    const key = /idempotency key (close-[0-9a-f-]+):/.exec(r.out)?.[1];
    expect(key, r.out).toBeDefined();
    expect(await plainOrders()).toEqual([
      expect.objectContaining({ jData: expect.objectContaining({ trantype: 'S', qty: '5', prc: '1481.60' }) }),
    ]);
    const again = await gtt(['close', 'NSE:INFY-EQ', '--product', 'C', '--key', key!]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain('replayed: an earlier request with this key placed it, nothing new was sent');
    expect(await plainOrders()).toHaveLength(1);
  });

  it('a quantity past the position is refused with the reason; a dry run sends nothing; bad input is a usage error', async () => {
    await long5();
    const over = await gtt(['close', 'NSE:INFY-EQ', '--product', 'C', '--qty', '6']);
    expect(over.code).not.toBe(0);
    expect(over.err).toContain('qty 6 is more than the long of 5');
    const dry = await gtt(['close', 'NSE:INFY-EQ', '--product', 'CNC', '--qty', '2', '--dry-run']);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toContain('PlaceOrder');
    for (const args of [
      ['close', 'INFY-EQ'],
      ['close', 'NSE:INFY-EQ', '--product', 'H'],
      ['close', 'NSE:INFY-EQ', '--qty', '0'],
    ]) {
      const bad = await gtt(args);
      expect(bad.code, args.join(' ')).toBe(2);
    }
    expect(await plainOrders()).toEqual([]);
    // The default product is I (MIS): this long is C, so there is nothing to close there.
    const mis = await gtt(['close', 'NSE:INFY-EQ']);
    expect(mis.err).toContain('no open position of NSE:INFY-EQ (product I)');
  });
});
