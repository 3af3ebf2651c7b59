/**
 * A real synth, esbuild bundles included, is deterministic and keeps each function bundle self-contained. Every
 * function is bundled once (the same settings for each, in infra/constructs/gateway-function.ts); that a bundle comes
 * out the same twice is checked on one function, bundled twice into two directories.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as logs from 'aws-cdk-lib/aws-logs';
import { afterAll, describe, expect, it } from 'vitest';

import { GatewayFunction } from '../../infra/constructs/gateway-function.js';
import { buildApp } from '../../infra/stacks/app.js';

const outdirs: string[] = [];
const outdir = () => {
  outdirs.push(mkdtempSync(join(tmpdir(), 'gtt-synth-')));
  return outdirs.at(-1)!;
};
afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

const synthTemplates = (app: App) => {
  const { gatewayStacks, workflow } = buildApp(app);
  return JSON.stringify([...gatewayStacks, workflow].map((stack) => Template.fromStack(stack).toJSON()));
};

/** Where two JSON texts first differ (a path and the two values), or undefined: what a failure names. */
const firstDifference = (a: string, b: string): string | undefined => {
  const walk = (x: unknown, y: unknown, path: string): string | undefined => {
    if (JSON.stringify(x) === JSON.stringify(y)) return undefined;
    if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null)
      return `${path}: ${JSON.stringify(x)?.slice(0, 300)} then ${JSON.stringify(y)?.slice(0, 300)}`;
    const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
    for (const key of keys) {
      const found = walk((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key], `${path}.${key}`);
      if (found) return found;
    }
    return `${path}: differs`;
  };
  return walk(JSON.parse(a), JSON.parse(b), '$');
};

describe('synth', () => {
  it('bundles every function with the local esbuild and produces the same templates twice', () => {
    const dir = outdir();
    const first = synthTemplates(new App({ outdir: dir }));
    // The same directory: CDK reuses the bundles staged there, and the templates must come out the same.
    const second = synthTemplates(new App({ outdir: dir }));
    expect(firstDifference(first, second)).toBeUndefined();
    expect(second).toBe(first);
    // Real asset hashes, not the placeholder of skipped bundling.
    expect(first).toMatch(/[0-9a-f]{64}\.zip/);
  }, 300_000);

  it('bundles a function to the same bytes twice', () => {
    const assetHash = () => {
      const stack = new Stack(new App({ outdir: outdir() }), 'Bundle');
      new GatewayFunction(stack, 'PlaceGTTOrder', {
        entry: 'functions/handlers/place-gtt-order.ts',
        description: 'bundle test',
        roleDescription: 'bundle test',
        environment: {},
        logRetention: logs.RetentionDays.ONE_DAY,
      });
      const code = Template.fromStack(stack).findResources('AWS::Lambda::Function');
      return JSON.stringify(Object.values(code).map((f) => (f as { Properties: { Code: unknown } }).Properties.Code));
    };
    const first = assetHash();
    expect(first).toMatch(/[0-9a-f]{64}\.zip/);
    expect(assetHash()).toBe(first);
  }, 60_000);
});
