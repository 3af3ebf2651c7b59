/**
 * Coverage's routes and direct payload (docs/explanation/coverage.md), and the close of a position
 * (docs/how-to/close-a-position.md, close.ts): what coverage-function.ts reads.
 */
import { ORDER_ROUTE_THROTTLE, ownRoute as route } from '../base/definition/routes.js';
import type { FunctionSurface } from '../base/definition/types.js';
import { closeInput, closeResult } from '../base/schemas/close.js';
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
    route({
      method: 'POST',
      path: '/positions/close',
      operationId: 'ClosePosition',
      action: 'close',
      summary:
        'Close a position now: {"exch", "tsym", "prd", "qty"? (default all)}: one protected LIMIT order from the last price (a sell of a long, a buy of a short), an exit the kill switch lets through. Refused, nothing sent, above |netQty| or when the pending exits on that side would take it past flat (their al_ids named). Idempotency-Key required: a retry places nothing new. ?dryRun=true: the PlaceOrder it would send (no key needed).',
      result: closeResult,
      body: true,
      bodySchema: closeInput,
      idempotencyKey: 'required',
      dryRun: true,
      kind: 'order',
      retrySafe: true,
      example: { body: { exch: 'NSE', tsym: 'INFY-EQ', prd: 'C', qty: 5 } },
      throttle: ORDER_ROUTE_THROTTLE,
    }),
  ],
  direct: { example: { action: 'get' }, fields: ['action', 'body', 'idempotencyKey', 'dryRun'] },
};
