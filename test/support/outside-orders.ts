/**
 * Orders placed outside the gateway, as the broker's own app would place them: straight to the emulator over jData.
 * The watcher, paging and events tests use them to give the account orders the gateway never saw.
 */
import { expect } from 'vitest';

import { jdata } from '../contract/jdata-client.js';
import { emulatorControl } from './emulator-control.js';
import { wireGtt } from './wire-order.js';

export interface EmulatorAccount {
  url: string;
  uid: string;
  actid: string;
  token: string;
}

/** A buy of 3 TCS-EQ at 4000 when the price reaches 3990; `fields` override any of it. */
export const placeOutside = async (
  account: EmulatorAccount,
  fields: Record<string, unknown> = {},
  token: string = account.token,
): Promise<string> => {
  const reply = await jdata(
    account.url,
    'PlaceGTTOrder',
    wireGtt({ tsym: 'TCS-EQ', qty: '3', prc: '4000', d: '3990', ...fields }, account),
    token,
  );
  expect(reply.body).toMatchObject({ stat: 'OI created' });
  return String((reply.body as { al_id: string }).al_id);
};

/** Places `count` buys of SBIN-EQ at 800 when the price reaches 800, one after another, then moves SBIN-EQ to 790 so
 * they all fire; returns their al_ids in the order placed. */
export const fireOutside = async (account: EmulatorAccount, count: number): Promise<string[]> => {
  const fired: string[] = [];
  for (let i = 0; i < count; i++) fired.push(await placeOutside(account, { tsym: 'SBIN-EQ', d: '800', prc: '800' }));
  await emulatorControl(account.url).ltp('NSE', 'SBIN-EQ', 790);
  return fired;
};
