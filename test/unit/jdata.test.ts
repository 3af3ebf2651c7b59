import { describe, expect, it } from 'vitest';

import { buildBrokerRequest, encodeJDataBody, encodeSymbol } from '../../functions/base/broker/jdata.js';
import { ValidationFailedError } from '../../functions/base/contract/errors.js';

describe('jData codec', () => {
  it.each([
    ['M&M-EQ', 'M%26M-EQ'],
    ['L&TFH-EQ', 'L%26TFH-EQ'],
    ['NIFTY 25DEC 24000 CE', 'NIFTY%2025DEC%2024000%20CE'],
    ['50%', '50%25'],
    ['A+B', 'A%2BB'],
    ['X=Y', 'X%3DY'],
    ['RELIANCE-EQ', 'RELIANCE-EQ'],
  ])('URL-encodes the special characters of %s', (symbol, encoded) => {
    expect(encodeSymbol(symbol)).toBe(encoded);
    // What a broker's form decoding does must give the real symbol back.
    expect(decodeURIComponent(encoded.replace(/\+/g, ' '))).toBe(symbol);
  });

  it('writes the literal jData= prefix followed by the JSON object, every value a string', () => {
    const body = encodeJDataBody({ uid: 'U1', qty: '5', prc: '0' });
    expect(body).toBe('jData={"uid":"U1","qty":"5","prc":"0"}');
    expect(JSON.parse(body.slice('jData='.length))).toEqual({ uid: 'U1', qty: '5', prc: '0' });
  });

  it('builds POST {base}/ClientAPI/<Operation> with text/plain and the bearer token only in the header', () => {
    const req = buildBrokerRequest('http://127.0.0.1:9100/', 'PlaceGTTOrder', { uid: 'U1' }, 'secret-token-123');
    expect(req.url).toBe('http://127.0.0.1:9100/ClientAPI/PlaceGTTOrder');
    expect(req.headers).toEqual({ 'Content-Type': 'text/plain', Authorization: 'Bearer secret-token-123' });
    expect(req.body).toBe('jData={"uid":"U1"}');
    expect(req.body).not.toContain('secret-token-123');
  });

  it('uses the base URL path as the prefix, with or without a trailing slash; no path means /ClientAPI', () => {
    for (const base of [
      'https://broker.example/NorenWClientTP',
      'https://broker.example/NorenWClientTP/',
      'https://broker.example/NorenWClientTP//',
    ]) {
      expect(buildBrokerRequest(base, 'Logout', {}, 'tok-xyz').url).toBe(
        'https://broker.example/NorenWClientTP/Logout',
      );
    }
    expect(buildBrokerRequest('https://broker.example/', 'Logout', {}, 'tok-xyz').url).toBe(
      'https://broker.example/ClientAPI/Logout',
    );
    expect(buildBrokerRequest('https://broker.example/a/b', 'Logout', {}, 'tok-xyz').url).toBe(
      'https://broker.example/a/b/Logout',
    );
  });

  it('jkey mode: the token goes after jData as &jKey=, with no Authorization header, and never inside jData', () => {
    const req = buildBrokerRequest('http://127.0.0.1:9100', 'GetPendingGTTOrder', { uid: 'U1' }, 'tok+/=1', 'jkey');
    expect(req.headers).toEqual({ 'Content-Type': 'text/plain' });
    expect(req.body).toBe('jData={"uid":"U1"}&jKey=tok%2B%2F%3D1');
    expect(() => buildBrokerRequest('http://x', 'Logout', { uid: 'tok-abc' }, 'tok-abc', 'jkey')).toThrow(
      ValidationFailedError,
    );
  });

  it('refuses to send a body that contains the token: a 400 that does not say why (user input put it there)', () => {
    expect(() => buildBrokerRequest('http://x', 'Logout', { uid: 'tok-abc' }, 'tok-abc')).toThrow(
      ValidationFailedError,
    );
    expect(() => buildBrokerRequest('http://x', 'Logout', { uid: 'tok-abc' }, 'tok-abc')).toThrow(/^(?!.*token).*$/);
  });
});
