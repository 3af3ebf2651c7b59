/**
 * Every context setting is checked at synth, the functions' own settings with the functions' zod schema: a value
 * the functions would refuse at cold start (`GUARDRAIL_MAX_QTY=abc`) fails the synth instead, with one line naming
 * the setting and no stack trace. A good value reaches the functions' environment unchanged.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';

import { parseGatewayConfig } from '../../functions/base/runtime/config.js';
import { buildApp } from '../../infra/stacks/app.js';
import { gatewayTemplate } from '../support/gateway-template.js';

const ROOT = join(import.meta.dirname, '..', '..');
const synth = (context: Record<string, unknown>) =>
  buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], watcher: 'off', egress: 'none', ...context } }));

describe('context settings at synth', () => {
  it.each([
    [{ GUARDRAIL_MAX_QTY: 'abc' }, /-c GUARDRAIL_MAX_QTY="abc" must be a positive whole number/],
    [{ GUARDRAIL_MAX_ORDER_VALUE: '-5' }, /-c GUARDRAIL_MAX_ORDER_VALUE="-5" must be a positive decimal number/],
    [{ GUARDRAIL_EXCHANGES: 'NSE,NASDAQ' }, /-c GUARDRAIL_EXCHANGES="NSE,NASDAQ" .*NSE, NFO/],
    [{ GUARDRAIL_READ_ONLY: 'yes' }, /-c GUARDRAIL_READ_ONLY="yes"/],
    [{ IDEMPOTENCY_KEY_REQUIRED: 'maybe' }, /-c IDEMPOTENCY_KEY_REQUIRED="maybe" must be true or false/],
    [{ IDEMPOTENCY_TTL_SECONDS: '5' }, /-c IDEMPOTENCY_TTL_SECONDS="5" must be at least 60/],
    [{ SECRET_MAX_AGE_SECONDS: 'soon' }, /-c SECRET_MAX_AGE_SECONDS="soon" must be a number/],
    [{ GUARDRAIL_MAX_QYT: '5' }, /unknown setting -c GUARDRAIL_MAX_QYT/],
    [{ alarmEmail: 'ops' }, /-c alarmEmail="ops" must be an email address/],
    [{ brokerSecretArn: 'my-secret' }, /-c brokerSecretArn="my-secret" must be a Secrets Manager secret ARN/],
    [{ enableSourceMaps: 'on' }, /-c enableSourceMaps="on" must be true or false/],
  ])('%j fails the synth naming the setting', (context, message) => {
    expect(() => synth(context)).toThrow(message);
  });

  it('names every bad function setting at once', () => {
    expect(() => synth({ GUARDRAIL_MAX_QTY: '0', IDEMPOTENCY_TTL_SECONDS: 'x' })).toThrow(
      /GUARDRAIL_MAX_QTY.*; -c IDEMPOTENCY_TTL_SECONDS/,
    );
  });

  it('what synth accepts, a cold start accepts: good values reach every order function unchanged', () => {
    const context = { GUARDRAIL_MAX_QTY: '100', GUARDRAIL_EXCHANGES: 'NSE,BSE', IDEMPOTENCY_TTL_SECONDS: '3600' };
    const t = gatewayTemplate(synth(context));
    const place = Object.values(t.findResources('AWS::Lambda::Function')).find(
      (f) =>
        (f as { Properties: { Environment?: { Variables?: Record<string, unknown> } } }).Properties.Environment
          ?.Variables?.GUARDRAIL_MAX_QTY !== undefined,
    ) as { Properties: { Environment: { Variables: Record<string, unknown> } } } | undefined;
    expect(place?.Properties.Environment.Variables).toMatchObject(context);
    expect(() =>
      parseGatewayConfig({
        BROKER_BASE_URL: 'https://b.example/x',
        BROKER_SECRET_ID: 's',
        IDEMPOTENCY_TABLE_NAME: 'tbl',
        ...context,
      }),
    ).not.toThrow();
  });

  it('the safe defaults: off passes through to the order functions and GET /session; unset leaves the default', () => {
    const variables = (context: Record<string, unknown>) =>
      Object.entries(gatewayTemplate(synth(context)).findResources('AWS::Lambda::Function')).map(
        ([id, f]) =>
          [
            id,
            (f as { Properties: { Environment?: { Variables?: Record<string, unknown> } } }).Properties.Environment
              ?.Variables ?? {},
          ] as const,
      );
    const off = variables({ GUARDRAIL_MAX_QTY: 'off', GUARDRAIL_MAX_ORDER_VALUE: '500000' });
    const place = off.find(([id]) => id.startsWith('PlaceGTTOrder'))?.[1];
    const health = off.find(([id]) => id.startsWith('SessionSessionHealth'))?.[1];
    for (const env of [place, health])
      expect(env).toMatchObject({ GUARDRAIL_MAX_QTY: 'off', GUARDRAIL_MAX_ORDER_VALUE: '500000' });
    // Unset: no variable, and the functions hold orders to GUARDRAIL_DEFAULTS.
    const unset = variables({}).find(([id]) => id.startsWith('PlaceGTTOrder'))?.[1];
    expect(unset).toBeDefined();
    expect(unset).not.toHaveProperty('GUARDRAIL_MAX_QTY');
  });

  it('cdk synth prints one line and no stack trace', async () => {
    const run = promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'tsx'), ['infra/stacks/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        CDK_CONTEXT_JSON: JSON.stringify({ GUARDRAIL_MAX_QTY: 'abc' }),
        CDK_OUTDIR: join(ROOT, 'cdk.out', 'settings-test'),
      },
      timeout: 60_000,
    });
    const failure = (await run.then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number; stderr?: string } | undefined;
    expect(failure?.code).toBe(1);
    expect(failure?.stderr?.trim()).toBe(
      'gtt-gateway: bad setting: -c GUARDRAIL_MAX_QTY="abc" must be a positive whole number (or off for no limit)',
    );
  });
});
