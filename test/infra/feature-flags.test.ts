/**
 * A quiet `cdk synth`: cdk.json configures every feature flag aws-cdk-lib recommends (so the CLI reports none
 * unconfigured), an App made in code gets the same flags, and the bundling lines of each function are one count.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { App } from 'aws-cdk-lib';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { applyFeatureFlags, FEATURE_FLAGS } from '../../infra/settings/feature-flags.js';
import { quietBundling } from '../../infra/stacks/quiet-bundling.js';

const recommended = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('aws-cdk-lib/recommended-feature-flags.json'), 'utf8'),
) as Record<string, unknown>;

describe('feature flags', () => {
  it("cdk.json sets every recommended flag to the recommended value, but the stack's strong cross-stack references", () => {
    const { '@aws-cdk/core:defaultCrossStackReferences': crossStack, ...rest } = FEATURE_FLAGS;
    expect(crossStack).toBe('strong');
    const { '@aws-cdk/core:defaultCrossStackReferences': _weak, ...wanted } = recommended;
    expect(rest).toEqual(wanted);
  });

  it('an App made in code gets them, and keeps a flag it sets itself', () => {
    const app = new App({ context: { '@aws-cdk/aws-iam:minimizePolicies': false } });
    applyFeatureFlags(app);
    expect(app.node.tryGetContext('@aws-cdk/aws-ec2:restrictDefaultSecurityGroup')).toBe(true);
    expect(app.node.tryGetContext('@aws-cdk/aws-iam:minimizePolicies')).toBe(false);
  });
});

describe('quiet bundling', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("counts CDK's `Bundling asset` lines instead of printing them; every other line passes", () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const done = quietBundling({});
    process.stderr.write('Bundling asset GttGatewayStack/PlaceGTTOrder/Function/Code/Stage...\n');
    process.stderr.write('Bundling asset GttGatewayStack/Plans/Function/Code/Stage...\n');
    process.stderr.write('a real warning\n');
    done();
    expect(written).toEqual([
      'a real warning\n',
      'gtt-gateway: bundled 2 function(s) with esbuild (GTT_VERBOSE_BUNDLING=1 shows each)\n',
    ]);
  });

  it('GTT_VERBOSE_BUNDLING=1 prints each line', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const done = quietBundling({ GTT_VERBOSE_BUNDLING: '1' });
    process.stderr.write('Bundling asset X/Code/Stage...\n');
    done();
    expect(written).toEqual(['Bundling asset X/Code/Stage...\n']);
  });
});
