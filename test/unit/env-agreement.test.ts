/**
 * A function's environment is written once: what its definition declares (the manifest entry's `env`) is what its
 * code reads (the schemas of the catalogue it parses), and it reads the environment only through them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';
import type * as z from 'zod';

import { assistantsEnv } from '../../functions/assistants/assistants.js';
import type { FunctionEntry } from '../../functions/base/definition/types.js';
import { gatewayEnv, guardrailEnv, orderRateEnv } from '../../functions/base/runtime/config.js';
import { envSchema } from '../../functions/base/runtime/env.js';
import { envMismatches, type EnvReader } from '../../functions/base/runtime/env-given.js';
import { eventsHistoryEnv } from '../../functions/events/events-history.js';
import { forwarderEnv } from '../../functions/events/forwarder/config.js';
import { notifyFormatterEnv } from '../../functions/events/notify-formatter.js';
import { watcherEnv } from '../../functions/events/watcher/config.js';
import { instrumentRefreshEnv } from '../../functions/instruments/instrument-refresh.js';
import { FUNCTIONS } from '../../functions/manifest/index.js';
import { mcpEnv } from '../../functions/mcp/function.js';
import { riskEnv } from '../../functions/risk/risk.js';
import { sessionEnv } from '../../functions/session/config.js';
import { strategiesEnv } from '../../functions/signals/strategies.js';
import { webhookEnv } from '../../functions/signals/webhook.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FUNCTIONS_DIR = join(ROOT, 'functions');

/**
 * The schemas each function's factory parses (`parseConfig`, or a parser built on it such as parseGatewayConfig). The
 * operation functions parse the gateway's; the plans' and the signal worker's in-process gateway parses it too.
 */
const SCHEMAS: Readonly<Record<string, readonly z.ZodType[]>> = {
  KillSwitch: [gatewayEnv],
  Plans: [gatewayEnv],
  Coverage: [gatewayEnv],
  SignalWorker: [gatewayEnv],
  GttWatcher: [watcherEnv, gatewayEnv],
  EventForwarder: [forwarderEnv],
  NotifyFormatter: [notifyFormatterEnv],
  InstrumentRefresh: [instrumentRefreshEnv],
  OAuthCallback: [sessionEnv],
  SessionRenewal: [sessionEnv],
  SessionHealth: [sessionEnv, guardrailEnv, orderRateEnv],
  SessionLogout: [sessionEnv],
  EventsHistory: [eventsHistoryEnv],
  Strategies: [strategiesEnv],
  SignalWebhook: [webhookEnv],
  Assistants: [assistantsEnv],
  Risk: [riskEnv],
  McpServer: [mcpEnv],
};

const schemasOf = (entry: FunctionEntry): readonly z.ZodType[] =>
  entry.operation ? [gatewayEnv] : (SCHEMAS[entry.name] ?? []);

const readers: EnvReader[] = FUNCTIONS.map((entry) => ({
  name: entry.name,
  env: entry.env,
  schemas: schemasOf(entry),
}));

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : [];
  });
const sources = walk(FUNCTIONS_DIR).map((path) => ({
  path,
  file: relative(ROOT, path),
  // Comments may mention process.env; only code counts.
  code: readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, ''),
}));

