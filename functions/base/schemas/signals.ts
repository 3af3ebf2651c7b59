/**
 * Signals: alerts from TradingView, ChartInk, Amibroker (or any tool that can POST JSON) turned into orders. A
 * strategy (`POST /strategies`) says what an alert does; its webhook URL carries an unguessable token; an alert
 * posted there is validated, recorded and acknowledged (`202`), then acted on off the request path by the signal
 * worker through the same order operations as every other caller (docs/reference/signals.md).
 *
 * The shapes shared by both halves: the strategy (what the caller defines, what is stored), the alert as read from
 * each source's body, the signal record and the queue's message.
 */
import * as z from 'zod';

import {
  EXCHANGES,
  PRICE_TYPES,
  PRODUCTS,
  RETENTIONS,
  STAMP_SHAPED_END,
  TAG_MAX_LENGTH,
  TRANSACTION_TYPES,
} from './fields.js';
import { pageFields } from './paging.js';

/** Where alerts come from: the body each one posts is read by its own rule (functions/signals/). */
export const SIGNAL_SOURCES = ['tradingview', 'chartink', 'amibroker', 'generic'] as const;
export type SignalSource = (typeof SIGNAL_SOURCES)[number];

/**
 * A price relative to the alert's price: percent (`"-0.5%"`, `"+1%"`) or points (`"-5"`, `"2.5"`), `"0"` the alert's
 * price itself; the result is rounded to the instrument's tick (a buy's limit down, a sell's up: never a worse fill).
 */
export const OFFSET = /^[+-]?(?:\d+(?:\.\d+)?|\.\d+)%?$/;
export const offsetRule = (field: string) =>
  z.strictObject(
    {
      offset: z
        .string({ error: `${field}.offset must be a string such as "-0.5%" or "-5"` })
        .regex(OFFSET, { error: `${field}.offset must be percent ("-0.5%") or points ("-5") from the alert's price` }),
    },
    { error: `${field} must be {"offset": "-0.5%"} (percent) or {"offset": "-5"} (points) from the alert's price` },
  );
export type OffsetRule = z.output<ReturnType<typeof offsetRule>>;

/**
 * The order an alert places, apart from its symbol, side and prices (from the alert unless fixed here). `qty` is the
 * quantity when the alert names none; `trantype` fixes the side (ChartInk's alerts carry none).
 */
export const signalOrder = z.strictObject({
  exch: z.enum(EXCHANGES).optional().describe("the exchange when the alert names none (TradingView's `exchange` wins)"),
  tsym: z.string().min(1).max(40).optional().describe("a fixed symbol: the alert's ticker is then ignored"),
  prd: z.enum(PRODUCTS),
  prctyp: z.enum(PRICE_TYPES).default('LMT'),
  ret: z.enum(RETENTIONS).default('DAY'),
  qty: z.number().int().positive().optional(),
  trantype: z.enum(TRANSACTION_TYPES).optional(),
});
export type SignalOrder = z.output<typeof signalOrder>;

const leg = (field: string) =>
  z.strictObject({ trigger: offsetRule(`${field}.trigger`), price: offsetRule(`${field}.price`) });

/** What an alert does. */
export const signalAction = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('gtt'),
      order: signalOrder,
      trigger: offsetRule('trigger'),
      price: offsetRule('price'),
    }),
    z.strictObject({ kind: z.literal('oco'), order: signalOrder, target: leg('target'), stopLoss: leg('stopLoss') }),
    z.strictObject({
      kind: z.literal('bracket'),
      order: signalOrder,
      entry: leg('entry'),
      target: leg('target'),
      stopLoss: leg('stopLoss'),
    }),
    z.strictObject({
      kind: z.literal('trailing-stop'),
      order: signalOrder,
      trigger: offsetRule('trigger'),
      price: offsetRule('price'),
      trailBy: z.string().regex(/^\d+(?:\.\d+)?$/, { error: 'trailBy must be points, e.g. "5"' }),
      step: z
        .string()
        .regex(/^\d+(?:\.\d+)?$/)
        .optional(),
    }),
    z.strictObject({ kind: z.literal('cancel'), exch: z.enum(EXCHANGES).optional() }),
    z.strictObject({ kind: z.literal('kill-switch') }),
  ],
  { error: 'action.kind must be one of gtt, oco, bracket, trailing-stop, cancel, kill-switch' },
);
export type SignalAction = z.output<typeof signalAction>;

