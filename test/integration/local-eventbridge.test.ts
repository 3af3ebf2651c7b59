/**
 * The local PutEvents endpoint (local/eventbridge.ts) as the real `@aws-sdk/client-eventbridge` client sees it:
 * accepted entries get ids and are delivered in EventBridge's envelope; bad entries are refused one by one with an
 * ErrorCode, as PutEvents does; a whole bad request is an SDK error; a webhook gets each event, retried on 5xx.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { afterEach, describe, expect, it } from 'vitest';

import { type DeadLetter, type LocalEventBridge, startLocalEventBridge } from '../../local/eventbridge.js';
import { type Listening, listenOnLoopback } from '../../local/loopback.js';

let bus: LocalEventBridge | undefined;
let hook: Listening | undefined;
afterEach(async () => {
  await bus?.close();
  await hook?.close();
  bus = undefined;
  hook = undefined;
});

const entry = (fields: Record<string, unknown> = {}) => ({
  EventBusName: 'gtt',
  Source: 'gtt-gateway',
  DetailType: 'GTT Placed',
  Detail: '{"al_id":"1"}',
  ...fields,
});

describe('local PutEvents endpoint', () => {
  it('accepts good entries and refuses bad ones one by one, as PutEvents does', async () => {
    bus = await startLocalEventBridge({ busName: 'gtt' });
    const client = new EventBridgeClient({ endpoint: bus.url });
    const reply = await client.send(
      new PutEventsCommand({
        Entries: [
          entry(),
          entry({ EventBusName: 'other' }),
          entry({ Detail: 'not json' }),
          entry({ Detail: '[1]' }),
          entry({ DetailType: '' }),
        ],
      }),
    );
    expect(reply.FailedEntryCount).toBe(4);
    expect(reply.Entries![0]!.EventId).toEqual(expect.any(String));
    expect(reply.Entries!.slice(1).map((e) => e.ErrorCode)).toEqual([
      'InvalidArgument',
      'MalformedDetail',
      'MalformedDetail',
      'InvalidArgument',
    ]);
    expect(bus.events).toEqual([
      expect.objectContaining({
        version: '0',
        id: reply.Entries![0]!.EventId,
        'detail-type': 'GTT Placed',
        source: 'gtt-gateway',
        detail: { al_id: '1' },
        resources: [],
      }),
    ]);
    client.destroy();
  });

  it('refuses more than 10 entries as a whole request, and an unknown operation', async () => {
    bus = await startLocalEventBridge({ busName: 'gtt' });
    const client = new EventBridgeClient({ endpoint: bus.url });
    await expect(
      client.send(new PutEventsCommand({ Entries: Array.from({ length: 11 }, () => entry()) })),
    ).rejects.toMatchObject({ name: 'ValidationException' });
    const res = await fetch(bus.url, {
      method: 'POST',
      headers: { authorization: 'x', 'x-amz-target': 'AWSEvents.ListRules' },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ __type: 'UnknownOperationException' });
    expect(bus.events).toEqual([]);
    client.destroy();
  });

  it('refuseNext makes the next entries fail with InternalFailure, and only those', async () => {
    bus = await startLocalEventBridge({ busName: 'gtt' });
    const client = new EventBridgeClient({ endpoint: bus.url });
    bus.refuseNext(1);
    const reply = await client.send(new PutEventsCommand({ Entries: [entry(), entry()] }));
    expect(reply.Entries!.map((e) => e.ErrorCode ?? 'ok')).toEqual(['InternalFailure', 'ok']);
    expect(bus.events).toHaveLength(1);
    client.destroy();
  });

  it('delivers each event to the webhook as EventBridge does, retrying a 5xx', async () => {
    const bodies: unknown[] = [];
    let calls = 0;
    hook = await listenOnLoopback(
      http.createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          calls++;
          if (calls === 1) return res.writeHead(503).end();
          bodies.push(JSON.parse(body));
          res.writeHead(200).end();
        });
      }),
    );
    bus = await startLocalEventBridge({ busName: 'gtt', webhookUrl: `${hook.url}/x` });
    const client = new EventBridgeClient({ endpoint: bus.url });
    await client.send(new PutEventsCommand({ Entries: [entry()] }));
    await bus.drained();
    expect(calls).toBe(2);
    expect(bodies).toEqual([bus.events[0]]);
    client.destroy();
  });

  it('an event the webhook never takes is kept as a dead letter (list, file, callback), never dropped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gtt-dead-letters-'));
    const file = join(dir, 'dead.jsonl');
    let calls = 0;
    let refuse = 503;
    hook = await listenOnLoopback(
      http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          calls++;
          res.writeHead(refuse).end();
        });
      }),
    );
    const heard: { letter: DeadLetter; file?: string }[] = [];
    try {
      bus = await startLocalEventBridge({
        busName: 'gtt',
        webhookUrl: `${hook.url}/x`,
        deliveryAttempts: 3,
        deadLetterFile: file,
        onDeadLetter: (letter, written) => heard.push({ letter, ...(written ? { file: written } : {}) }),
      });
      const client = new EventBridgeClient({ endpoint: bus.url });
      await client.send(new PutEventsCommand({ Entries: [entry()] }));
      await bus.drained();
      expect(calls).toBe(3);
      refuse = 400;
      await client.send(new PutEventsCommand({ Entries: [entry({ DetailType: 'GTT Cancelled' })] }));
      await bus.drained();
      expect(calls).toBe(4);
      client.destroy();

      expect(bus.deadLetters.map((d) => [d.event.id, d.reason, d.attempts])).toEqual([
        [bus.events[0]!.id, 'HTTP 503', 3],
        [bus.events[1]!.id, 'HTTP 400 (not retried)', 1],
      ]);
      expect(heard.map((h) => h.file)).toEqual([file, file]);
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as DeadLetter);
      expect(lines.map((l) => l.event)).toEqual(bus.events);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
