/**
 * `gtt plan-option` (client/cli/commands/plan-option.ts): the flags as the body of POST /plans {kind: "option-entry"},
 * a mistake named with the way forward before anything is sent (exit 2), `--dry-run` sent as `?dryRun=true` without a
 * key and said as the contract it would pick now, `--key` as the Idempotency-Key; and `gtt plans` showing an option
 * plan's index, level, pick and contract. A loopback server answers as the gateway does and records what reaches it.
 */
import http from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { OPTION_INDICES } from '../../client/cli/commands/plan-option.js';
import { INDEX_NAMES, optionEntryInput } from '../../functions/base/schemas/option-plan.js';
import { listenOnLoopback } from '../../local/loopback.js';

interface Seen {
  method: string;
  url: string;
  key: string | undefined;
  body: unknown;
}
const seen: Seen[] = [];
const RESOLVED = { tsym: 'NIFTY08DEC26C24500', strike: 24500, expiry: '2026-12-08', lot: 65, qty: 130, price: 24512 };
const OPTION = {
  underlying: { name: 'NIFTY', exch: 'NSE', tsym: 'Nifty 50', token: '26000' },
  when: { above: '24500' },
  pick: { expiry: 'nearest', strike: 'ATM', type: 'CE' },
  lots: 2,
  trantype: 'B',
  prd: 'M',
  exit: { stop: '20', target: '25%' },
};
const record = (planId: string, extra: Record<string, unknown> = {}) => ({
  planId,
  kind: 'option-entry',
  state: 'watching',
  exch: 'NSE',
  tsym: 'Nifty 50',
  createdAt: '2026-12-07T04:00:00.000Z',
  updatedAt: '2026-12-07T04:00:00.000Z',
  alIds: {},
  history: [],
  option: OPTION,
  ...extra,
});