/** TradingView's published webhook addresses (its documentation, "Webhook authentication"). */
export const TRADINGVIEW_IPS = ['52.89.214.238', '34.212.75.30', '54.218.53.128', '52.32.178.7'] as const;

/**
 * The tag a strategy's orders carry (the broker's `remarks`): at most 26 characters, so the gateway's 13-character
 * write stamp still fits beside it in the broker's 40 (functions/base/broker/order-stamps.ts).
 */
export const STRATEGY_TAG_MAX = TAG_MAX_LENGTH - 14;
export const TAG_TEXT = /^[A-Za-z0-9 _.:/-]+$/;
const strategyTag = z
  .string({ error: 'tag must be a string' })
  .min(1, { error: "tag must not be empty (omit it: the strategy's name or id is the tag)" })
  .max(STRATEGY_TAG_MAX, {
    error: `tag must be at most ${STRATEGY_TAG_MAX} characters (the gateway's stamp shares the broker's ${TAG_MAX_LENGTH})`,
  })
  .regex(TAG_TEXT, { error: 'tag may hold letters, digits, spaces and _ . : / - only' })
  .refine((text) => !STAMP_SHAPED_END.test(text), {
    error:
      "tag must not end in gw. and ten letters or digits: that is the shape of the gateway's own stamp, which it adds to the broker's remarks; change the end of the tag, or drop it",
  });

/** Whether a strategy's name can be its orders' tag as it is (else its id is): the strategy tag's own rules. */
export const fitsStrategyTag = (name: string): boolean =>
  name.length <= STRATEGY_TAG_MAX && TAG_TEXT.test(name) && !STAMP_SHAPED_END.test(name);

const allowIps = z.union([z.literal('tradingview'), z.array(z.string().min(3).max(45)).min(1).max(20)]);

/**
 * ChartInk's alerts never carry a side: a ChartInk strategy that places orders must fix `order.trantype`, refused
 * when it is defined (or changed) without it rather than on every alert.
 */
export const sideRule = (
  strategy: { source: SignalSource; action: SignalAction },
  ctx: z.RefinementCtx,
  path: (string | number)[] = ['action', 'order', 'trantype'],
) => {
  const action = strategy.action;
  if (strategy.source === 'chartink' && 'order' in action && !action.order.trantype)
    ctx.addIssue({
      code: 'custom',
      path,
      message:
        "is required for a ChartInk strategy: ChartInk's alerts carry no side, so the strategy fixes it (B or S)",
    });
};

/**
 * What a strategy's alerts may do: `trade` (absent means trade) any order its action makes; `exit` only orders that
 * reduce an open position (exit-only.ts: a sell up to the long, a buy up to the short, pending exits counted), checked
 * by the worker on the positions it reads when it acts. An exit strategy places GTTs, OCOs or trailing stops (the
 * stop held to the same rule), or cancels, or turns the kill switch on: a bracket places an entry, so it is refused.
 */
export const STRATEGY_SCOPES = ['trade', 'exit'] as const;
export type StrategyScope = (typeof STRATEGY_SCOPES)[number];

/** An exit strategy's action must be one the exit-only rule can check. */
export const exitScopeRule = (
  strategy: { scope?: StrategyScope | undefined; action: SignalAction },
  ctx: z.RefinementCtx,
) => {
  if (strategy.scope === 'exit' && strategy.action.kind === 'bracket')
    ctx.addIssue({
      code: 'custom',
      path: ['scope'],
      message:
        'exit is for gtt, oco, trailing-stop, cancel or kill-switch actions: a bracket plan places an entry, which an exit-only strategy may not (use kind gtt, oco or trailing-stop with the side that closes the position)',
    });
};

