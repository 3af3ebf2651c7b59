/**
 * The emulator's dialects (emulator/wire/dialect.ts, docs/reference/emulator.md "Dialects") over real HTTP: the 2021 dialect's
 * texts and capitalised keys, Flattrade's texts operation by operation, the switch at start (`startEmulator`) and at
 * run time, a reset back to the start's, refusals. `npm run emulator -- --dialect` (a child process) is in
 * test/e2e/emulator-cli.test.ts.
 */
import { describe, expect, it } from 'vitest';

import { startEmulator } from '../../emulator/server.js';
import { emulatorControl } from '../support/emulator-control.js';
import { type EmulatorFixture, gttJData, useEmulator } from '../support/emulator-fixture.js';

const fixture = useEmulator();

const call = async (emu: EmulatorFixture, op: string, jData: unknown) => {
  const res = await fetch(`${emu.url}/ClientAPI/${op}`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain', Authorization: `Bearer ${emu.token}` },
    body: `jData=${JSON.stringify(jData)}`,
  });
  return (await res.json()) as Record<string, unknown>;
};
const dialect = async (emu: EmulatorFixture, method: 'GET' | 'POST', body?: unknown) => {
  const res = await fetch(`${emu.url}/_emulator/dialect`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** Place, list, modify and cancel one GTT; the four replies as sent. */
const roundTrip = async (emu: EmulatorFixture) => {
  const placed = await call(emu, 'PlaceGTTOrder', gttJData(emu, { remarks: 'note' }));
  const alId = (placed.al_id ?? placed.Al_id) as string;
  const list = (await call(emu, 'GetPendingGTTOrder', { uid: emu.uid })) as unknown as Record<string, unknown>[];
  const modified = await call(emu, 'ModifyGTTOrder', { ...gttJData(emu, { d: '2480' }), al_id: alId });
  const cancelled = await call(emu, 'CancelGTTOrder', { uid: emu.uid, al_id: alId });
  return { alId, placed, record: list[0]!, modified, cancelled };
};

describe('the dialects of the emulator', () => {
  it('speaks noren by default', async () => {
    const emu = fixture();
    expect((await dialect(emu, 'GET')).body).toEqual({ dialect: 'noren' });
    const { alId, placed, record, modified, cancelled } = await roundTrip(emu);
    expect(placed).toMatchObject({ stat: 'OI created', al_id: alId });
    expect(record).toMatchObject({ al_id: alId, remarks: 'note', qty: 10, prc: '2500.5' });
    expect(record).toHaveProperty('token');
    expect(modified).toMatchObject({ stat: 'OI replaced', al_id: alId });
    expect(cancelled).toMatchObject({ stat: 'OI deleted', al_id: alId });
  });

  it('speaks 2021 after POST /_emulator/dialect, until a reset', async () => {
    const emu = fixture();
    expect(await dialect(emu, 'POST', { dialect: '2021' })).toEqual({ status: 200, body: { dialect: '2021' } });
    const { alId, placed, record, modified, cancelled } = await roundTrip(emu);
    expect(placed).toEqual({ request_time: expect.any(String), stat: 'Oi created', Al_id: alId });
    expect(record).toMatchObject({ stat: 'Ok', Al_id: alId, Remarks: 'note', Qty: 10, Prc: '2500.5', C: 'C' });
    expect(record).toHaveProperty('Token');
    for (const key of ['al_id', 'remarks', 'qty', 'prc', 'token']) expect(record).not.toHaveProperty(key);
    expect(modified).toEqual({ request_time: expect.any(String), stat: 'Oi Replacedt', Al_id: alId });
    expect(cancelled).toEqual({ request_time: expect.any(String), stat: 'Oi delete success', Al_id: alId });
    // Failures are the same in every dialect.
    expect(await call(emu, 'CancelGTTOrder', { uid: emu.uid, al_id: alId })).toMatchObject({ stat: 'Invalid Oi' });
    await emu.control.reset();
    expect((await dialect(emu, 'GET')).body).toEqual({ dialect: 'noren' });
  });

  it('speaks flattrade: its texts operation by operation, keys lower case', async () => {
    const emu = fixture();
    expect(await dialect(emu, 'POST', { dialect: 'flattrade' })).toEqual({
      status: 200,
      body: { dialect: 'flattrade' },
    });
    const { alId, placed, record, modified, cancelled } = await roundTrip(emu);
    expect(placed).toEqual({ request_time: expect.any(String), stat: 'Oi created', al_id: alId });
    expect(record).toMatchObject({ al_id: alId, remarks: 'note', qty: 10, prc: '2500.5' });
    expect(modified).toEqual({ request_time: expect.any(String), stat: 'Oi Replaced', al_id: alId });
    expect(cancelled).toEqual({ request_time: expect.any(String), stat: 'Oi delete success', al_id: alId });
    const leg = (trantype: string, prc: string) => ({
      exch: 'NSE',
      tsym: 'INFY-EQ',
      trantype,
      prctyp: 'LMT',
      prd: 'C',
      ret: 'DAY',
      actid: emu.actid,
      uid: emu.uid,
      ordersource: 'API',
      qty: '1',
      prc,
    });
    const oco = {
      uid: emu.uid,
      actid: emu.actid,
      ai_t: 'LMT_BOS_O',
      validity: 'GTT',
      tsym: 'INFY-EQ',
      exch: 'NSE',
      oivariable: [
        { d: '1600', var_name: 'x' },
        { d: '1400', var_name: 'y' },
      ],
      place_order_params: leg('S', '1600'),
      place_order_params_leg2: leg('S', '1395'),
    };
    const ocoPlaced = await call(emu, 'PlaceOCOOrder', oco);
    expect(ocoPlaced).toMatchObject({ stat: 'OI created', al_id: expect.any(String) });
    const ocoId = ocoPlaced.al_id as string;
    expect(await call(emu, 'ModifyOCOOrder', { ...oco, al_id: ocoId })).toMatchObject({
      stat: 'OI replaced',
      al_id: ocoId,
    });
    expect(await call(emu, 'CancelOCOOrder', { uid: emu.uid, al_id: ocoId })).toMatchObject({
      stat: 'Oi delete success',
    });
    expect(await call(emu, 'CancelGTTOrder', { uid: emu.uid, al_id: alId })).toMatchObject({ stat: 'Invalid Oi' });
  });

  it('refuses an unknown dialect', async () => {
    const emu = fixture();
    expect((await dialect(emu, 'POST', { dialect: 'shoonya' })).status).toBe(400);
    expect((await dialect(emu, 'POST', {})).status).toBe(400);
    expect((await dialect(emu, 'GET')).body).toEqual({ dialect: 'noren' });
    await expect(startEmulator({ port: 0, dialect: 'x' as never })).rejects.toThrow(/dialect must be one of/);
  });

  it('starts in a dialect, and a reset keeps it', async () => {
    const running = await startEmulator({ port: 0, dialect: '2021' });
    try {
      const own = Object.assign(running, { control: emulatorControl(running.url) });
      await own.control.reset();
      expect((await dialect(own, 'GET')).body).toEqual({ dialect: '2021' });
      expect((await roundTrip(own)).placed).toMatchObject({ stat: 'Oi created' });
    } finally {
      await running.close();
    }
  });
});
