import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { GuardrailRejectedError } from '../../../functions/base/contract/errors.js';
import { operationMetrics } from '../../../functions/orders/gateway/operation-metrics.js';
import { run } from './support.js';

let emitted: Record<string, unknown>[];
let metrics: Metrics;

beforeEach(() => {
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
  emitted = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n')) if (line.includes('"_aws"')) emitted.push(JSON.parse(line) as never);
    return true;
  });
  metrics = new Metrics({ namespace: 'Test', serviceName: 'test', defaultDimensions: { Operation: 'PlaceGTTOrder' } });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('operationMetrics', () => {
  it('a success counts Requests and Succeeded, the broker latency and attempts, and a queued event', async () => {
    await run([operationMetrics(metrics)], (ctx) => {
      Object.assign(ctx.gateway.facts, {
        brokerMs: 12.5,
        brokerAttempts: 1,
        event: { status: 'queued', detailType: 'GTT Placed', eventId: 'e1' },
      });
      return {};
    });
    metrics.publishStoredMetrics();
    expect(emitted[0]).toMatchObject({
      Requests: 1,
      Succeeded: 1,
      BrokerLatency: 12.5,
      BrokerAttempts: 1,
      EventsQueued: 1,
    });
    expect(emitted[0]).not.toHaveProperty('Failed');
  });

  it('a failure counts Failed, a guardrail rejection, and Errors by ErrorCode (Operation added once)', async () => {
    await run([operationMetrics(metrics)], () => {
      throw new GuardrailRejectedError('too big');
    });
    metrics.publishStoredMetrics();
    const main = emitted.find((m) => 'Failed' in m)!;
    expect(main).toMatchObject({ Requests: 1, Failed: 1, GuardrailRejections: 1 });
    const byCode = emitted.find((m) => 'Errors' in m)!;
    expect(byCode).toMatchObject({ ErrorCode: 'GUARDRAIL_REJECTED', Operation: 'PlaceGTTOrder', Errors: 1 });
  });
});
