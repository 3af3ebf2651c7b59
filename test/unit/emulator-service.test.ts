/** The emulator's request -> reply logic, called directly without a socket. */
import { describe, expect, it } from 'vitest';
import { BrokerEmulator } from '../../emulator/service.js';
import { compactRequestTime, decodeSymbol, requestTime } from '../../emulator/formats.js';

const emulator = () => new BrokerEmulator({ token: 'unit-token-123' });
const send = (emu: BrokerEmulator, op: string, jData: unknown, token = 'unit-token-123') =>
  JSON.parse(
    emu.handle({ method: 'POST', path: `/ClientAPI/${op}`, headers: { authorization: `Bearer ${token}` }, body: `jData=${JSON.stringify(jData)}` }).body,
  ) as Record<string, unknown>;

describe('emulator service', () => {
  it('formats request_time in IST in both shapes of section 4', () => {
    const at = new Date(Date.UTC(2026, 10, 22, 18, 45, 7)); // 00:15:07 on 23-11-2026 in IST
    expect(requestTime(at)).toBe('00:15:07 23-11-2026');
    expect(compactRequestTime(at)).toBe('23112026001507');
  });

  it('decodes symbols like a form decoder and keeps undecodable text', () => {
    expect(decodeSymbol('M%26M-EQ')).toBe('M&M-EQ');
    expect(decodeSymbol('NIFTY+25DEC+24000+CE')).toBe('NIFTY 25DEC 24000 CE');
    expect(decodeSymbol('%2B%3D%25')).toBe('+=%');
    expect(decodeSymbol('50%')).toBe('50%');
  });

  it('never reuses an al_id, even after reset', () => {
    const emu = emulator();
    const order = { uid: 'DEMO01', actid: 'DEMO01', exch: 'NSE', tsym: 'X', qty: '1', prc: '1', prd: 'C', trantype: 'B', prctyp: 'LMT', ret: 'DAY', ai_t: 'LTP_B_O', validity: 'GTT', d: '1' };
    const first = send(emu, 'PlaceGTTOrder', order).al_id as string;
    emu.reset();
    const second = send(emu, 'PlaceGTTOrder', order).al_id as string;
    expect(BigInt(second)).toBeGreaterThan(BigInt(first));
  });

  it('keeps the token out of the request log', () => {
    const emu = emulator();
    send(emu, 'GetEnabledGTTs', { uid: 'DEMO01' });
    expect(JSON.stringify(emu.requestLog())).not.toContain('unit-token-123');
    expect(emu.requestLog()[0]).toMatchObject({ authorization: 'Bearer <redacted>', authUid: 'DEMO01' });
  });

  it('answers an unknown operation without touching state', () => {
    const reply = emulator().handle({ method: 'POST', path: '/ClientAPI/Nope', headers: {}, body: '' });
    expect(reply.status).toBe(404);
    expect(JSON.parse(reply.body)).toEqual({ stat: 'Not_Ok', emsg: 'Invalid Input : unknown operation Nope' });
  });
});
