/**
 * Leak check: every operation, in both entry shapes, on success, on failure, on dry run and across a token
 * rotation. Every log line, reply and error is scanned for the access tokens; at the broker, a token may appear
 * only in the Authorization header (the emulator flags any request whose body carried one). Then the same against
 * a reflecting upstream (a proxy or WAF that quotes the request in its error page or `emsg`): no reply, stored
 * replay, log line or event carries the token.
 */
import http from 'node:http';

import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createGatewayEvents } from '../../functions/events/core/producer.js';
import { OPERATIONS } from '../../functions/manifest/index.js';
import { createGatewayHandler } from '../../functions/orders/gateway/gateway-handler.js';
import { dynamoJournal } from '../../functions/orders/journal-factory.js';
import { getEnabledGtts } from '../../functions/orders/operations.js';
import { lambdaContext } from '../../local/lambda-context.js';
import { listenOnLoopback } from '../../local/loopback.js';
import { LOCAL_SECRET_ID, type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { exampleHttpEvent, httpApiEvent } from '../support/events.js';
import { captureLogger } from '../support/logs.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';

let stack: LocalStack;
let control: EmulatorControl;
const lines: string[] = [];
const outputs: string[] = [];
const tokens: string[] = [];

beforeAll(async () => {
  const { logger } = captureLogger({ serviceName: 'leak-check' }, (line) => lines.push(line));
  // Many order writes in a few seconds: the governor stays on at its highest settings (test/support/order-rate.ts).
  stack = await startLocalStack({ brokerTimeoutMs: 400, gateway: { logger }, settings: HIGH_ORDER_RATE });
  control = emulatorControl(stack.emulator.url);
  tokens.push(stack.emulator.token);
});
afterAll(async () => {
  await stack?.close();
});

const invokeAll = async (label: string) => {
  for (const op of OPERATIONS.filter((o) => o.name !== 'Logout')) {
    const handler = stack.handlers.get(op.name)!;
    // The entry's own example: every operation of the table is covered, a new one too, without editing this test.
    const body = op.example;
    const headers: Record<string, string> = op.idempotency ? { 'idempotency-key': `${label}-${op.name}` } : {};
    const event = exampleHttpEvent(op, { headers });
    outputs.push(JSON.stringify(await handler(event, lambdaContext(op.name))));
    try {
      outputs.push(
        JSON.stringify(
          await handler(
            { ...body, ...(op.idempotency ? { idempotencyKey: `${label}-direct-${op.name}` } : {}) },
            lambdaContext(op.name),
          ),
        ),
      );
    } catch (error) {
      outputs.push(`${(error as Error).name} ${(error as Error).message}`);
    }
    if (op.kind === 'order') {
      outputs.push(
        JSON.stringify(await handler(exampleHttpEvent(op, { query: { dryRun: 'true' } }), lambdaContext(op.name))),
      );
    }
  }
};

describe('leak check', () => {
  it('no token in any log line, reply, error or broker request body', async () => {
    await invokeAll('ok');
    await control.fault({ operation: '*', kind: 'serverTimeout', times: 3 });
    await control.fault({ operation: '*', kind: 'nonJson', times: 3 });
    await invokeAll('faults');
    // Rotation: a new token in the secret, the old one dead; then a bad secret.
    const fresh = await control.newSession(stack.emulator.uid);
    tokens.push(fresh.token);
    stack.secrets.setSecret(
      LOCAL_SECRET_ID,
      JSON.stringify({ accessToken: fresh.token, uid: stack.emulator.uid, actid: stack.emulator.actid }),
    );
    await control.expire(stack.emulator.token);
    await invokeAll('rotated');
    stack.secrets.setSecret('leak/bad', `not json ${fresh.token}`);
    const bad = createGatewayHandler(getEnabledGtts, { config: { ...stack.config, BROKER_SECRET_ID: 'leak/bad' } });
    const badReply = JSON.stringify(await bad(httpApiEvent(getEnabledGtts), lambdaContext('bad')));
    // The step must reach the secret and fail there, or it proves nothing.
    expect(badReply).toContain('CONFIGURATION_ERROR');
    outputs.push(badReply);
    await stack.handlers.get('Logout')!({}, lambdaContext('Logout'));
    await invokeAll('after-logout');

    expect(lines.length).toBeGreaterThan(50);
    expect(outputs.length).toBeGreaterThan(30);
    for (const token of tokens) {
      for (const line of lines) expect(line).not.toContain(token);
      for (const output of outputs) expect(output).not.toContain(token);
    }
    const requests = await control.requests();
    expect(requests.length).toBeGreaterThan(20);
    for (const request of requests) {
      expect(request.bodyContainedToken).toBe(false);
      expect(request.authorization).toBe('Bearer <redacted>');
    }
  });

  it('a reflecting upstream (error pages and emsg that quote the request) never hands the token on', async () => {
    // A live session again (the test above logged out), and an upstream that quotes every request back.
    const live = await control.newSession(stack.emulator.uid);
    const token = live.token;
    stack.secrets.setSecret(
      LOCAL_SECRET_ID,
      JSON.stringify({ accessToken: token, uid: stack.emulator.uid, actid: stack.emulator.actid }),
    );
    let mode: 'html' | 'bare' | 'emsg' | 'quoted' = 'html';
    const reflector = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const auth = req.headers.authorization ?? '(none)';
        const bare = auth.replace(/^Bearer /, '') || body.replace(/^.*jKey=/, '');
        const replies = {
          html: ['text/html', `<html><body>Blocked: Authorization: ${auth} body: ${body}</body></html>`],
          bare: ['text/html', `<html>${bare} was refused</html>`],
          emsg: ['application/json', JSON.stringify({ stat: 'Not_Ok', emsg: `Request rejected for ${auth}; ${body}` })],
          quoted: [
            'application/json',
            JSON.stringify({ stat: 'Not_Ok', emsg: `Invalid Input : token ${bare} (${encodeURIComponent(bare)})` }),
          ],
        } as const;
        const [type, text] = replies[mode];
        res.writeHead(200, { 'content-type': type });
        res.end(text);
      });
    });
    const upstream = await listenOnLoopback(reflector);
    const lineCount = lines.length;
    const eventCount = stack.eventBridge.events.length;
    const replies: string[] = [];
    try {
      for (const auth of ['bearer', 'jkey'] as const) {
        const config = { ...stack.config, BROKER_BASE_URL: upstream.url, BROKER_AUTH: auth };
        const { logger } = captureLogger({ serviceName: 'leak-reflect' }, (line) => lines.push(line));
        for (const m of ['html', 'bare', 'emsg', 'quoted'] as const) {
          mode = m;
          for (const op of OPERATIONS) {
            const handler = createGatewayHandler(op, {
              config,
              logger,
              journal: dynamoJournal,
              events: createGatewayEvents,
            });
            const body = op.example;
            const key = `reflect-${auth}-${m}-${op.name}`;
            const event = () => exampleHttpEvent(op, { headers: op.idempotency ? { 'idempotency-key': key } : {} });
            // Twice with the same key: the second reply is the stored one.
            replies.push(JSON.stringify(await handler(event(), lambdaContext(op.name))));
            replies.push(JSON.stringify(await handler(event(), lambdaContext(op.name))));
            try {
              replies.push(
                JSON.stringify(
                  await handler(
                    { ...body, ...(op.idempotency ? { idempotencyKey: `${key}-direct` } : {}) },
                    lambdaContext(op.name),
                  ),
                ),
              );
            } catch (error) {
              replies.push(`${(error as Error).name} ${(error as Error).message}`);
            }
          }
        }
      }
    } finally {
      await upstream.close();
    }
    const stored = await new DynamoDBClient({ endpoint: stack.dynamo.url }).send(
      new ScanCommand({ TableName: stack.dynamo.tableName }),
    );
    const storedText = JSON.stringify(stored.Items);
    const newLines = lines.slice(lineCount);
    const events = JSON.stringify(stack.eventBridge.events.slice(eventCount));

    // The reflections did reach the gateway (so the check is not vacuous): bad replies, rejections, stored replays.
    const all = replies.join('\n');
    expect(all).toMatch(/BROKER_BAD_REPLY/);
    expect(all).toMatch(/BROKER_REJECTED/);
    expect(storedText).toMatch(/BROKER_BAD_REPLY/);
    expect(newLines.length).toBeGreaterThan(50);
    for (const text of [...replies, storedText, ...newLines, events]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(encodeURIComponent(token));
    }
    // What was quoted is still readable, with the secret replaced.
    expect(all).toMatch(/Bearer <redacted>/);
    expect(all).toMatch(/jKey=<redacted>/);
  });
});
