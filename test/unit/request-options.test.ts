/**
 * Request options (query parameters, the headers the gateway defines, payload fields) are either honoured or
 * refused: a misspelt option must never be dropped silently (a misspelt `dryRun` would otherwise act for real).
 */
import { describe, expect, it } from 'vitest';

import { ValidationFailedError } from '../../functions/base/contract/errors.js';
import { readGatewayRequest } from '../../functions/base/contract/gateway-request.js';
import type { AnyOperation } from '../../functions/base/contract/operation.js';
import { OPERATIONS } from '../../functions/manifest/index.js';
import {
  cancelGttOrder,
  getPendingGttOrders,
  logout,
  modifyGttOrder,
  placeGttOrder,
} from '../../functions/orders/operations.js';
import { httpApiEvent, type HttpEventOptions } from '../support/events.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

const order = SAMPLE_ORDER;

const refusal = (operation: AnyOperation, event: unknown): ValidationFailedError => {
  try {
    readGatewayRequest(operation, event);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailedError);
    return error as ValidationFailedError;
  }
  throw new Error('expected the request to be refused');
};
const httpRefusal = (operation: AnyOperation, options: HttpEventOptions) =>
  refusal(operation, httpApiEvent(operation, options));

describe('query parameters', () => {
  it.each(['dryrun', 'dry_run', 'DryRun', 'dry-run', 'DRYRUN'])(
    'place ?%s=true is refused naming it, with a hint',
    (name) => {
      const error = httpRefusal(placeGttOrder, { body: order, query: { [name]: 'true' } });
      expect(error.message).toContain(name);
      expect(error.message).toMatch(/did you mean dryRun/);
      expect(error.details).toEqual([
        { field: name, message: expect.stringMatching(/unknown query parameter.*did you mean dryRun/) },
      ]);
    },
  );

  it('cancel ?dryrun=true is refused', () => {
    const error = httpRefusal(cancelGttOrder, { pathParameters: { alId: '1' }, query: { dryrun: 'true' } });
    expect(error.details).toEqual([{ field: 'dryrun', message: expect.any(String) }]);
  });

  it('names every unknown parameter, and caps what it echoes', () => {
    const long = 'q'.repeat(5000);
    const error = httpRefusal(getPendingGttOrders, { query: { foo: '1', [long]: '2' } });
    expect(error.message).toContain('foo');
    expect(error.message.length).toBeLessThan(1000);
    expect((error.details as { field: string }[]).map((d) => d.field)).toEqual(['foo', expect.stringMatching(/^q+…/)]);
  });

  it('dryRun itself is still honoured where dry run is supported', () => {
    expect(
      readGatewayRequest(placeGttOrder, httpApiEvent(placeGttOrder, { body: order, query: { dryRun: 'true' } })).options
        .dryRun,
    ).toBe(true);
    expect(
      readGatewayRequest(
        modifyGttOrder,
        httpApiEvent(modifyGttOrder, { body: order, pathParameters: { alId: '7' }, query: { dryRun: 'false' } }),
      ).options.dryRun,
    ).toBe(false);
  });

  it('dryRun on an operation without dry run is refused naming it', () => {
    const error = httpRefusal(getPendingGttOrders, { query: { dryRun: 'true' } });
    expect(error.details).toEqual([{ field: 'dryRun', message: expect.stringMatching(/dry run/) }]);
  });

  it("the operation table's `query` list is what an operation takes: each fills the input field of its name", () => {
    const withFilters: AnyOperation = { ...getPendingGttOrders, query: ['tsym', 'exch'] };
    const request = readGatewayRequest(
      withFilters,
      httpApiEvent(withFilters, { query: { tsym: 'M&M-EQ', exch: 'NSE' } }),
    );
    expect(request.payload).toEqual({ tsym: 'M&M-EQ', exch: 'NSE' });
    expect(httpRefusal(withFilters, { query: { symbol: 'X' } }).message).toMatch(/takes only tsym, exch/);
  });

  it('no operation of the table takes an undeclared query parameter', () => {
    for (const operation of OPERATIONS) {
      const event = httpApiEvent(operation, {
        query: { surprise: '1' },
        ...(operation.pathParams ? { pathParameters: { alId: '1' } } : {}),
      });
      expect(refusal(operation, event).details).toContainEqual({ field: 'surprise', message: expect.any(String) });
    }
  });
});

describe('headers the gateway defines', () => {
  it.each(['Idempotency_Key', 'X-Idempotency-Key', 'IdempotencyKey'])(
    'a look-alike of Idempotency-Key (%s) is refused, not ignored',
    (name) => {
      const error = httpRefusal(placeGttOrder, { body: order, headers: { [name]: 'k-1' } });
      expect(error.details).toEqual([{ field: name.toLowerCase(), message: expect.stringMatching(/Idempotency-Key/) }]);
    },
  );

  it('a dry-run header is refused: dry run is a query parameter', () => {
    const error = httpRefusal(placeGttOrder, { body: order, headers: { 'X-Dry-Run': 'true' } });
    expect(error.message).toMatch(/\?dryRun=true/);
  });
});

describe('payload fields', () => {
  it('a body al_id that differs from the path is refused with details {field, message}', () => {
    const error = httpRefusal(modifyGttOrder, { body: { ...order, al_id: '456' }, pathParameters: { alId: '123' } });
    expect(error.details).toEqual([{ field: 'al_id', message: expect.any(String) }]);
  });

  it('a body al_id that is an object is refused, not stringified', () => {
    const error = httpRefusal(modifyGttOrder, {
      body: { ...order, al_id: { toString: 1 } },
      pathParameters: { alId: '1' },
    });
    expect(error.details).toEqual([{ field: 'al_id', message: expect.any(String) }]);
    const nested = httpRefusal(modifyGttOrder, {
      body: `{"al_id":${'['.repeat(3000)}${']'.repeat(3000)}}`,
      pathParameters: { alId: '1' },
    });
    expect(nested.message.length).toBeLessThan(500);
  });

  it('a body al_id beyond 2^53 differs from the path it was rounded away from', () => {
    const error = httpRefusal(cancelGttOrder, {
      body: '{"al_id":26112200000000001}',
      pathParameters: { alId: '26112200000000001' },
    });
    expect(error.details).toEqual([{ field: 'al_id', message: expect.any(String) }]);
  });

  it.each([logout, getPendingGttOrders])(
    'direct payload options are only idempotencyKey and dryRun ($name)',
    (operation) => {
      // Option-like fields are not stripped: the strict input schema refuses them by name.
      expect(readGatewayRequest(operation, { dry_run: true }).payload).toEqual({ dry_run: true });
    },
  );
});
