/**
 * `gtt plan-legs` (client/cli/commands/plan-legs-create.ts): the --leg flags as the body of POST /plans
 * {kind: "option-legs"} the gateway takes, a mistake named with the way forward before anything is sent (exit 2),
 * `--dry-run` sent as `?dryRun=true` without a key and said as each leg's order and the net now, `--key` as the
 * Idempotency-Key. A loopback server answers as the gateway does and records what reaches it.
 */
import http from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { LEG_COUNT, LEG_EXCHANGES } from '../../client/cli/commands/plan-legs-create.js';
import {
  LEG_EXCHANGES as GATEWAY_EXCHANGES,
  MAX_LEGS,
  MIN_LEGS,
  optionLegsInput,
} from '../../functions/base/schemas/option-legs.js';
import { listenOnLoopback } from '../../local/loopback.js';

interface Seen {
  url: string;
  key: string | undefined;
  body: unknown;
}
const seen: Seen[] = [];
const CE = 'NIFTY08DEC26C25000';
const PE = 'NIFTY08DEC26P25000';
const LEG = { exch: 'NFO', token: '1', lots: 1, lot: 65, qty: 65, tick: '0.05', weight: 1, entryOrder: '21' };
const CREATED = {
  planId: 'pllegs0123456789',
  kind: 'option-legs',
  state: 'entry-placed',
  exch: 'NFO',
  tsym: `${CE} + ${PE}`,
  createdAt: '2026-12-07T04:00:00.000Z',
  updatedAt: '2026-12-07T04:00:00.000Z',
  alIds: {},
  history: [],
  legs: {
    legs: [
      { ...LEG, tsym: CE, trantype: 'S', prc: '76.2' },
      { ...LEG, tsym: PE, trantype: 'S', prc: '75.8', entryOrder: undefined },
    ],
    exit: { stop: '40', target: '25%' },
    prd: 'M',
  },
};
const DRY = {
  dryRun: true,
  kind: 'option-legs',
  legs: [
    { exch: 'NFO', tsym: CE, trantype: 'S', prd: 'M', qty: 65, prctyp: 'LMT', ret: 'IOC', prc: '76.2', lots: 1 },
    { exch: 'NFO', tsym: PE, trantype: 'S', prd: 'M', qty: 65, prctyp: 'LMT', ret: 'IOC', prc: '75.8', lots: 1 },
  ].map((l, i) => ({ ...l, lot: 65, weight: 1, lastPrice: [80.2, 79.8][i] })),
  net: -160,
  exit: { stop: '40', target: '25%' },
};

let api: Awaited<ReturnType<typeof listenOnLoopback>>;
beforeAll(async () => {
  api = await listenOnLoopback(
    http.createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const key = req.headers['idempotency-key'];
        seen.push({
          url: `${req.method} ${req.url}`,
          key: typeof key === 'string' ? key : undefined,
          body: text ? JSON.parse(text) : undefined,
        });
        const dry = req.url?.includes('dryRun=true');
        res.writeHead(dry ? 200 : 201, { 'content-type': 'application/json' }).end(JSON.stringify(dry ? DRY : CREATED));
      });
    }),
  );
});
afterAll(async () => {
  await api?.close();
});