const strategyFields = {
  name: z.string().min(1).max(64),
  source: z.enum(SIGNAL_SOURCES),
  action: signalAction,
  /** The most an alert may ask for; an alert over it is refused (never cut down). */
  maxQty: z.number().int().positive().optional(),
  /** `live` acts at the broker; `paper` only records what it would have placed (each order's dry run). */
  mode: z.enum(['live', 'paper']).default('live'),
  /** Source addresses allowed to post (`"tradingview"` for its published ones); absent: any. */
  allowIps: allowIps.optional(),
  /** Alerts per minute accepted for this strategy. */
  ratePerMinute: z.number().int().min(1).max(600).default(30),
  /** The tag of the orders its alerts place; absent: the strategy's name when it fits a tag, else its id. */
  tag: strategyTag.optional(),
  /** `exit`: only orders that reduce an open position (STRATEGY_SCOPES); absent: `trade`. */
  scope: z.enum(STRATEGY_SCOPES, { error: 'scope must be trade or exit' }).optional(),
};

/** `POST /strategies`. */
export const strategyInput = z.strictObject(strategyFields).superRefine((s, ctx) => {
  sideRule(s, ctx);
  exitScopeRule(s, ctx);
});
export type StrategyInput = z.output<typeof strategyInput>;

/** A strategy as stored (the token only as its hash) and as `GET /strategies/{strategyId}` shows it. */
export interface Strategy extends StrategyInput {
  strategyId: string;
  createdAt: string;
  /** When its token was last set (created or rotated). */
  tokenSetAt: string;
  /** When it was last changed (PATCH). */
  updatedAt?: string;
}

/** The fields a PATCH may change. */
export const STRATEGY_PATCH_FIELDS = [
  'name',
  'mode',
  'maxQty',
  'ratePerMinute',
  'allowIps',
  'tag',
  'scope',
  'qty',
  'trantype',
  'action',
] as const;

/**
 * `PATCH /strategies/{strategyId}`: only what changes, at least one field; `null` removes an optional one. `qty`
 * and `trantype` change the action's order (`action.order.qty`, `.trantype`); `action` replaces it whole. The
 * source and the webhook URL stay: rotate the token for a new URL, define a new strategy for another source.
 */
export const strategyPatch = z
  .strictObject({
    name: strategyFields.name.optional(),
    mode: z.enum(['live', 'paper']).optional(),
    maxQty: z.number().int().positive().nullable().optional(),
    ratePerMinute: z.number().int().min(1).max(600).optional(),
    allowIps: allowIps.nullable().optional(),
    tag: strategyTag.nullable().optional(),
    scope: strategyFields.scope.nullable(),
    qty: z.number().int().positive().nullable().optional(),
    trantype: z.enum(TRANSACTION_TYPES).nullable().optional(),
    action: signalAction.optional(),
  })
  .superRefine((patch, ctx) => {
    if (!Object.values(patch).some((v) => v !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `name at least one field to change (${STRATEGY_PATCH_FIELDS.join(', ')})`,
      });
  });
export type StrategyPatch = z.output<typeof strategyPatch>;

/**
 * One alert as read from its source's body: ChartInk's one body is one alert per stock. Fields absent here come
 * from the strategy.
 */
export interface Alert {
  /** `B` or `S` (TradingView's `buy`/`sell` in any case). */
  side?: 'B' | 'S';
  /** The symbol as the alert names it (`INFY`, `NIFTY1!`, `SBIN`). */
  ticker?: string;
  exchange?: string;
  /** The alert's price, a decimal string. */
  price?: string;
  qty?: number;
  /** The alert's own id when its template has one (duplicates are matched on it). */
  id?: string;
}

export const SIGNAL_STATES = ['received', 'acted', 'refused'] as const;
export type SignalState = (typeof SIGNAL_STATES)[number];

