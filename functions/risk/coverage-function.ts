/**
 * The Coverage function (coverage-definition.ts, docs/explanation/coverage.md): `GET /positions/coverage` reads the
 * positions and the pending list now and matches them; `PUT /positions/coverage` writes the settings whole (bad input
 * is VALIDATION_FAILED naming each field, and nothing is written); `POST /positions/close` closes one position now
 * (close.ts). Direct invocation: `{action: "get"}`, `{action: "put", body}`, `{action: "close", idempotencyKey, body}` (or `dryRun: true`: what it would send).
 */
import type { Logger } from '@aws-lambda-powertools/logger';

import { validateInput } from '../base/contract/validate-input.js';
import { createRoutedFunction } from '../base/middleware/routed-function.js';
import { deployedEnv, type GatewaySettings } from '../base/runtime/config.js';
import { logger as defaultLogger } from '../base/runtime/logger.js';
import { closeInput } from '../base/schemas/close.js';
import { coverageSettingsInput } from '../base/schemas/coverage.js';
import { memo } from '../base/schemas/values.js';
import { closeDryRun, closePosition } from './close.js';
import { COVERAGE_ROUTES } from './coverage-routes.js';
import { closeDeps, createCoverage, readCoverage } from './coverage-watch.js';

export interface CoverageOptions {
  env?: Record<string, string | undefined>;
  settings?: GatewaySettings;
  logger?: Logger;
}

export const createCoverageFunction = (options: CoverageOptions = {}) => {
  const logger = options.logger ?? defaultLogger;
  const deps = memo(() => {
    const settings = options.settings ?? ((options.env ?? deployedEnv()) as Record<string, string>);
    return createCoverage(settings, logger, 'Coverage');
  });
  const closer = memo(() => closeDeps(deps()));
  return createRoutedFunction(
    COVERAGE_ROUTES,
    async (request, context) => {
      const deadline = Date.now() + context.getRemainingTimeInMillis();
      if (request.route.action === 'get') return { body: await readCoverage(deps(), deadline) };
      if (request.route.action === 'close') {
        const input = validateInput(closeInput, request.body ?? {});
        return {
          body: request.dryRun
            ? await closeDryRun(closer(), input, deadline)
            : await closePosition(closer(), input, request.idempotencyKey!, deadline),
        };
      }
      const input = validateInput(coverageSettingsInput, request.body ?? {});
      const settings = {
        watch: input.watch,
        ...(input.autoCover ? { autoCover: input.autoCover } : {}),
        changedAt: new Date().toISOString(),
        changedBy: request.caller,
      };
      await deps().store.put(settings);
      return { body: settings };
    },
    { logger },
  );
};
