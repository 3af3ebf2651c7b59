/**
 * The day's option chains through the daily refresh (functions/instruments/refresh.ts, chain.ts) into the instruments'
 * copy in dynalite, read back by `chainsFromCopy` (functions/orders/instruments/chain-copy.ts): the master is a text
 * served on loopback, so the test stands on its own master, not the emulator's.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { indiaDay } from '../../functions/base/schemas/india-time.js';
import { refreshInstruments } from '../../functions/instruments/refresh.js';
import { chainsFromCopy } from '../../functions/orders/instruments/chain-copy.js';
import { InstrumentCopy } from '../../functions/orders/instruments/copy.js';
import { pickContract } from '../../functions/orders/instruments/option-pick.js';
import { LOCAL_INSTRUMENTS_TABLE, type LocalDynamo, startLocalDynamo } from '../../local/dynamodb.js';
import { optionMaster } from '../support/option-master.js';

let dynamo: LocalDynamo;
let server: Server;
let masterUrl = '';
let master = '';
const NOW = Date.parse('2026-12-07T03:00:00Z');
const far = () => Date.now() + 10_000;

beforeAll(async () => {
  dynamo = await startLocalDynamo({ extraTables: [{ name: LOCAL_INSTRUMENTS_TABLE, key: 'pk' }] });
  server = createServer((_req, res) => res.end(master));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  masterUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/{exch}_symbols.txt`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await dynamo?.close();
});

const copy = () => new InstrumentCopy({ tableName: LOCAL_INSTRUMENTS_TABLE, endpoint: dynamo.url });
const refresh = (now: number) =>
  refreshInstruments({
    copy: copy(),
    broker: {} as never, // no symbol is in use: the broker is not called
    exchanges: ['NFO'],
    masterUrl: (exch) => masterUrl.replace('{exch}', exch),
    symbolsInUse: () => Promise.resolve([]),
    timeoutMs: 5_000,
    now: () => now,
  });

describe("the day's option chains in the copy", () => {
  it("the refresh writes each underlying's chain; chainsFromCopy reads today's expiries and strikes", async () => {
    master = optionMaster(['2026-12-15', '2026-12-08', '2026-12-29'], { from: 24_000, to: 25_000, step: 50 });
    const run = await refresh(NOW);
    expect(run.masters[0]).toMatchObject({ exch: 'NFO', chains: { underlyings: 2, expiries: 4, tooLarge: [] } });
    const chains = chainsFromCopy(copy(), () => NOW);
    expect(await chains.expiries('NFO', 'NIFTY', far())).toEqual(['2026-12-08', '2026-12-15', '2026-12-29']);
    const chain = (await chains.chain('NFO', 'NIFTY', '2026-12-08', far()))!;
    expect(chain).toMatchObject({ underlying: 'NIFTY', exch: 'NFO', expiry: '2026-12-08', lot: 65, tick: '0.05' });
    expect(chain.strikes).toHaveLength(21);
    expect(chain.strikes[10]).toMatchObject({
      strike: 24_500,
      CE: { tsym: 'NIFTY08DEC26C24500' },
      PE: { tsym: 'NIFTY08DEC26P24500' },
    });
    // The token is the master's, and the chain is what option-pick.ts chooses from.
    const ce = chain.strikes[10]!.CE!;
    expect(master).toContain(`NFO,${ce.token},65,NIFTY,NIFTY08DEC26C24500,`);
    expect(pickContract(chain, 24_512, 'ATM+1', 'CE')).toMatchObject({ tsym: 'NIFTY08DEC26C24550', strikeStep: 50 });
    // The instruments themselves are still written as before.
    expect(await copy().get('NFO', 'NIFTY08DEC26C24500')).toMatchObject({
      token: ce.token,
      lot: 65,
      day: '2026-12-07',
    });
  });

  it("an underlying or expiry without a chain today is [] / undefined; yesterday's chain is not today's", async () => {
    const chains = chainsFromCopy(copy(), () => NOW);
    expect(await chains.expiries('NFO', 'BANKNIFTY', far())).toEqual([]);
    expect(await chains.chain('NFO', 'NIFTY', '2026-12-22', far())).toBeUndefined();
    const tomorrow = chainsFromCopy(copy(), () => NOW + 86_400_000);
    expect(indiaDay(NOW + 86_400_000)).toBe('2026-12-08');
    expect(await tomorrow.expiries('NFO', 'NIFTY', far())).toEqual([]);
    expect(await tomorrow.chain('NFO', 'NIFTY', '2026-12-08', far())).toBeUndefined();
  });

  it('a read that fails is GATEWAY_BUSY with outcome not_executed, never an empty chain', async () => {
    const closed = new InstrumentCopy({ tableName: LOCAL_INSTRUMENTS_TABLE, endpoint: 'http://127.0.0.1:9' });
    const chains = chainsFromCopy(closed, () => NOW);
    await expect(chains.expiries('NFO', 'NIFTY', far())).rejects.toMatchObject({
      code: 'GATEWAY_BUSY',
      outcome: 'not_executed',
    });
    await expect(chains.chain('NFO', 'NIFTY', '2026-12-08', Date.now() - 1)).rejects.toMatchObject({
      code: 'GATEWAY_BUSY',
      outcome: 'not_executed',
    });
  });
});
