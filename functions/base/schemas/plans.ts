/**
 * A plan's input (`POST /plans`) and its record (`GET /plans/{planId}`). The entry or stop order is the body of
 * `POST /gtt-orders`, checked with the place operation's own input schema, so a plan can never carry an order the
 * gateway would refuse on its own.
 */
import * as z from 'zod';

import { PLAN_STATES, type PlanState, TERMINAL } from './event-types.js';
import { decimalString, orderTag } from './fields.js';
import { placeOrderInput } from './input.js';
import { optionLegsInput, optionLegsRecord } from './option-legs.js';
import { optionEntryInput, optionPlanRecord } from './option-plan.js';
import { pageFields } from './paging.js';

export { PLAN_STATES, type PlanState, TERMINAL };

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
    optionEntryInput,
    optionLegsInput,
  ],
  { error: 'kind must be bracket, trailing-stop, option-entry or option-legs' },
);
export type PlanInput = z.output<typeof planInput>;

const action = z.object({ at: z.string(), action: z.string(), detail: z.record(z.string(), z.unknown()).optional() });

/** At most this many actions are kept in a plan's record (the newest); `historyDropped` counts the others. */
export const PLAN_HISTORY_LIMIT = 20;

const position = z.object({
  /** The side of the open position: B (long, bought) or S (short, sold). */
  side: z.enum(['B', 'S']),
  qty: z.number().int().positive(),
});

/**
 * A broker action the plan has started and not yet seen the end of (a place or a modify whose reply is awaited or
 * was lost): the stamp its GTT carries at the broker (`remarks`), the attempt's idempotency key, the deadline of the
 * invocation that sent it (its call ends by then), and until when the broker may still carry it out (that deadline
 * plus the late window). The next run (or DELETE) resolves it against the broker's lists.
 */
const inFlight = z.object({
  stamp: z.string(),
  key: z.string(),
  attempt: z.number().int().positive(),
  /** The deadline of the invocation that sent the call; past it, nobody waits for its answer any more. */
  deadline: z.string().optional(),
  leaseUntil: z.string(),
  /** Trailing stop: the trigger and price the modify moves the stop to. */
  trigger: z.string().optional(),
  price: z.string().optional(),
});

export const planRecord = z.object({
  planId: z.string(),
  kind: z.enum(['bracket', 'trailing-stop', 'option-entry', 'option-legs']),
  state: z.enum(PLAN_STATES),
  exch: z.string(),
  tsym: z.string(),
  tag: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The broker GTTs of the plan: the entry and the live exit OCO (bracket), the stop (trailing stop). */
  alIds: z.object({ entry: z.string().optional(), exit: z.string().optional(), stop: z.string().optional() }),
  entry: z.record(z.string(), z.unknown()).optional(),
  target: z.object({ trigger: z.string(), price: z.string() }).optional(),
  stopLoss: z.object({ trigger: z.string(), price: z.string() }).optional(),
  order: z.record(z.string(), z.unknown()).optional(),
  trailBy: z.string().optional(),
  step: z.string().optional(),
  /** The instrument's tick size, read from the broker at creation: every price the plan sends is on its grid. */
  tick: z.string().optional(),
  /** Trailing stop: the best price seen since it was armed, and the stop's trigger and price now (the broker's). */
  best: z.string().optional(),
  trigger: z.string().optional(),
  price: z.string().optional(),
  /** Trailing stop: how many times the stop moved. */
  trails: z.number().int().optional(),
  /** Trailing stop: runs in a row whose price read failed. */
  priceMisses: z.number().int().optional(),
  /** Bracket: the position the filled entry opened and no exit has closed yet. */
  position: position.optional(),
  /** Bracket: the exit's generation (a new exit after one was refused or its order rejected) and tries of it. */
  exitGen: z.number().int().optional(),
  exitTries: z.number().int().optional(),
  /** Option entry: the index it watches, the pick, and once crossed the contract chosen (option-plan.ts). */
  option: optionPlanRecord.optional(),
  /** Legs as one: the legs, their fills and closes, the net premium's exit (option-legs.ts). */
  legs: optionLegsRecord.optional(),
  inFlight: inFlight.optional(),
  /** The last action tried and how many tries it has had (each try has its own idempotency key). */
  tries: z.object({ base: z.string(), count: z.number().int() }).optional(),
  /** Unprotected: whether the gateway places an exit again by itself (false: it waits for the trader). */
  retrying: z.boolean().optional(),
  reason: z.string().optional(),
  /** A plan ended by DELETE: what is left at the broker and in the account. */
  left: z
    .object({ position: position.optional(), cancelled: z.array(z.string()), note: z.string().optional() })
    .optional(),
  /** Events published so far (their ids count on). */
  seq: z.number().int().optional(),
  /** A digest of the input it was created from: the same Idempotency-Key with another plan is refused. */
  inputHash: z.string().optional(),
  history: z.array(action),
  historyDropped: z.number().int().optional(),
});
export type Plan = z.output<typeof planRecord>;
export type PlanPosition = z.output<typeof position>;

export const planResult = planRecord.extend({
  idempotency: z.object({ key: z.string(), replayed: z.boolean() }).optional(),
});
export const planList = z.object({
  plans: z.array(planRecord),
  nextCursor: z.string().optional().describe('pass it as `cursor` for the next page; absent on the last'),
});

/** A page of `GET /plans` (query parameters, or the fields of a direct `{action: "list"}`). */
export const planListInput = z.strictObject(pageFields('plans'));
export type PlanListInput = z.output<typeof planListInput>;
