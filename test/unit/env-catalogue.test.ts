import { describe, expect, it } from 'vitest';

import { gatewayEnv, parseGatewayConfig } from '../../functions/base/runtime/config.js';
import {
  DEPLOYMENT_KEYS,
  DEPLOYMENT_SETTINGS,
  ENV,
  environmentOf,
  type EnvKey,
  envName,
} from '../../functions/base/runtime/env.js';
import { forwarderEnv } from '../../functions/events/forwarder/config.js';
import { watcherEnv } from '../../functions/events/watcher/config.js';
import { sessionEnv } from '../../functions/session/config.js';

describe('the environment catalogue (functions/base/runtime/env.ts)', () => {
  it('names each variable once, in upper snake case', () => {
    const names = Object.values(ENV).map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/);
  });

  it('lists the deployment settings by name, in their order', () => {
    expect(DEPLOYMENT_SETTINGS).toEqual(DEPLOYMENT_KEYS.map(envName));
    expect(DEPLOYMENT_SETTINGS).toContain('GUARDRAIL_MAX_QTY');
  });

  it('environmentOf writes names and strings, in order, without the undefined ones', () => {
    const env = environmentOf({ brokerSecretId: 'x', orderRatePerSecond: 8, controlTableName: undefined });
    expect(env).toEqual({ BROKER_SECRET_ID: 'x', ORDER_RATE_PER_SECOND: '8' });
    expect(Object.keys(environmentOf({ eventsTableName: 'e', eventBusName: 'b' }))).toEqual([
      'EVENTS_TABLE_NAME',
      'EVENT_BUS_NAME',
    ]);
  });

  it('environmentOf round-trips through a function schema: names in, camelCase out', () => {
    const values = {
      brokerBaseUrl: 'https://broker.example/NorenWClientTP',
      brokerSecretId: 'gtt-gateway/broker-session',
      idempotencyTableName: 'idempotency',
      orderRatePerSecond: 5,
      idempotencyKeyRequired: true,
      guardrailMaxQty: '100',
    } as const;
    const config = gatewayEnv.parse(environmentOf(values));
    expect(config).toMatchObject(values);
    expect(parseGatewayConfig(environmentOf(values))).toEqual(config);
    const events = { eventBusName: 'bus', eventsTableName: 'events' } as const;
    expect(forwarderEnv.parse(environmentOf(events))).toEqual({ ...events });
    expect(
      watcherEnv.parse(environmentOf({ ...events, brokerBaseUrl: values.brokerBaseUrl, brokerSecretId: 's' })),
    ).toMatchObject({ ...events, brokerSecretId: 's', watcherRemovedAfterRuns: 2 });
    expect(sessionEnv.parse(environmentOf({ brokerBaseUrl: values.brokerBaseUrl, brokerSecretId: 's' }))).toMatchObject(
      { brokerLogin: 'oauth', oauthStateTtlSeconds: 600 },
    );
  });

  it('a problem names the variable, and a rule across variables names its own', () => {
    const base = { BROKER_BASE_URL: 'https://broker.example/X', IDEMPOTENCY_KEY_REQUIRED: 'false' };
    expect(() => parseGatewayConfig({ ...base, BROKER_SECRET_ID: '' })).toThrow(
      /BROKER_SECRET_ID must name the broker session secret/,
    );
    expect(() => parseGatewayConfig({ ...base, BROKER_SECRET_ID: 's', IDEMPOTENCY_KEY_REQUIRED: 'true' })).toThrow(
      /IDEMPOTENCY_TABLE_NAME is required while IDEMPOTENCY_KEY_REQUIRED is true/,
    );
  });

  it('every key is the camelCase of its name', () => {
    for (const [key, { name }] of Object.entries(ENV) as [EnvKey, { name: string }][])
      expect(key.toLowerCase()).toBe(name.replace(/_/g, '').toLowerCase());
  });
});
