import { describe, expect, it } from 'vitest';

import { BrokerRejectedError, RateLimitedError } from '../../../functions/contract/errors.js';
import { errorContract } from '../../../functions/middleware/error-contract.js';
import { placeGttOrder } from '../../../functions/operations.js';
import { httpApiEvent } from '../../support/events.js';
import { run } from '../gateway/support.js';

describe('errorContract', () => {
  it('an HTTP call gets the error body and its status; a rate limit carries Retry-After', async () => {
    const refused = await run(
      [errorContract()],
      () => {
        throw new RateLimitedError('slow down', { outcome: 'not_executed', details: { retryAfterSeconds: 3 } });
      },
      httpApiEvent(placeGttOrder),
    );
    expect(refused.result).toMatchObject({ statusCode: 429, headers: { 'retry-after': '3' } });
    expect(JSON.parse((refused.result as { body: string }).body)).toMatchObject({
      error: { code: 'RATE_LIMITED', message: 'slow down', outcome: 'not_executed' },
    });
  });

  it('a direct invocation gets a named error whose message is the same body', async () => {
    const failed = await run([errorContract()], () => {
      throw new BrokerRejectedError('no margin');
    });
    expect(failed.error).toBeInstanceOf(Error);
    expect((failed.error as Error).name).toBe('BrokerRejected');
    expect(JSON.parse((failed.error as Error).message)).toMatchObject({ error: { code: 'BROKER_REJECTED' } });
  });

  it('an unexpected error becomes INTERNAL_ERROR without its own text, and a token-shaped text is redacted', async () => {
    const crashed = await run(
      [errorContract()],
      () => {
        throw new TypeError('secret internals');
      },
      httpApiEvent(placeGttOrder),
    );
    const body = crashed.result as { statusCode: number; body: string };
    expect(body.statusCode).toBe(500);
    expect(body.body).toContain('INTERNAL_ERROR');
    expect(body.body).not.toContain('secret internals');
    const token = 'a'.repeat(64);
    const leaked = await run(
      [errorContract()],
      () => {
        throw new BrokerRejectedError(`rejected for jKey=${token}`);
      },
      httpApiEvent(placeGttOrder),
    );
    expect((leaked.result as { body: string }).body).not.toContain(token);
  });
});
