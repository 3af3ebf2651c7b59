/**
 * What counts as one source of OAuth callbacks (functions/session/oauth.ts): the address API Gateway reports, an
 * IPv6 address as its /64, so a caller cannot become many sources by rotating the low bits of one subscriber block.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';

import { sourceOf } from '../../functions/session/oauth.js';

const from = (sourceIp?: string) =>
  ({ requestContext: { http: sourceIp === undefined ? {} : { sourceIp } } }) as unknown as APIGatewayProxyEventV2;

describe('the source of a callback', () => {
  it('is the IPv4 address as reported, or unknown without one', () => {
    expect(sourceOf(from('203.0.113.7'))).toBe('203.0.113.7');
    expect(sourceOf(from('::ffff:203.0.113.7'))).toBe('::ffff:203.0.113.7');
    expect(sourceOf(from())).toBe('unknown');
  });

  it('is the /64 of an IPv6 address, however it is written', () => {
    const block = '2001:db8:aa:1::/64';
    for (const ip of ['2001:db8:aa:1::1', '2001:0db8:00aa:0001:ffff:1:2:3', '2001:DB8:AA:1:0:0:0:9'])
      expect(sourceOf(from(ip))).toBe(block);
    expect(sourceOf(from('2001:db8:aa:2::1'))).not.toBe(block);
    expect(sourceOf(from('2001:db8::1'))).toBe('2001:db8:0:0::/64');
    expect(sourceOf(from('::1'))).toBe('0:0:0:0::/64');
  });
});
