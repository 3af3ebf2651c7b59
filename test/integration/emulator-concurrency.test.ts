/**
 * The broker emulator under hundreds of concurrent requests over real HTTP on 127.0.0.1: every place gets its own
 * al_id and every one is listed, singles and OCOs. Kept out of the fast tier (`npm run test:fast` is unit and contract
 * tests without network fan-out); the shapes of one request at a time are in test/contract/.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { type EmulatorFixture, useEmulator } from '../support/emulator-fixture.js';
import { ocoClient } from '../support/oco-client.js';
import { plainClient } from '../support/plain-client.js';

let emu: EmulatorFixture;
const { place, pending } = plainClient(() => emu);
const { placeOco } = ocoClient(() => emu);

const fixture = useEmulator();
beforeEach(() => {
  emu = fixture();
});

describe('many places at once', () => {
  it('500 places at once get 500 distinct al_ids, all listed', async () => {
    await emu.control.switches({ acceptAnySymbol: true }); // 500 distinct symbols: more than the shipped list holds
    const replies = await Promise.all(Array.from({ length: 500 }, (_, i) => place({ tsym: `SYM${i}-EQ` })));
    const ids = new Set(replies.map((r) => r.al_id));
    expect(replies.every((r) => r.stat === 'OI created')).toBe(true);
    expect(ids.size).toBe(500);
    const listed = (await pending()) as { al_id: string }[];
    expect(new Set(listed.map((r) => r.al_id))).toEqual(ids);
  });

  it('200 OCO places at once get 200 distinct al_ids, all listed', async () => {
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => placeOco({ remarks: `r${i}` })));
    expect(replies.every((r) => r.stat === 'OI created')).toBe(true);
    const ids = new Set(replies.map((r) => r.al_id));
    expect(ids.size).toBe(200);
    const listed = (await pending()) as { al_id: string; remarks: string }[];
    expect(new Set(listed.map((r) => r.al_id))).toEqual(ids);
    expect(new Set(listed.map((r) => r.remarks)).size).toBe(200);
  });
});
