import { describe, expect, it } from 'vitest';

import { httpResponse } from '../../../functions/orders/gateway/http-response.js';
import { getPendingGttOrders, placeGttOrder } from '../../../functions/orders/operations.js';
import { run } from './support.js';

describe('httpResponse', () => {
  it("wraps an HTTP call's result with the entry's success status; a direct call keeps the raw result", async () => {
    const http = await run([httpResponse(placeGttOrder)], () => ({ al_id: '1' }), {}, { source: 'http' });
    expect(http.result).toEqual({
      statusCode: 201,
      headers: { 'content-type': 'application/json' },
      body: '{"al_id":"1"}',
    });
    const direct = await run([httpResponse(placeGttOrder)], () => ({ al_id: '1' }), {}, { source: 'direct' });
    expect(direct.result).toEqual({ al_id: '1' });
    const read = await run([httpResponse(getPendingGttOrders)], () => ({ orders: [] }), {}, { source: 'http' });
    expect((read.result as { statusCode: number }).statusCode).toBe(200);
  });

  it('a dry run answers 200 whatever the success status (it created nothing)', async () => {
    const dry = await run(
      [httpResponse(placeGttOrder)],
      () => ({ dryRun: true }),
      {},
      {
        source: 'http',
        request: { operation: placeGttOrder, source: 'http', payload: {}, options: { dryRun: true } } as never,
      },
    );
    expect((dry.result as { statusCode: number }).statusCode).toBe(200);
  });
});