/** One signal: recorded before the 202, completed by the worker. */
export interface SignalRecord {
  signalId: string;
  strategyId: string;
  receivedAt: string;
  state: SignalState;
  alerts: Alert[];
  /** A bounded, redacted preview of the body. */
  preview: string;
  /** What it placed or cancelled (acted), one line per order with its al_id or planId. */
  results?: { ticker: string; tsym?: string; alId?: string; planId?: string; dryRun?: boolean; detail?: string }[];
  /** Why it was refused. */
  reason?: string;
}

/** The queue's message: which signal to act on. */
export interface SignalMessage {
  signalId: string;
  strategyId: string;
}

/** What the strategies' routes answer (the OpenAPI document's result schemas). */
export const strategyRecord = z.object({
  strategyId: z.string().describe('st and 16 hex digits'),
  name: z.string(),
  source: z.enum(SIGNAL_SOURCES),
  action: z.looseObject({ kind: z.string() }).describe('what an alert does (the body of POST /strategies)'),
  maxQty: z.number().int().optional(),
  mode: z.enum(['live', 'paper']),
  allowIps: z.union([z.literal('tradingview'), z.array(z.string())]).optional(),
  ratePerMinute: z.number().int(),
  tag: z.string().optional().describe("the tag of its orders when set (else the strategy's name or id)"),
  scope: z
    .enum(STRATEGY_SCOPES)
    .optional()
    .describe(
      'exit: its alerts only reduce open positions (checked on the positions read when it acts); absent: trade',
    ),
  createdAt: z.string(),
  updatedAt: z.string().optional().describe('when it was last changed (PATCH)'),
  tokenSetAt: z.string().describe('when its webhook token was last set (created or rotated)'),
});
export const strategyWithUrl = strategyRecord.extend({
  webhookUrl: z
    .string()
    .describe('the full URL alerts are posted to, holding the token: shown in this reply only, never again'),
  idempotency: z.object({ key: z.string(), replayed: z.boolean() }).optional(),
});
export const strategyList = z.object({ strategies: z.array(strategyRecord) });
export const strategyDeleted = z.object({ strategyId: z.string(), deleted: z.literal(true) });
/** `POST /signals/{token}`: 202 with the signal's id, or 200 with the first one's for a duplicate. */
export const signalAccepted = z.object({
  signalId: z.string(),
  state: z.enum(SIGNAL_STATES),
  alerts: z.number().int().describe('how many alerts the body held (ChartInk: one per stock)'),
  duplicate: z.boolean().optional().describe('true: the same alert was received before; it is acted on once'),
  queued: z
    .literal(false)
    .optional()
    .describe(
      'false: recorded, but the signal queue did not take it now; the worker acts on it within about 3 minutes (its sweep). Do not post it again',
    ),
});

/** `GET /signals`: newest first, one strategy's with `strategyId`, one state's with `state`. */
export const signalListInput = z.strictObject({
  strategyId: z
    .string({ error: 'strategyId must be a strategy id (st and 16 hex digits)' })
    .regex(/^st[0-9a-f]{16}$/, { error: 'strategyId must be a strategy id (st and 16 hex digits)' })
    .optional(),
  state: z.enum(SIGNAL_STATES, { error: `state must be one of ${SIGNAL_STATES.join(', ')}` }).optional(),
  ...pageFields('signals'),
});
export type SignalListInput = z.output<typeof signalListInput>;

/** One signal as `GET /signals/{signalId}` shows it: what came in, and its fate. */
export const signalView = z.object({
  signalId: z.string(),
  strategyId: z.string(),
  receivedAt: z.string(),
  state: z.enum(SIGNAL_STATES).describe('received (not acted on yet), acted or refused'),
  alerts: z.array(z.looseObject({})).describe('the alerts read from its body (ChartInk: one per stock)'),
  preview: z.string().describe('the body, bounded and redacted (never any part of the webhook token)'),
  results: z
    .array(z.looseObject({ ticker: z.string() }))
    .optional()
    .describe('what each alert placed, would have placed (paper: dryRun), or why not'),
  reason: z.string().optional().describe('why it was refused'),
});
export const signalList = z.object({
  signals: z.array(signalView),
  nextCursor: z.string().optional().describe('pass it as `cursor` for the next page; absent on the last'),
});
