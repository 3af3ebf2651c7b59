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
  });

  it('short values are never treated as secrets', () => {
    rememberSecret('1');
    expect(redactText('qty 1')).toBe('qty 1');
  });
});

describe('redactDeep and redactError', () => {
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