let api: Awaited<ReturnType<typeof listenOnLoopback>>;
beforeAll(async () => {
  api = await listenOnLoopback(
    http.createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const key = req.headers['idempotency-key'];
        seen.push({
          method: req.method ?? '',
          url: req.url ?? '',
          key: typeof key === 'string' ? key : undefined,
          body: text ? JSON.parse(text) : undefined,
        });
        const reply = (status: number, body: unknown) =>
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        if (req.method === 'GET')
          return reply(200, {
            plans: [
              record('pl1'),
              record('pl2', {
                state: 'entry-placed',
                option: { ...OPTION, resolved: { ...RESOLVED, exch: 'NFO', token: '1', type: 'CE', atm: 24500 } },
              }),
            ],
          });
        if (req.url?.includes('dryRun=true'))
          return reply(200, {
            dryRun: true,
            kind: 'option-entry',
            underlying: { name: 'NIFTY', exch: 'NSE', tsym: 'Nifty 50', token: '26000', price: 24512 },
            contract: {
              ...RESOLVED,
              exch: 'NFO',
              token: '1',
              type: 'CE',
              atm: 24500,
              strikeStep: 50,
              tick: '0.05',
              lastPrice: 123.4,
            },
            lots: 2,
            qty: 130,
            entry: {
              exch: 'NFO',
              tsym: RESOLVED.tsym,
              trantype: 'B',
              prd: 'M',
              qty: 130,
              prctyp: 'LMT',
              ret: 'IOC',
              prc: '124.05',
            },
          });
        return reply(201, record('pl0123456789abcdef'));
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
  const code = await main(
    [...args, '--url', api.url, '--no-sign'],
    { GTT_API_URL: '' },
    {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
    },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
};
const GOOD = [
  'plan-option',
  'NIFTY',
  '--above',
  '24500',
  '--ce',
  'ATM',
  '--lots',
  '2',
  '--stop',
  '20',
  '--target',
  '25%',
];

describe('gtt plan-option', () => {
  it("names the gateway's indices", () => {
    expect(OPTION_INDICES).toEqual(Object.keys(INDEX_NAMES));
  });

  it('--dry-run asks the gateway which contract it would pick now, with no key, and creates nothing', async () => {
    const before = seen.length;
    const result = await gtt(...GOOD, '--dry-run');
    expect(result.code).toBe(0);
    expect(result.out).toBe(
      'dry run: nothing was sent. NIFTY above 24500: would buy NIFTY08DEC26C24500 now (strike 24500, expiry 2026-12-08, 2 × lot 65 = 130; last 123.4, entry limit 124.05) at NIFTY 24512; the contract is chosen again when it crosses',
    );
    const [sent, ...more] = seen.slice(before);
    expect(more).toEqual([]);
    expect(sent).toMatchObject({ method: 'POST', key: undefined });
    expect(sent!.url).toBe('/plans?dryRun=true');
    const body = {
      kind: 'option-entry',
      underlying: 'NIFTY',
      when: { above: '24500' },
      pick: { expiry: 'nearest', strike: 'ATM', type: 'CE' },
      lots: 2,
      trantype: 'B',
      prd: 'M',
      exit: { stop: '20', target: '25%' },
    };
    expect(sent!.body).toEqual(body);
    expect(optionEntryInput.safeParse(body).success).toBe(true);
  });

  it('creates with --key as the Idempotency-Key; a put, a strike, a date, --sell and --prd as the gateway takes them', async () => {
    const before = seen.length;
    const result = await gtt(
      'plan-option',
      'banknifty',
      '--below',
      '51000',
      '--pe',
      'atm-2',
      '--expiry',
      '2026-12-31',
      '--lots',
      '1',
      '--stop',
      '10%',
      '--target',
      '40',
      '--sell',
      '--prd',
      'NRML',
      '--key',
      'opt-1',
    );
    expect(result.code).toBe(0);
    expect(result.out).toBe(
      'created pl0123456789abcdef  watching  NIFTY above 24500  ATM CE nearest 2 lots  contract when it crosses',
    );
    const [sent] = seen.slice(before);
    expect(sent).toMatchObject({ method: 'POST', url: '/plans', key: 'opt-1' });
    expect(sent!.body).toEqual({
      kind: 'option-entry',
      underlying: 'BANKNIFTY',
      when: { below: '51000' },
      pick: { expiry: '2026-12-31', strike: 'ATM-2', type: 'PE' },
      lots: 1,
      trantype: 'S',
      prd: 'M',
      exit: { stop: '10%', target: '40' },
    });
    expect(optionEntryInput.safeParse(sent!.body).success).toBe(true);
    await gtt(
      'plan-option',
      'NIFTY',
      '--above',
      '24500',
      '--ce',
      '24600',
      '--lots',
      '1',
      '--stop',
      '5',
      '--target',
      '9',
    );
    expect((seen.at(-1)!.body as { pick: unknown }).pick).toEqual({ expiry: 'nearest', strike: 24600, type: 'CE' });
    // --max-value: the cap the gateway checks when the index crosses, in the body as rupees.
    await gtt(...GOOD, '--max-value', '15000.50');
    expect((seen.at(-1)!.body as { maxValue?: unknown }).maxValue).toBe(15000.5);
    expect(optionEntryInput.safeParse(seen.at(-1)!.body).success).toBe(true);
  });

  it.each([
    [
      ['plan-option', 'NIFTY50', ...GOOD.slice(2)],
      'the index must be one of NIFTY, BANKNIFTY, FINNIFTY, MIDCPNIFTY, SENSEX',
    ],
    [[...GOOD, '--below', '24000'], 'give --above or --below, not both'],
    [[...GOOD.slice(0, 4), '--ce', 'OTM', ...GOOD.slice(6)], '--ce must be ATM, ATM+n or ATM-n'],
    [[...GOOD, '--expiry', 'weekly'], '--expiry must be nearest, next-month or a date YYYY-MM-DD, got "weekly"'],
    [
      [...GOOD.slice(0, 6), '--lots', '1001', '--stop', '20', '--target', '25%'],
      '--lots must be a whole number of lots from 1 to 1000',
    ],
    [
      [...GOOD.slice(0, 6), '--lots', '0.5', '--stop', '20', '--target', '25%'],
      '--lots must be a whole number of lots from 1 to 1000 (not units)',
    ],
    [[...GOOD.slice(0, 10), '--target', '25 %'], '--target must be premium points (20, 12.5) or a percentage'],
    [[...GOOD, '--prd', 'MIS'], '--prd MIS is intraday'],
    [[...GOOD, '--max-value', '0'], '--max-value must be rupees greater than 0'],
    [[...GOOD, '--max-value', '50k'], '--max-value must be rupees greater than 0'],
    [
      ['plan-option', 'NIFTY', '--lots', '2', '--stop', '20', '--target', '25%'],
      'missing --above LEVEL or --below LEVEL, and --ce STRIKE or --pe STRIKE',
    ],
    [['plan-option', 'NIFTY', '--ce', 'ATM'], 'missing --lots, --stop, --target'],
    [[...GOOD, '--lot', '2'], 'unknown flag: --lot (did you mean --lots?)'],
  ])('%j: exit 2, %s, nothing sent', async (args, message) => {
    const before = seen.length;
    const result = await gtt(...args);
    expect(result.code, result.out).toBe(2);
    expect(result.err).toContain(message);
    expect(result.err).toContain('usage: npm run gtt -- plan-option <index> --above --below --ce --pe');
    expect(seen.length).toBe(before);
  });
});

describe('gtt plans', () => {
  it("shows an option plan's index, level, pick and, once chosen, its contract", async () => {
    const result = await gtt('plans');
    expect(result.out.split('\n')).toEqual([
      'pl1  option-entry  watching  NSE:Nifty 50  NIFTY above 24500  ATM CE nearest 2 lots  contract when it crosses',
      'pl2  option-entry  entry-placed  NSE:Nifty 50  NIFTY above 24500  ATM CE nearest 2 lots  contract NIFTY08DEC26C24500 (at NIFTY 24512)',
    ]);
  });
});
