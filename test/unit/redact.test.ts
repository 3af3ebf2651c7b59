/** The redaction applied to every text that leaves the gateway (functions/base/contract/redact.ts). */
import { describe, expect, it } from 'vitest';

import { BrokerBadReplyError } from '../../functions/base/contract/errors.js';
import { redactDeep, redactError, redactText, rememberSecret } from '../../functions/base/contract/redact.js';

const TOKEN = 'Zq81xTokenValueForRedaction+/=';
rememberSecret(TOKEN);

describe('redactText', () => {
  it('replaces a known token wherever it stands, plain or percent-encoded', () => {
    expect(redactText(`<html>${TOKEN} refused</html>`)).toBe('<html><redacted> refused</html>');
    expect(redactText(`x=${encodeURIComponent(TOKEN)}`)).toBe('x=<redacted>');
  });

  it('replaces token-shaped values it does not know, and leaves ordinary words alone', () => {
    expect(redactText('Authorization: Bearer eyJhbGciOi.J9abc123')).toBe('Authorization: Bearer <redacted>');
    expect(redactText('jData={"uid":"U1"}&jKey=abc123def')).toBe('jData={"uid":"U1"}&jKey=<redacted>');
    expect(redactText('{"access_token":"9f8e7d"}')).toBe('{"access_token":"<redacted>"}');
    expect(redactText('Basic information: bearer of news')).toBe('Basic information: bearer of news');
    expect(redactText('Invalid Input : qty must be 1')).toBe('Invalid Input : qty must be 1');
    // Every word the cheap look before the patterns checks for, in any case, and the shortest match.
    expect(redactText('SUSERTOKEN: 1a2b3c4d')).toBe('SUSERTOKEN: <redacted>');
    expect(redactText('accessToken=z9')).toBe('accessToken=<redacted>');
    expect(redactText('BASIC%20dXNlcjpwYXNz1')).toBe('BASIC <redacted>');
    expect(redactText('jkey=x')).toBe('jkey=<redacted>');
  });

  it('short values are never treated as secrets', () => {
    rememberSecret('1');
    expect(redactText('qty 1')).toBe('qty 1');
  });
});

describe('redactDeep and redactError', () => {
  it('returns a value in which nothing changed as it was, and copies one that changed', () => {
    const clean = { a: { b: ['x', 1, null] }, c: 'plain text of a record' };
    expect(redactDeep(clean)).toBe(clean);
    const dirty = { a: 1, [`Bearer ${TOKEN}`]: 'k', b: 2, c: { d: `jKey=${TOKEN}` } };
    const out = redactDeep(dirty);
    expect(out).not.toBe(dirty);
    expect(out).toEqual({ a: 1, 'Bearer <redacted>': 'k', b: 2, c: { d: 'jKey=<redacted>' } });
    expect(Object.keys(out)).toEqual(['a', 'Bearer <redacted>', 'b', 'c']);
  });

  it('reach every string of a value and every field of an error, keeping its class', () => {
    expect(redactDeep({ a: [`Bearer ${TOKEN}`], b: 1, c: { d: TOKEN } })).toEqual({
      a: ['Bearer <redacted>'],
      b: 1,
      c: { d: '<redacted>' },
    });
    const error = redactError(
      new BrokerBadReplyError(`saw ${TOKEN}`, {
        brokerMessage: `jKey=${TOKEN}`,
        details: { bodyStart: `Bearer ${TOKEN}` },
      }),
    );
    expect(error).toBeInstanceOf(BrokerBadReplyError);
    expect(JSON.stringify(error.toBody())).not.toContain(TOKEN);
    expect(error.toBody()).toMatchObject({
      message: 'saw <redacted>',
      brokerMessage: 'jKey=<redacted>',
      details: { bodyStart: 'Bearer <redacted>' },
    });
  });
});
