import { describe, expect, it } from 'vitest';

import type { GatewayRequest } from '../../../functions/base/contract/gateway-request.js';
import { parseRequest } from '../../../functions/orders/gateway/parse-request.js';
import { cancelGttOrder } from '../../../functions/orders/operations.js';
import { httpApiEvent } from '../../support/events.js';

describe('parseRequest', () => {
  it('reads the request and returns the validated input with its options', () => {
    const parsed = parseRequest(
      cancelGttOrder,
      httpApiEvent(cancelGttOrder, { pathParameters: { alId: '26112400000001' } }),
    );
    expect(parsed.input).toEqual({ al_id: '26112400000001' });
    expect(parsed.request.source).toBe('http');
  });

  it('bad input is VALIDATION_FAILED naming the field; the request was told before validation (for the audit)', () => {
    let read: GatewayRequest | undefined;
    expect(() => parseRequest(cancelGttOrder, { al_id: 'not an id!' }, (request) => (read = request))).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', message: expect.stringContaining('al_id') }),
    );
    expect(read?.payload).toEqual({ al_id: 'not an id!' });
  });
});
