/**
 * Coverage (docs/explanation/coverage.md): each open position matched with the resting exits that cover it, what
 * `GET /positions/coverage` answers, and the settings `PUT /positions/coverage` takes (watch each watcher run, and
 * autoCover: an OCO at the trader's distances for an uncovered position, placed once).
 */
import './zod-config.js';

import * as z from 'zod';

import { memo } from './values.js';

/** A distance from the average price: points (`5`, `"2.5"`) or a percentage of it (`"1.5%"`). */
const distance = (what: 'target' | 'stop') =>
  z
    .union([z.number(), z.string()], {
      error: `autoCover.${what} must be points (a number, e.g. 5) or a percentage of the average price (e.g. "1.5%")`,
    })
    .transform((value, ctx) => {
      const text = String(value).trim();
      const m = /^(\d+(?:\.\d+)?)(%?)$/.exec(text);
      const amount = m ? Number(m[1]) : NaN;
      if (!m || !(amount > 0) || (m[2] === '%' && amount >= 100)) {
        ctx.addIssue({
          code: 'custom',
          message: `autoCover.${what} must be points above 0 (e.g. 5) or a percentage above 0 and below 100 (e.g. "1.5%"), got ${JSON.stringify(value)}`,
        });
        return z.NEVER;
      }
      return m[2] === '%' ? `${m[1]}%` : m[1]!;
    });

/** What `PUT /positions/coverage` takes: the whole settings, nothing else. */
export const coverageSettingsInput = z.strictObject({
  watch: z
    .boolean({ error: 'watch must be true (each watcher run checks every open position) or false' })
    .describe('true: each watcher run checks every open position and raises Position Unprotected for an uncovered one'),
  autoCover: z
    .strictObject({
      target: distance('target').describe('the target leg: points or "x%" from the average price'),
      stop: distance('stop').describe('the stop-loss leg: points or "x%" from the average price'),
    })
    .optional()
    .describe(
      'An OCO for each uncovered position (with watch on): target above and stop below the average price for a long, the reverse for a short, on the tick, for the uncovered quantity, placed once per position and net quantity',
    ),
});
export type CoverageSettingsInput = z.output<typeof coverageSettingsInput>;

const settingsSchema = memo(() =>
  z.object({
    watch: z.boolean(),
    autoCover: z.object({ target: z.string(), stop: z.string() }).optional(),
    changedAt: z.string().optional().describe('when the settings last changed (ISO time)'),
    changedBy: z.string().optional().describe('who changed them, as the request named the caller'),
  }),
);
export const coverageSettings = z.lazy(settingsSchema);
export type CoverageSettings = z.output<typeof coverageSettings>;

/** How one resting exit covers a position. */
export const COVER_KINDS = ['oco', 'stop', 'target', 'plan-exit', 'plan-stop'] as const;
export type CoverKind = (typeof COVER_KINDS)[number];

const exitSchema = memo(() =>
  z.object({
    al_id: z.string(),
    planId: z.string().optional().describe("the plan whose exit it is (its stamp in the order's tag)"),
    kind: z
      .enum(COVER_KINDS)
      .describe(
        'oco: both legs (counted once); stop: a single GTT on the losing side; target: a single GTT on the winning side (not cover); plan-exit, plan-stop: a plan’s',
      ),
    trigger: z.string().optional().describe('a single GTT: its trigger'),
    target: z.string().optional().describe("an OCO: its target leg's trigger"),
    stopLoss: z.string().optional().describe("an OCO: its stop-loss leg's trigger"),
    qty: z.number(),
    counts: z.boolean().describe('whether it counts as cover (a stop or an OCO; a target alone does not)'),
  }),
);

export const COVERAGE_STATUSES = ['covered', 'partly', 'target-only', 'uncovered'] as const;
export type CoverageStatus = (typeof COVERAGE_STATUSES)[number];

const positionCoverageSchema = memo(() =>
  z.object({
    exch: z.string(),
    tsym: z.string(),
    product: z.string(),
    netQty: z.number(),
    averagePrice: z.number(),
    status: z
      .enum(COVERAGE_STATUSES)
      .describe(
        'covered: stops and OCOs for the whole quantity; partly: for some of it; target-only: no stop, only targets; uncovered: no exit',
      ),
    coveredQty: z.number().describe('the quantity the stops and OCOs would close (at most the open quantity)'),
    uncoveredQty: z.number().describe('the open quantity no stop or OCO covers'),
    overCoveredQty: z
      .number()
      .optional()
      .describe('the stops and OCOs over the open quantity: a fired one would open a position the other way'),
    owedQty: z
      .number()
      .optional()
      .describe(
        'what live plans owe it and is not at the broker yet (a stop or exit still to be placed): not cover, and autoCover leaves it to them',
      ),
    owedBy: z
      .array(z.object({ planId: z.string(), qty: z.number(), what: z.string() }))
      .optional()
      .describe('the plans that owe it, each with its part'),
    exits: z.array(exitSchema()),
  }),
);
export type PositionCoverage = z.output<ReturnType<typeof positionCoverageSchema>>;
export type CoverExit = PositionCoverage['exits'][number];

const coverageResultSchema = memo(() =>
  z.object({
    positions: z.array(positionCoverageSchema()).describe('every open position (netQty not 0)'),
    totals: z.object({
      open: z.number(),
      covered: z.number(),
      partly: z.number(),
      targetOnly: z.number(),
      uncovered: z.number(),
    }),
    settings: settingsSchema(),
    note: z
      .string()
      .optional()
      .describe('the plans could not be read: what they owe (owedQty) is not said, and autoCover places nothing'),
  }),
);
export const coverageResult = z.lazy(coverageResultSchema);
export type CoverageResult = z.output<typeof coverageResult>;
