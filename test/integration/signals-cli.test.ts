/**
 * The strategy and signal commands (client/cli/commands/strategies.ts, signals.ts) through the CLI's own entry,
 * against the local API with the real worker acting at the emulator: `strategy-edit` keeps the webhook URL,
 * `signal-test --side sell` posts a sell, `signals` and `signal` tell each signal's fate.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { clearInstrumentCache } from '../../functions/base/broker/instruments.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';

let stack: LocalStack;
const out: string[] = [];
const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
const gtt = (...args: string[]) => main([...args, '--url', stack.api.url], {}, io);
const last = () => out.at(-1) ?? '';

beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE });
});
afterAll(() => stack.close());
beforeEach(async () => {
  out.length = 0;
  await emulatorControl(stack.emulator.url).reset();
  clearInstrumentCache();
});

const GTT = {
  kind: 'gtt',
  order: { exch: 'NSE', prd: 'C', qty: 1 },
  trigger: { offset: '0' },
  price: { offset: '0' },
};

/** strategy-create from a JSON body: its id and its webhook URL, as printed. */
const create = async (body: Record<string, unknown>) => {
  expect(await gtt('strategy-create', '--body', JSON.stringify(body)), out.join('\n')).toBe(0);
  const text = last();
  return {
    strategyId: /st[0-9a-f]{16}/.exec(text)![0],
    url: /(http\S+\/signals\/[A-Za-z0-9_-]{43})/.exec(text)![1]!,
  };
};
const placedSides = async () =>
  (await emulatorControl(stack.emulator.url).requests())
    .filter((r) => r.operation === 'PlaceGTTOrder')
    .map((r) => r.jData!.trantype);

it('strategy-edit changes what a strategy does and keeps its URL; bad input changes nothing', async () => {
  const { strategyId, url } = await create({ name: 'cli-edit', source: 'tradingview', action: GTT });
  expect(await gtt('strategy-edit', strategyId, '--mode', 'paper', '--max-qty', '5', '--qty', '2'), last()).toBe(0);
  expect(last()).toMatch(new RegExp(`^changed ${strategyId}  cli-edit  tradingview  gtt  paper  max 5`));
  expect(last()).toContain('"qty":2');
  expect(last()).toContain('webhook URL unchanged');
  // The old URL still works, now as a paper strategy: nothing reaches the broker.
  expect(await gtt('signal-test', strategyId, '--webhook-url', url), last()).toBe(0);
  expect(last()).toContain('HTTP 202');
  await stack.signalQueue.drained();
  expect(await placedSides()).toEqual([]);

  const before = (await gtt('strategy', strategyId), last());
  expect(await gtt('strategy-edit', strategyId, '--mode', 'demo')).toBe(2);
  expect(last()).toContain('mode');
  expect(await gtt('strategy-edit', strategyId, '--body', '{"mode":"live","nope":1}')).toBe(2);
  expect(last()).toContain('nope');
  expect(await gtt('strategy-edit', strategyId, '--side', 'sideways')).toBe(2);
  expect(last()).toContain('--side must be buy or sell');
  expect(await gtt('strategy-edit', strategyId)).toBe(2);
  expect(last()).toContain('at least one change');
  await gtt('strategy', strategyId);
  expect(last()).toBe(before);
  // --max-qty none removes the limit.
  expect(await gtt('strategy-edit', strategyId, '--max-qty', 'none')).toBe(0);
  expect(last()).not.toContain('max 5');
});

it('a ChartInk strategy without a side is refused at creation; strategy-edit --side sets another', async () => {
  const noSide = { name: 'ci', source: 'chartink', action: GTT };
  expect(await gtt('strategy-create', '--body', JSON.stringify(noSide))).toBe(2);
  expect(last()).toContain('action.order.trantype');
  const { strategyId, url } = await create({ ...noSide, action: { ...GTT, order: { ...GTT.order, trantype: 'B' } } });
  expect(await gtt('strategy-edit', strategyId, '--side', 'sell'), last()).toBe(0);
  expect(last()).toContain('"trantype":"S"');
  // ChartInk's body has no side to send: signal-test says where the side is set.
  expect(await gtt('signal-test', strategyId, '--webhook-url', url, '--side', 'buy')).toBe(2);
  expect(last()).toContain(`strategy-edit ${strategyId} --side buy`);
  expect(await gtt('signal-test', strategyId, '--webhook-url', url), last()).toBe(0);
  await stack.signalQueue.drained();
  expect(await placedSides()).toEqual(['S']);
});

it('signal-test --side sell posts a sell; signals and signal show what became of it', async () => {
  const { strategyId, url } = await create({ name: 'cli-sell', source: 'tradingview', action: GTT });
  expect(await gtt('signal-test', strategyId, '--webhook-url', url, '--side', 'sell', '--price', '800'), last()).toBe(
    0,
  );
  expect(last()).toMatch(/^sent \{"action":"sell","ticker":"INFY"/);
  const sold = /sg[0-9a-f]{24}/.exec(last())![0];
  await stack.signalQueue.drained();
  expect(await placedSides()).toEqual(['S']);
  expect(await gtt('signal-test', strategyId, '--webhook-url', url, '--side', 'b'), last()).toBe(0);
  const bought = /sg[0-9a-f]{24}/.exec(last())![0];
  await stack.signalQueue.drained();

  expect(await gtt('signals', '--strategy', strategyId), last()).toBe(0);
  const lines = last().split('\n');
  // Newest first, each signal's line then what its alert did.
  // When, in India time as every time the command line prints.
  expect(lines[0]).toMatch(
    new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\+05:30  ${bought}  ${strategyId}  acted  1 alert$`),
  );
  expect(lines[1]).toMatch(/^ {2}INFY-EQ {2}al_id=\d+ {2}BUY 1 NSE:INFY-EQ GTT trigger 1500\.00/);
  expect(lines[2]).toContain(sold);
  expect(lines[3]).toMatch(/SELL 1 NSE:INFY-EQ GTT trigger 800\.00/);

  expect(await gtt('signals', '--strategy', strategyId, '--limit', '1')).toBe(0);
  expect(last()).toContain(bought);
  expect(last()).not.toContain(sold);
  expect(last()).toMatch(/more: --cursor \S+ \(or --all\)$/);

  expect(await gtt('signal', sold)).toBe(0);
  expect(last()).toContain('SELL 1 NSE:INFY-EQ');
  expect(last()).toContain('"side":"S"');
  expect(await gtt('signal', 'sg000000000000000000000000')).toBe(3);
  expect(last()).toContain('SIGNAL_NOT_FOUND');
});