describe("a function's environment: its definition and its code agree", () => {
  it('every function of the manifest has the schemas its code parses, and every schema of the table a function', () => {
    expect(FUNCTIONS.filter((entry) => schemasOf(entry).length === 0).map((entry) => entry.name)).toEqual([]);
    const names = new Set(FUNCTIONS.map((entry) => entry.name));
    expect(Object.keys(SCHEMAS).filter((name) => !names.has(name))).toEqual([]);
  });

  it('every configuration schema of functions/ is one a function parses', async () => {
    // deploymentEnv is the deployment's settings together, which npm start checks before it starts: no function's.
    const defined = sources.flatMap(({ path, code }) =>
      [...code.matchAll(/export const (\w+) = envSchema\(/g)]
        .map((m) => ({ path, name: m[1]! }))
        .filter(({ name }) => name !== 'deploymentEnv'),
    );
    expect(defined.length).toBeGreaterThanOrEqual(10);
    const used = new Set(readers.flatMap((reader) => reader.schemas));
    const unused: string[] = [];
    for (const { path, name } of defined) {
      const module = (await import(pathToFileURL(path).href)) as Record<string, z.ZodType>;
      if (!used.has(module[name]!)) unused.push(`${relative(ROOT, path)}: ${name}`);
    }
    expect(unused).toEqual([]);
  });

  it("what each function declares is what its schemas read (functions/base/runtime/env-given.ts's envMismatches)", () => {
    expect(envMismatches(readers)).toEqual([]);
  });

  it('only functions/base/runtime/ reads process.env; the functions read their variables through a schema', () => {
    const outside = sources.filter(({ file }) => !file.startsWith(join('functions', 'base', 'runtime')));
    expect(outside.filter(({ code }) => /process\.env\b/.test(code)).map(({ file }) => file)).toEqual([]);
    // A variable read by its name straight from an environment object, beside the schema: `env[envName('x')]`.
    expect(outside.filter(({ code }) => /\[\s*envName\(/.test(code)).map(({ file }) => file)).toEqual([]);
  });
});

describe('envMismatches catches a disagreement', () => {
  const own = envSchema(['brokerBaseUrl', 'brokerSecretId', 'eventsTableName']);
  const declared = { keys: ['brokerBaseUrl', 'brokerSecretId', 'eventsTableName'] as const, deploymentSettings: false };

  it('agrees when the declaration is what the schema reads', () => {
    expect(envMismatches([{ name: 'Fn', env: declared, schemas: [own] }])).toEqual([]);
  });

  it('a schema reading a variable the definition does not declare', () => {
    const reads = envSchema(['brokerBaseUrl', 'brokerSecretId', 'eventsTableName', 'signalBaseUrl']);
    expect(envMismatches([{ name: 'Fn', env: declared, schemas: [reads] }])).toEqual([
      'Fn reads SIGNAL_BASE_URL (signalBaseUrl), which it is not given: declare it in its env keys (no deployment can set it now)',
    ]);
  });

  it('a required variable not given is a cold start that fails', () => {
    // brokerSecretId is required by the catalogue's schema.
    const env = { keys: ['brokerBaseUrl', 'eventsTableName'] as const, deploymentSettings: false };
    expect(envMismatches([{ name: 'Fn', env, schemas: [own] }])).toEqual([
      'Fn reads BROKER_SECRET_ID (brokerSecretId), which it is not given: declare it in its env keys (its cold start fails without it)',
    ]);
  });

  it('a definition declaring a key its schema never reads', () => {
    const env = { keys: [...declared.keys, 'controlTableName'] as const, deploymentSettings: false };
    expect(envMismatches([{ name: 'Fn', env, schemas: [own] }])).toEqual([
      'Fn declares CONTROL_TABLE_NAME (controlTableName), which its code never reads',
    ]);
  });

  it("the deployment's settings taken and none read", () => {
    expect(envMismatches([{ name: 'Fn', env: { ...declared, deploymentSettings: true }, schemas: [own] }])).toEqual([
      "Fn takes the deployment's settings, but reads none of them",
    ]);
  });

  it('a shared schema: an optional variable one sharer is not given is fine while another is given it', () => {
    const shared = envSchema(['brokerBaseUrl', 'brokerSecretId', 'eventsTableName', 'controlTableName']);
    const a = { name: 'A', env: declared, schemas: [shared] };
    const b = {
      name: 'B',
      env: { ...declared, keys: [...declared.keys, 'controlTableName'] as const },
      schemas: [shared],
    };
    expect(envMismatches([a, b])).toEqual([]);
    // Given to none of them: no deployment can set it.
    expect(envMismatches([a, { ...b, env: declared }])).toHaveLength(2);
  });

  it('a schema that is not the catalogue’s is refused', () => {
    expect(() => envMismatches([{ name: 'Fn', env: declared, schemas: [gatewayEnv.optional()] }])).toThrow(
      /not one of the catalogue's/,
    );
  });
});
