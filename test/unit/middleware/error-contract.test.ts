import { describe, expect, it } from 'vitest';

import { BrokerRejectedError, RateLimitedError } from '../../../functions/base/contract/errors.js';
import { directInvocationError, errorContract } from '../../../functions/base/middleware/error-contract.js';
import { placeGttOrder } from '../../../functions/orders/operations.js';
import { httpApiEvent } from '../../support/events.js';
import { run } from './support.js';

describe('errorContract', () => {
  it('an HTTP call gets the error body and its status; a rate limit carries Retry-After', async () => {
    const refused = await run(
      [errorContract({ trigger: 'api' })],
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
    const failed = await run([errorContract({ trigger: 'api' })], () => {
      throw new BrokerRejectedError('no margin');
    });
    expect(failed.error).toBeInstanceOf(Error);
    expect((failed.error as Error).name).toBe('BrokerRejected');
    expect(JSON.parse((failed.error as Error).message)).toMatchObject({ error: { code: 'BROKER_REJECTED' } });
  });

  it('an unexpected error becomes INTERNAL_ERROR without its own text, and a token-shaped text is redacted', async () => {
    const crashed = await run(
      [errorContract({ trigger: 'api' })],
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
      [errorContract({ trigger: 'api' })],
      () => {
        throw new BrokerRejectedError(`rejected for jKey=${token}`);
      },
      httpApiEvent(placeGttOrder),
    );
    expect((leaked.result as { body: string }).body).not.toContain(token);
  });

  it('a queue or a schedule gets the named error whatever the event; an HTTP event changes nothing for them', async () => {
    for (const trigger of ['queue', 'schedule'] as const) {
      const failed = await run(
        [errorContract({ trigger })],
        () => {
          throw new RateLimitedError('later', { details: { retryAfterSeconds: 3 } });
        },
        httpApiEvent(placeGttOrder),
      );
      expect(failed.result).toBeUndefined();
      expect((failed.error as Error).name).toBe('RateLimited');
      expect(JSON.parse((failed.error as Error).message)).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    }
  });

  it('the trigger may be read from the event; a direct-invocation error from in-process keeps its code', async () => {
    const trigger = (event: unknown) => ((event as { Records?: unknown }).Records ? 'queue' : 'api') as 'queue' | 'api';
    const nested = directInvocationError(new BrokerRejectedError('no margin'));
    const http = await run(
      [errorContract({ trigger, headers: { 'cache-control': 'no-store' } })],
      () => {
        throw nested;
      },
      httpApiEvent(placeGttOrder),
    );
    expect(http.result).toMatchObject({ statusCode: 422, headers: { 'cache-control': 'no-store' } });
    expect(JSON.parse((http.result as { body: string }).body)).toMatchObject({ error: { code: 'BROKER_REJECTED' } });
    const queued = await run([errorContract({ trigger })], () => Promise.reject(nested), { Records: [] });
    expect((queued.error as Error).name).toBe('BrokerRejected');
  });

  it('an unexpected error keeps its text (redacted) for a schedule, never for an API caller', async () => {
    const token = 'b'.repeat(64);
    const crash = () => {
      throw new TypeError(`table unreachable, jKey=${token}`);
    };
    const scheduled = await run([errorContract({ trigger: 'schedule' })], crash);
    expect((scheduled.error as Error).name).toBe('InternalError');
    expect((scheduled.error as Error).message).toContain('TypeError: table unreachable');
    expect((scheduled.error as Error).message).not.toContain(token);
    const direct = await run([errorContract({ trigger: 'api' })], crash);
    expect((direct.error as Error).message).not.toContain('table unreachable');
  });
});
