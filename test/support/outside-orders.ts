/**
 * Orders placed outside the gateway, as the broker's own app would place them: straight to the emulator over jData.
 * The watcher, paging and events tests use them to give the account orders the gateway never saw.
 */
import { expect } from 'vitest';

import { jdata } from '../contract/jdata-client.js';
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
