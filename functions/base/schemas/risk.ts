/**
 * The day's limits (functions/risk/, docs/how-to/set-a-day-loss-limit.md): what `PUT /risk` takes and what
 * `GET /risk` answers. Amounts are rupees; a loss limit is written as a positive amount (5000 stops at -₹5,000).
 */
import './zod-config.js';

import * as z from 'zod';

import { memo } from './values.js';

/** The largest limit taken: a typo of a few zeros is refused, not stored. */
export const MAX_RISK_AMOUNT = 100_000_000;

const amount = (field: string, meaning: string) =>
  z
    .number({ error: `${field} must be a number of rupees (${meaning}), e.g. 5000` })
    .refine((v) => Number.isFinite(v) && v > 0, {
      error: `${field} must be a positive amount in rupees (${meaning}): a limit of ₹5,000 is written 5000, never -5000 or 0`,
    })
    .refine((v) => v <= MAX_RISK_AMOUNT, { error: `${field} must be at most ${MAX_RISK_AMOUNT} rupees` })
    .refine((v) => Math.round(v * 100) === v * 100, {
      error: `${field} must be rupees to the paisa (at most 2 decimals)`,
    });

export const RISK_MODES = ['keep-exits', 'cancel-all'] as const;

/** What `PUT /risk` takes: the whole of the account's settings (what it leaves out is unset). */
export const riskInput = z
  .strictObject({
    dayLossLimit: amount('dayLossLimit', "the day's loss at which trading stops, as a positive amount")
      .optional()
      .describe("rupees, positive: trading stops once the day's P&L (realised + unrealised) is at or below minus this"),
    dayProfitTarget: amount('dayProfitTarget', "the day's profit at which trading stops")
      .optional()
      .describe("rupees, positive: trading stops once the day's P&L is at or above this"),
    mode: z
      .enum(RISK_MODES, {
        error: (issue: { input?: unknown }) =>
          `mode must be keep-exits (the default: entries cancelled, exits kept) or cancel-all (every pending order cancelled), got ${JSON.stringify(issue.input)}`,
      })
      .optional()
      .describe('how the kill switch goes on when a limit is crossed: keep-exits (the default) or cancel-all'),
    squareOff: z
      .boolean({ error: 'squareOff must be true or false' })
      .optional()
      .describe('true: each open position is closed by a protected LIMIT order once a limit is crossed'),
    tags: z
      .unknown()
      .optional()
      .refine((v) => v === undefined, {
        error:
          "tags: per-strategy limits are not offered: the broker's positions carry no tag, so a tag's P&L cannot be known from them; set the account's limits (dayLossLimit, dayProfitTarget)",
      })
      .describe('not offered (the broker’s positions carry no tag); refused with the reason'),
  })
  .describe(
    'The account\'s day limits; {} turns them off. Example: {"dayLossLimit": 5000, "dayProfitTarget": 10000, "mode": "keep-exits"}',
  );
export type RiskInput = z.output<typeof riskInput>;

/** The settings as stored and answered. */
export interface RiskSettings {
  dayLossLimit?: number;
  dayProfitTarget?: number;
  mode: (typeof RISK_MODES)[number];
  squareOff: boolean;
  updatedAt: string;
  updatedBy: string;
}

const pnlSchema = memo(() =>
  z.object({
    realised: z.number(),
    unrealised: z.number(),
    total: z.number().describe("realised + unrealised: the day's P&L, rupees"),
  }),
);

const settingsSchema = memo(() =>
  z.object({
    dayLossLimit: z.number().optional(),
    dayProfitTarget: z.number().optional(),
    mode: z.enum(RISK_MODES),
    squareOff: z.boolean(),
    updatedAt: z.string().describe('when they were set (ISO time)'),
    updatedBy: z.string().describe('who set them'),
  }),
);

const todaySchema = memo(() =>
  z.object({
    day: z.string().describe('the India day (YYYY-MM-DD) this state is of; a new day starts clear'),
    state: z
      .enum(['clear', 'hit', 'unchecked'])
      .describe(
        'clear: no limit crossed at the last check; hit: a limit was crossed (trading stopped for the day); unchecked: the last check could not read the positions (no decision made: see reason)',
      ),
    hit: z
      .object({
        at: z.string().describe('when the check saw it (ISO time)'),
        limit: z.enum(['dayLossLimit', 'dayProfitTarget']),
        threshold: z.number().describe('the P&L it was crossed at: minus the loss limit, or the target'),
        pnl: pnlSchema(),
        mode: z.enum(RISK_MODES),
        halted: z.boolean().describe('the kill switch was turned on'),
        eventSent: z.boolean().describe('the Risk Limit Hit event was queued'),
        squareOff: z
          .array(
            z.object({
              exch: z.string(),
              tsym: z.string(),
              product: z.string(),
              side: z.enum(['B', 'S']),
              qty: z.number(),
              price: z.string().optional(),
              norenordno: z.string().optional(),
              error: z.string().optional(),
            }),
          )
          .optional()
          .describe('squareOff: the closing order of each open position'),
      })
      .optional(),
    reason: z.string().optional().describe('unchecked: why the positions could not be read'),
    lastCheck: z
      .object({ at: z.string(), pnl: pnlSchema().optional() })
      .optional()
      .describe("the watcher's last check of the day and the P&L it saw"),
  }),
);
export type RiskToday = z.output<ReturnType<typeof todaySchema>>;

export const riskResult = z.lazy(() =>
  z.object({
    settings: settingsSchema().optional().describe('none: no limits are set'),
    today: todaySchema(),
    idempotency: z.object({ key: z.string(), replayed: z.boolean() }).optional(),
  }),
);
export type RiskResult = z.output<typeof riskResult>;
