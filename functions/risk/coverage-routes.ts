/** Coverage's routes and direct payload (docs/explanation/coverage.md): what coverage-function.ts reads. */
import { ownRoute as route } from '../base/definition/routes.js';
import type { FunctionSurface } from '../base/definition/types.js';
import { coverageResult, coverageSettings, coverageSettingsInput } from '../base/schemas/coverage.js';

export const COVERAGE_ROUTES: FunctionSurface = {
  name: 'Coverage',
  routes: [
    route({
      method: 'GET',
      path: '/positions/coverage',
      operationId: 'GetCoverage',
      action: 'get',
      summary:
        'Every open position with the resting exits that cover it (stops, OCOs, plan exits on the other side): covered, partly (with the uncovered quantity), target-only or uncovered, the totals and the settings',
      result: coverageResult,
      kind: 'read',
      retrySafe: true,
      example: {},
    }),
    route({
      method: 'PUT',
      path: '/positions/coverage',
      operationId: 'PutCoverageSettings',
      action: 'put',
      summary:
        'Coverage settings: {"watch": true} checks every open position each watcher run and raises Position Unprotected once for an uncovered one; "autoCover": {"target", "stop"} (points or "x%" from the average price) also places one OCO for it',
      result: coverageSettings,
      body: true,
      bodySchema: coverageSettingsInput,
      kind: 'control',
      retrySafe: true,
      example: { body: { watch: true, autoCover: { target: '2%', stop: 10 } } },
    }),
  ],
  direct: { example: { action: 'get' }, fields: ['action', 'body'] },
};
