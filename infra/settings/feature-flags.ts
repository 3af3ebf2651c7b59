/**
 * The CDK feature flags the app is built with: cdk.json's `context` (aws-cdk-lib's recommended values, but
 * `@aws-cdk/core:defaultCrossStackReferences`, kept `strong`). The CLI passes them to `cdk synth`/`cdk deploy`; an
 * App made in code (the infra tests) gets them here, unless it sets a flag itself, so tests check the template the
 * CLI deploys.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { App } from 'aws-cdk-lib';

const CDK_JSON = join(import.meta.dirname, '..', '..', 'cdk.json');

/** cdk.json's feature flags (its context keys that name a module: `@aws-cdk/...`). */
export const FEATURE_FLAGS: Readonly<Record<string, unknown>> = Object.fromEntries(
  Object.entries(
    (JSON.parse(readFileSync(CDK_JSON, 'utf8')) as { context?: Record<string, unknown> }).context ?? {},
  ).filter(([name]) => name.startsWith('@aws-cdk')),
);

/** Sets every flag `app` has no value for (before any construct is added to it). */
export const applyFeatureFlags = (app: App): void => {
  for (const [name, value] of Object.entries(FEATURE_FLAGS))
    if (app.node.tryGetContext(name) === undefined) app.node.setContext(name, value);
};
