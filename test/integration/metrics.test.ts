/**
 * The shared stack's CloudWatch metrics (EMF lines on stdout, what CloudWatch reads from a Lambda's output):
 * counts by outcome and error code, broker latency and attempts, guardrail rejections, idempotent replays and
 * published events, per operation.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { jdata } from '../contract/jdata-client.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
const lines: string[] = [];

beforeAll(async () => {
  // On for this file (vitest.config.ts turns metrics off elsewhere); read when the handlers are built.
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
  stack = await startLocalStack({ settings: { GUARDRAIL_MAX_QTY: 10 } });
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(
      ...String(chunk)
        .split('\n')
        .filter((l) => l.includes('"_aws"')),
    );
    return true;
  });
});
afterAll(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await stack.close();
});
beforeEach(() => {
  lines.length = 0;
});

type Emf = Record<string, unknown> & {
  _aws: {
    CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[];
  };
};
const emitted = (): Emf[] => lines.map((l) => JSON.parse(l) as Emf);

const ORDER = SAMPLE_ORDER;
const post = (body: unknown, key: string) =>
  fetch(`${stack.api.url}/gtt-orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify(body),
  });

describe('operation metrics', () => {
  it('a place: Requests, Succeeded, BrokerLatency, BrokerAttempts and EventsQueued under Operation; its replay: IdempotentReplays; the forwarder: EventsPublished', async () => {
    expect((await post(ORDER, 'm-1')).status).toBe(201);
    await stack.eventsForwarded();
    const [first] = emitted().filter((m) => m.Operation === 'PlaceGTTOrder');
    expect(first).toMatchObject({
      service: 'gtt-gateway',
      Operation: 'PlaceGTTOrder',
      Requests: 1,
      Succeeded: 1,
      BrokerAttempts: 1,
      EventsQueued: 1,
    });
    expect(first).not.toHaveProperty('EventsPublished');
    expect(emitted().find((m) => m.Function === 'EventForwarder')).toMatchObject({
      EventsPublished: 1,
      EventPublishFailures: 0,
    });
    expect(first!.BrokerLatency).toEqual(expect.any(Number));
    expect(first!._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: 'GttGateway',
      Dimensions: [['service', 'Operation']],
    });

    lines.length = 0;
    expect((await post(ORDER, 'm-1')).status).toBe(201);
    expect(emitted()[0]).toMatchObject({ Operation: 'PlaceGTTOrder', IdempotentReplays: 1 });
    expect(emitted()[0]).not.toHaveProperty('EventsQueued');
  });

  it('a guardrail rejection: Failed, GuardrailRejections, and Errors by ErrorCode; no broker metrics', async () => {
    expect((await post({ ...ORDER, qty: 50 }, 'm-2')).status).toBe(422);
    const all = emitted();
    expect(all.find((m) => 'Failed' in m)).toMatchObject({
      Operation: 'PlaceGTTOrder',
      Requests: 1,
      Failed: 1,
      GuardrailRejections: 1,
    });
    expect(all.find((m) => 'Failed' in m)).not.toHaveProperty('BrokerLatency');
    const byCode = all.find((m) => 'Errors' in m)!;
    expect(byCode).toMatchObject({ Operation: 'PlaceGTTOrder', ErrorCode: 'GUARDRAIL_REJECTED', Errors: 1 });
    expect(byCode._aws.CloudWatchMetrics[0]!.Dimensions[0]).toEqual(expect.arrayContaining(['Operation', 'ErrorCode']));
  });

  it('the watcher: WatcherRuns and EventsPublished under Function=GttWatcher', async () => {
    await stack.watch();
    expect(emitted().at(-1)).toMatchObject({ Function: 'GttWatcher', WatcherRuns: 1 });
    // An order placed outside the gateway: the next run publishes its GTT Placed, and counts it.
    const outside = await jdata(
      stack.emulator.url,
      'PlaceGTTOrder',
      { uid: stack.emulator.uid, actid: stack.emulator.actid, ...ORDER, qty: '1', validity: 'GTT' },
      stack.emulator.token,
    );
    expect(outside.body).toMatchObject({ stat: 'OI created' });
    lines.length = 0;
    await stack.watch();
    expect(emitted().at(-1)).toMatchObject({ Function: 'GttWatcher', WatcherRuns: 1, EventsPublished: 1 });
  });
});
