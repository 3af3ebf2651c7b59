/**
 * The emulator's 52-week model over real HTTP on 127.0.0.1 (docs/reference/emulator.md, "The 52-week range"): every
 * priced symbol has a 52-week high and low, seeded 25% either side of its first price on the tick, or set beside a
 * price (`POST /_emulator/ltp` with `week52High`, `week52Low`); a price beyond them moves them; GetQuotes answers
 * them as `wk52_h`, `wk52_l` (strings). LTP_A_52HIGH fires when the last price rises above the 52-week high as it
 * stood (a new high), LTP_B_52LOW below the low, whatever `d` says (docs/explanation/broker-wire.md, "Alert types").
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { type EmulatorFixture, useEmulator } from '../support/emulator-fixture.js';
import { wireGtt } from '../support/wire-order.js';
import { control, jdata } from './jdata-client.js';

const fixture = useEmulator();
let emu: EmulatorFixture;
beforeEach(() => {
  emu = fixture();
});

const INFY = { exch: 'NSE', tsym: 'INFY-EQ', qty: '5', prc: '1500' };

const call = async (op: string, fields: Record<string, unknown>) =>
  (await jdata(emu.url, op, { uid: emu.uid, ...fields }, emu.token)).body as Record<string, unknown>;
const place = async (ai_t: string, d: string) =>
  call('PlaceGTTOrder', wireGtt({ ...INFY, trantype: 'B', ai_t, d }, emu));
const market = async (fields: Record<string, unknown>) => {
  const reply = await control(emu.url, 'POST', 'ltp', { exch: INFY.exch, tsym: INFY.tsym, ...fields });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body as { triggered: string[] }).triggered;
};
const range = async () => {
  const found = (await call('SearchScrip', { exch: INFY.exch, stext: INFY.tsym })) as {
    values: { tsym: string; token: string }[];
  };
  const token = found.values.find((v) => v.tsym === INFY.tsym)!.token;
  const quote = await call('GetQuotes', { exch: INFY.exch, token });
  expect(quote).toMatchObject({ stat: 'Ok' });
  return [quote.wk52_h, quote.wk52_l];
};

describe("the emulator's 52-week high and low", () => {
  it('are seeded 25% either side of the first price, on the tick, and answered by GetQuotes as strings', async () => {
    await market({ ltp: 1500 });
    expect(await range()).toEqual(['1875.00', '1125.00']);
    await control(emu.url, 'POST', 'ltp', { exch: 'NSE', tsym: 'INFY-EQ', clear: true });
    // 25% of 1234.55 is 308.6375: the high up to 1543.20 and the low down to 925.90, on the 0.05 tick.
    await market({ ltp: 1234.55 });
    expect(await range()).toEqual(['1543.20', '925.90']);
  });

  it('are set beside a price, and a price beyond them moves them', async () => {
    await market({ ltp: 1500, week52High: 1600, week52Low: 1200 });
    expect(await range()).toEqual(['1600.00', '1200.00']);
    await market({ ltp: 1590 });
    expect(await range()).toEqual(['1600.00', '1200.00']);
    await market({ ltp: 1650.5 });
    expect(await range()).toEqual(['1650.50', '1200.00']);
    await market({ ltp: 1100 });
    expect(await range()).toEqual(['1650.50', '1100.00']);
    // One side set alone never crosses the other: the high (1650.50) moves up to the low set (1655), then the price
    // (1660) is a new high.
    await market({ ltp: 1660, week52Low: 1655 });
    expect(await range()).toEqual(['1660.00', '1655.00']);
  });

  it('LTP_A_52HIGH fires on the price that makes a new 52-week high, not at d, and once', async () => {
    await market({ ltp: 1500, week52High: 1600, week52Low: 1200 });
    const placed = await place('LTP_A_52HIGH', '1550');
    expect(placed).toMatchObject({ stat: 'OI created' });
    // d (1550) is crossed and the high (1600) reached, not passed: no new high.
    expect(await market({ ltp: 1560 })).toEqual([]);
    expect(await market({ ltp: 1600 })).toEqual([]);
    expect(await market({ ltp: 1600.05 })).toEqual([placed.al_id]);
    // The high is 1600.05 now: a second one waits for a price above it.
    const second = await place('LTP_A_52HIGH', '1600');
    expect(await market({ ltp: 1600.05 })).toEqual([]);
    expect(await market({ ltp: 1610 })).toEqual([second.al_id]);
  });

  it('LTP_B_52LOW fires on a new 52-week low; d 0 is taken, as a family web client sends it', async () => {
    await market({ ltp: 1500, week52High: 1600, week52Low: 1200 });
    const placed = await place('LTP_B_52LOW', '0');
    expect(placed).toMatchObject({ stat: 'OI created' });
    expect(await market({ ltp: 1200 })).toEqual([]);
    expect(await market({ ltp: 1199.95 })).toEqual([placed.al_id]);
    expect(await range()).toEqual(['1600.00', '1199.95']);
    expect(await place('LTP_B_52LOW', '-1')).toEqual({
      stat: 'Not_Ok',
      emsg: 'Invalid Input : d must be a number (0 or more) for LTP_B_52LOW',
    });
  });

  it('a range set with the price beyond it: the price is the new high, and the alert fires', async () => {
    await market({ ltp: 1500 });
    const placed = await place('LTP_A_52HIGH', '1500');
    expect(await market({ ltp: 1601, week52High: 1600 })).toEqual([placed.al_id]);
    expect(await range()).toEqual(['1601.00', '1125.00']);
  });

  it('the control surface refuses a range it cannot hold, and changes nothing', async () => {
    await market({ ltp: 1500 });
    for (const [body, error] of [
      [{ week52High: -5 }, 'week52High, when given, is a positive price'],
      [{ week52Low: '1200' }, 'week52Low, when given, is a positive price'],
      [{ week52High: 1200, week52Low: 1300 }, 'week52High must not be below week52Low'],
    ] as const) {
      const reply = await control(emu.url, 'POST', 'ltp', { exch: 'NSE', tsym: 'INFY-EQ', ltp: 1500, ...body });
      expect(reply).toMatchObject({ status: 400, body: { error } });
    }
    expect(await range()).toEqual(['1875.00', '1125.00']);
  });
});
