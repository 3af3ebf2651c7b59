/**
 * The emulator's own order-rate limit (switch `enforceOrderRate`): as a Noren broker since the 2026 rules, the
 * 11th order write of a user in one second is refused with the broker's text. A fixed clock keeps every request in
 * one second.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { wireGtt } from '../support/wire-order.js';
import { jdata } from './jdata-client.js';

let emu: RunningEmulator;
let ctl: EmulatorControl;
let clock = new Date('2026-11-23T04:00:00.100Z');

const order = () => wireGtt({ qty: '1', prc: '2500' }, emu);
const place = () => jdata(emu.url, 'PlaceGTTOrder', order(), emu.token);

beforeAll(async () => {
  emu = await startEmulator({ port: 0, now: () => clock });
  ctl = emulatorControl(emu.url);
});
afterAll(async () => {
  await emu?.close();
});
beforeEach(async () => {
  await ctl.reset();
  clock = new Date('2026-11-23T04:00:00.100Z');
});

describe('enforceOrderRate', () => {
  it('off (the default): any number of order writes in a second', async () => {
    const replies = await Promise.all(Array.from({ length: 15 }, place));
    expect(replies.every((r) => (r.body as { stat: string }).stat === 'OI created')).toBe(true);
  });

  it('on: ten order writes a second, the 11th and 12th refused with the Noren text; the next second counts afresh; reads do not count', async () => {
    await ctl.switches({ enforceOrderRate: true });
    const placed: string[] = [];
    for (let i = 0; i < 9; i++) placed.push((await place()).body as never);
    expect((await jdata(emu.url, 'GetPendingGTTOrder', { uid: emu.uid }, emu.token)).body).toHaveLength(9);
    const alId = (placed[0] as unknown as { al_id: string }).al_id;
    expect((await jdata(emu.url, 'CancelGTTOrder', { uid: emu.uid, al_id: alId }, emu.token)).body).toMatchObject({
      stat: 'OI deleted',
    });
    expect((await place()).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'Invalid Input : Order Recieved 11 in a current second exceeds Limit 10 for user',
    });
    expect((await place()).body).toMatchObject({
      emsg: 'Invalid Input : Order Recieved 12 in a current second exceeds Limit 10 for user',
    });
    clock = new Date('2026-11-23T04:00:01.000Z');
    expect((await place()).body).toMatchObject({ stat: 'OI created' });
  });
});
