/**
 * `gtt plans` and `gtt plan` with a legs-as-one plan (client/cli/commands/plan-legs.ts): in place of its symbol the
 * net premium at the fills and the exit (as written and in points of move), then one line of its legs, each with its
 * fill, what is open and its close; a plan just created says its legs are not filled yet. A loopback server answers
 * as the gateway does.
 */
import http from 'node:http';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { listenOnLoopback } from '../../local/loopback.js';

const LEG = { exch: 'NFO', token: '45001', lots: 1, lot: 65, qty: 65, tick: '0.05', weight: 1, prc: '115' };
const CE = 'NIFTY08DEC26C25000';
const PE = 'NIFTY08DEC26P25000';
const base = {
  kind: 'option-legs',
  exch: 'NFO',
  tsym: `${CE} + ${PE}`,
  createdAt: '2026-12-07T04:00:00.000Z',
  updatedAt: '2026-12-07T04:00:00.000Z',
  alIds: {},
  history: [{ at: '2026-12-07T04:00:00.000Z', action: 'created' }],
};
const CLOSING = {
  ...base,
  planId: 'pllegs1',
  state: 'unprotected',
  reason: 'the net premium moved -41.5 points against the legs: every leg is closed',
  legs: {
    legs: [
      {
        ...LEG,
        tsym: CE,
        trantype: 'S',
        entryOrder: '21',
        filledQty: 65,
        fill: 81.4,
        open: 65,
        closeGen: 1,
        closePrc: '108.6',
        closeOrder: '23',
      },
      {
        ...LEG,
        tsym: PE,
        trantype: 'S',
        lots: 2,
        qty: 130,
        weight: 2,
        entryOrder: '22',
        filledQty: 130,
        fill: 79.8,
        open: 0,
      },
    ],
    exit: { stop: '40', target: '25%' },
    prd: 'M',
    entryNet: -241,
    stopPoints: 40,
    targetPoints: 60.25,
    closing: { end: 'done', why: 'stop', gen: 1 },
  },
};
const NEW = {
  ...base,
  planId: 'pllegs2',
  state: 'entry-placed',
  legs: {
    legs: [
      { ...LEG, tsym: CE, trantype: 'B', entryOrder: '31' },
      { ...LEG, tsym: PE, trantype: 'B' },
    ],
    exit: { stop: '20', target: '30' },
    prd: 'M',
  },
};

let api: Awaited<ReturnType<typeof listenOnLoopback>>;
beforeAll(async () => {
  api = await listenOnLoopback(
    http.createServer((req, res) => {
      const body = req.url?.startsWith('/plans/pllegs1') ? CLOSING : { plans: [CLOSING, NEW] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    }),
  );
});
afterAll(async () => {
  await api?.close();
});

const gtt = async (...args: string[]) => {
  const out: string[] = [];
  const code = await main(
    [...args, '--url', api.url, '--no-sign'],
    { GTT_API_URL: '' },
    { out: (t) => out.push(t), err: () => undefined },
  );
  return { code, out: out.join('\n') };
};

it("lists a legs plan's net premium and exit, then its legs with fills, open quantities and closes", async () => {
  const result = await gtt('plans');
  expect(result.code).toBe(0);
  expect(result.out.split('\n')).toEqual([
    'pllegs1  option-legs  unprotected  net -241  stop 40 target 25% (move -40 / +60.25)  the net premium moved -41.5 points against the legs: every leg is closed',
    `  legs: S 1 lot NFO:${CE} filled 65 at 81.4, open 65, closing order 23 at 108.6; S 2 lots NFO:${PE} filled 130 at 79.8, open 0`,
    'pllegs2  option-legs  entry-placed  net when every leg fills  stop 20 target 30',
    `  legs: B 1 lot NFO:${CE} entry 31 not filled yet; B 1 lot NFO:${PE} entry not placed yet`,
  ]);
});

it('shows one legs plan the same way, then its history', async () => {
  const result = await gtt('plan', 'pllegs1');
  const lines = result.out.split('\n');
  expect(lines[1]).toBe(
    `  legs: S 1 lot NFO:${CE} filled 65 at 81.4, open 65, closing order 23 at 108.6; S 2 lots NFO:${PE} filled 130 at 79.8, open 0`,
  );
  expect(lines[2]).toBe('  2026-12-07 09:30:00 +05:30  created');
});