const gtt = async (...args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
  const code = await main([...args, '--url', api.url, '--no-sign'], { GTT_API_URL: '' }, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
};
const GOOD = ['plan-legs', '--leg', `S:${CE}:1`, '--leg', `S:${PE}:1`, '--stop', '40', '--target', '25%'];
const STRADDLE = {
  kind: 'option-legs',
  legs: [
    { exch: 'NFO', tsym: CE, trantype: 'S', lots: 1 },
    { exch: 'NFO', tsym: PE, trantype: 'S', lots: 1 },
  ],
  exit: { stop: '40', target: '25%' },
  prd: 'M',
};

describe('gtt plan-legs', () => {
  it("holds the gateway's exchanges and leg counts", () => {
    expect(LEG_EXCHANGES).toEqual(GATEWAY_EXCHANGES);
    expect(LEG_COUNT).toEqual({ min: MIN_LEGS, max: MAX_LEGS });
  });

  it("--dry-run asks for the legs' orders and the net now, with no key, and creates nothing", async () => {
    const before = seen.length;
    const result = await gtt(...GOOD, '--dry-run');
    expect(result.code, result.err).toBe(0);
    expect(result.out).toBe(
      `dry run: nothing was sent. would place, bought legs first: S 1 lot NFO:${CE} = 65 at limit 76.2 (last 80.2); ` +
        `S 1 lot NFO:${PE} = 65 at limit 75.8 (last 79.8). net premium now -160; stop 40 target 25% count from the net at the fills`,
    );
    expect(seen.slice(before)).toEqual([{ url: 'POST /plans?dryRun=true', key: undefined, body: STRADDLE }]);
    expect(optionLegsInput.safeParse(STRADDLE).success).toBe(true);
  });

  it('creates with --key as the Idempotency-Key; EXCH:TSYM, buy/sell words, lots, --prd and --tag as the gateway takes them', async () => {
    const before = seen.length;
    const result = await gtt(
      'plan-legs',
      '--leg',
      `buy:nfo:nifty08dec26c25500:2`,
      '--leg',
      `S:${CE}:1`,
      '--leg',
      'sell:BFO:SENSEX10DEC26P80000:3',
      '--stop',
      '12.5',
      '--target',
      '30',
      '--prd',
      'NRML',
      '--tag',
      'spread',
      '--key',
      'legs-1',
    );
    expect(result.code, result.err).toBe(0);
    expect(result.out.split('\n')).toEqual([
      'created pllegs0123456789  entry-placed  net when every leg fills  stop 40 target 25%',
      `  legs: S 1 lot NFO:${CE} entry 21 not filled yet; S 1 lot NFO:${PE} entry not placed yet`,
    ]);
    const [sent, ...more] = seen.slice(before);
    expect(more).toEqual([]);
    expect(sent).toMatchObject({ url: 'POST /plans', key: 'legs-1' });
    const body = {
      kind: 'option-legs',
      legs: [
        { exch: 'NFO', tsym: 'NIFTY08DEC26C25500', trantype: 'B', lots: 2 },
        { exch: 'NFO', tsym: CE, trantype: 'S', lots: 1 },
        { exch: 'BFO', tsym: 'SENSEX10DEC26P80000', trantype: 'S', lots: 3 },
      ],
      exit: { stop: '12.5', target: '30' },
      prd: 'M',
      tag: 'spread',
    };
    expect(sent!.body).toEqual(body);
    expect(optionLegsInput.safeParse(body).success).toBe(true);
  });

  const leg = (text: string) => ['--leg', text];
  it.each([
    [['plan-legs', ...leg(`S:${CE}:1`), '--stop', '40', '--target', '25%'], 'give 2 to 4 --leg'],
    [
      [...GOOD, ...leg('B:NIFTY08DEC26C25100:1'), ...leg('B:NIFTY08DEC26C25200:1'), ...leg('B:NIFTY08DEC26C25300:1')],
      'got 5',
    ],
    [[...GOOD, ...leg(`B:${CE}:2`)], `NFO:${CE} is named twice`],
    [['plan-legs', ...leg(`X:${CE}:1`), ...GOOD.slice(3)], 'its side must be B or S (also buy, sell), got "X"'],
    [['plan-legs', ...leg(`S:NSE:${CE}:1`), ...GOOD.slice(3)], 'its exchange must be NFO or BFO'],
    [['plan-legs', ...leg('S:RELIANCE-EQ:1'), ...GOOD.slice(3)], '"RELIANCE-EQ" is not an option\'s symbol'],
    [['plan-legs', ...leg(`S:${CE}:0.5`), ...GOOD.slice(3)], 'its lots must be a whole number of lots from 1 to 1000'],
    [['plan-legs', ...leg(`S:${CE}:1001`), ...GOOD.slice(3)], 'got "1001"'],
    [['plan-legs', ...leg(CE), ...GOOD.slice(3)], '--leg must be SIDE:TSYM:LOTS or SIDE:EXCH:TSYM:LOTS'],
    [
      [...GOOD.slice(0, 7), '--target', '25 %'],
      '--target must be points of the net premium (40, 12.5) or a percentage',
    ],
    [[...GOOD, '--prd', 'MIS'], '--prd MIS is intraday'],
    [GOOD.slice(0, 5), 'missing --stop, --target'],
    [[...GOOD, '--legs', 'x'], 'unknown flag: --legs (did you mean --leg?)'],
  ])('%j: exit 2, %s, nothing sent', async (args, message) => {
    const before = seen.length;
    const result = await gtt(...args);
    expect(result.code, result.out).toBe(2);
    expect(result.err).toContain(message);
    expect(result.err).toContain('usage: npm run gtt -- plan-legs --leg --stop --target');
    expect(seen.length).toBe(before);
  });
});
