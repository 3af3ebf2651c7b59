/** A real synth, esbuild bundles included, is deterministic and keeps each function bundle self-contained. */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';

import { buildApp } from '../../infra/stacks/app.js';

const synthTemplates = () => {
  const { gateway, workflow } = buildApp(new App());
  return JSON.stringify([Template.fromStack(gateway).toJSON(), Template.fromStack(workflow).toJSON()]);
};

describe('synth', () => {
  it('bundles with the local esbuild and produces the same templates twice', () => {
    const first = synthTemplates();
    const second = synthTemplates();
    expect(second).toBe(first);
    // Real asset hashes, not the placeholder of skipped bundling.
    expect(first).toMatch(/[0-9a-f]{64}\.zip/);
  }, 120_000);
});
