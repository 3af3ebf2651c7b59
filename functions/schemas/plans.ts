/**
 * A plan's input (`POST /plans`) and its record (`GET /plans/{planId}`). The entry or stop order is the body of
 * `POST /gtt-orders`, checked with the place operation's own input schema, so a plan can never carry an order the
 * gateway would refuse on its own.
 */
import * as z from 'zod';

import { PLAN_STATES } from './events.js';
import { decimalString, orderTag } from './fields.js';
import { placeOrderInput } from './input.js';

export { PLAN_STATES };
export type PlanState = (typeof PLAN_STATES)[number];

/** A place body, validated as POST /gtt-orders validates it; the caller's own fields are kept. */
const placeBody = (field: string) =>
  z
    .record(z.string(), z.unknown(), { error: `${field} must be the body of POST /gtt-orders` })
    .superRefine((value, ctx) => {
      const parsed = placeOrderInput.safeParse(value);
      if (!parsed.success)
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    });

const exitLeg = (field: string) =>
  z.strictObject(
    { trigger: decimalString(`${field}.trigger`), price: decimalString(`${field}.price`) },
    { error: `${field} must be {"trigger": "...", "price": "..."}` },
  );

const positive = (field: string) =>
  decimalString(field).refine((v) => Number(v) > 0, { error: `${field} must be greater than 0` });

export const planInput = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('bracket'),
      entry: placeBody('entry'),
      target: exitLeg('target'),
      stopLoss: exitLeg('stopLoss'),
      tag: orderTag.optional(),
    }),
    z.strictObject({
      kind: z.literal('trailing-stop'),
      order: placeBody('order'),
      trailBy: positive('trailBy'),
      step: positive('step').optional(),
      tag: orderTag.optional(),
    }),
  ],
  { error: 'kind must be bracket or trailing-stop' },
);
export type PlanInput = z.output<typeof planInput>;

const action = z.object({ at: z.string(), action: z.string(), detail: z.record(z.string(), z.unknown()).optional() });

export const planRecord = z.object({
  planId: z.string(),
  kind: z.enum(['bracket', 'trailing-stop']),
  state: z.enum(PLAN_STATES),
  exch: z.string(),
  tsym: z.string(),
  tag: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The broker GTTs of the plan: the entry and the exit OCO (bracket), the stop (trailing stop). */
  alIds: z.object({ entry: z.string().optional(), exit: z.string().optional(), stop: z.string().optional() }),
  entry: z.record(z.string(), z.unknown()).optional(),
  target: z.object({ trigger: z.string(), price: z.string() }).optional(),
  stopLoss: z.object({ trigger: z.string(), price: z.string() }).optional(),
  order: z.record(z.string(), z.unknown()).optional(),
  trailBy: z.string().optional(),
  step: z.string().optional(),
  /** Trailing stop: the best price seen since it was armed, and the stop's trigger and price now. */
  best: z.string().optional(),
  trigger: z.string().optional(),
  price: z.string().optional(),
  reason: z.string().optional(),
  history: z.array(action),
});
export type Plan = z.output<typeof planRecord>;

export const planResult = planRecord.extend({
  idempotency: z.object({ key: z.string(), replayed: z.boolean() }).optional(),
});
export const planList = z.object({ plans: z.array(planRecord) });

export const TERMINAL: readonly PlanState[] = ['done', 'failed', 'cancelled'];
