/**
 * The emulator as a market, over real HTTP on 127.0.0.1 (docs/reference/emulator.md, "The market"): a limit order a GTT
 * places fills only at a price the market reached: marketable on arrival, at the market's price; otherwise it rests
 * OPEN and fills at its limit when a later price reaches it (a gap leaves it open). A single GTT whose trigger the
 * price already meets when it is placed is taken (not refused) and fires on the next price, as a crossing would.
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

const call = async (op: string, fields: Record<string, unknown>) =>
  (await jdata(emu.url, op, { uid: emu.uid, ...fields }, emu.token)).body;
const placeGtt = async (over: Record<string, unknown>) =>
  (await call('PlaceGTTOrder', wireGtt({ tsym: 'INFY-EQ', qty: '5', ...over }, emu))) as {
    stat: string;
    al_id: string;
  };
const ltp = async (value: number) =>
  (await control(emu.url, 'POST', 'ltp', { exch: 'NSE', tsym: 'INFY-EQ', ltp: value })).body as {
    fired: { al_id: string; norenordno: string; status: string }[];
    filled: { norenordno: string; al_id: string; avgprc: string }[];
  };
const bookOrder = async (norenordno: string) =>
  ((await call('OrderBook', {})) as Record<string, string>[]).find((o) => o.norenordno === norenordno);
const pendingIds = async () => {
  const pending = await call('GetPendingGTTOrder', {});
  return Array.isArray(pending) ? pending.map((o: { al_id: string }) => o.al_id) : [];
};

describe('the emulator as a market', () => {
  it('a buy limit fills at the market when the market is lower than its price', async () => {
    await placeGtt({ trantype: 'B', prc: '1500', d: '1490', ai_t: 'LTP_B_O' });
    const [fired] = (await ltp(1484.5)).fired;
    expect(await bookOrder(fired!.norenordno)).toMatchObject({ status: 'COMPLETE', prc: '1500', avgprc: '1484.5' });
  });

  it('a buy limit the market has not come down to rests OPEN, and fills at its limit when the market falls to it', async () => {
    const placed = await placeGtt({ trantype: 'B', prc: '1500', d: '1510', ai_t: 'LTP_A_O' });
    const [fired] = (await ltp(1512)).fired;
    expect(fired).toMatchObject({ al_id: placed.al_id, status: 'OPEN' });
    const open = await bookOrder(fired!.norenordno);
    expect(open).toMatchObject({
      status: 'OPEN',
      prc: '1500',
      prctyp: 'LMT',
      trantype: 'B',
      qty: '5',
      fillshares: '0',
    });
    expect(open).not.toHaveProperty('avgprc');
    // Still above the limit: still open.
    expect((await ltp(1500.05)).filled).toEqual([]);
    expect(await bookOrder(fired!.norenordno)).toMatchObject({ status: 'OPEN' });
    // Through the limit: it fills at its own price, not the market's lower one.
    expect((await ltp(1490)).filled).toEqual([{ norenordno: fired!.norenordno, al_id: placed.al_id, avgprc: '1500' }]);
    expect(await bookOrder(fired!.norenordno)).toMatchObject({ status: 'COMPLETE', fillshares: '5', avgprc: '1500' });
    const history = (await call('SingleOrdHist', { norenordno: fired!.norenordno })) as { status: string }[];
    expect(history.map((h) => h.status)).toEqual(['COMPLETE', 'OPEN', 'PENDING']);
  });

  it('a sell stop through a gap (1462 to 1450, limit 1455) stays OPEN; it fills at 1455 when the market trades there', async () => {
    await ltp(1462);
    const placed = await placeGtt({ trantype: 'S', prc: '1455', d: '1460', ai_t: 'LTP_B_O' });
    const [fired] = (await ltp(1450)).fired;
    expect(fired).toMatchObject({ al_id: placed.al_id, status: 'OPEN' });
    expect(await bookOrder(fired!.norenordno)).toMatchObject({ status: 'OPEN', fillshares: '0', prc: '1455' });
    expect((await ltp(1454.95)).filled).toEqual([]);
    expect((await ltp(1455)).filled).toEqual([{ norenordno: fired!.norenordno, al_id: placed.al_id, avgprc: '1455' }]);
    expect(await bookOrder(fired!.norenordno)).toMatchObject({ status: 'COMPLETE', avgprc: '1455' });
    // Filled once: a later price fills nothing more.
    expect((await ltp(1470)).filled).toEqual([]);
  });

  it('an open order left by a gap is cancelled at the close of the day, with nothing filled', async () => {
    await placeGtt({ trantype: 'S', prc: '1455', d: '1460', ai_t: 'LTP_B_O' });
    const [fired] = (await ltp(1450)).fired;
    const closed = (await control(emu.url, 'POST', 'close', { norenordno: fired!.norenordno })).body;
    expect(closed).toEqual({ cancelled: [fired!.norenordno] });
    expect(await bookOrder(fired!.norenordno)).toMatchObject({ status: 'CANCELED', fillshares: '0' });
    // A cancelled order does not fill when the market comes back.
    expect((await ltp(1460)).filled).toEqual([]);
  });

  it('a sell limit fills at the market when the market is higher than its price', async () => {
    await placeGtt({ trantype: 'S', prc: '1600', d: '1600', ai_t: 'LTP_A_O' });
    const [fired] = (await ltp(1611.25)).fired;
    expect(await bookOrder(fired!.norenordno)).toMatchObject({ status: 'COMPLETE', avgprc: '1611.25' });
  });

  it('a GTT whose trigger is already met when placed is taken, then fires on the next price', async () => {
    await ltp(1480);
    const placed = await placeGtt({ trantype: 'B', prc: '1500', d: '1490', ai_t: 'LTP_B_O' });
    expect(placed.stat).toBe('OI created');
    // Placing fires nothing: it waits for the next price.
    expect(await pendingIds()).toEqual([placed.al_id]);
    const { fired } = await ltp(1481);
    expect(fired).toEqual([expect.objectContaining({ al_id: placed.al_id, status: 'COMPLETE' })]);
    expect(await bookOrder(fired[0]!.norenordno)).toMatchObject({ avgprc: '1481' });
    expect(await pendingIds()).toEqual([]);
  });
});
