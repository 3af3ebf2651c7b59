/**
 * What a write tool answers first: the exact request, the rules checked (the assistant's limits here, the exchange's
 * rules from the gateway's dry run), any market order sent as a protected limit, a one-line summary a person can
 * read, and the confirmationId. Nothing is sent to the broker by a preview.
 */
import { checkLimits as overLimits, type LimitedOrder } from '../functions/base/schemas/assistant-limits.js';
import type { AssistantLimits } from '../functions/base/schemas/assistants.js';
import type { GatewayPort, GatewayRequest } from './port.js';

export type { AssistantLimits };

type Fields = Record<string, unknown>;
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const SIDE: Record<string, string> = { B: 'buy', S: 'sell' };
const ALERT: Record<string, string> = { LTP_A_O: 'rises above', LTP_B_O: 'falls below' };

const order = (o: Fields): string => {
  const price = ['MKT', 'SL-MKT'].includes(str(o.prctyp)) ? 'at market' : `limit ${str(o.prc)}`;
  return `${SIDE[str(o.trantype)] ?? str(o.trantype)} ${str(o.qty)} ${price} (${str(o.prctyp)}, product ${str(o.prd)})`;
};
const instrument = (b: Fields): string => `${str(b.exch)}:${str(b.tsym)}`;
const leg = (name: string, l: unknown): string => {
  const { trigger, order: o } = (l ?? {}) as { trigger?: unknown; order?: Fields };
  return `${name} at ${str(trigger)}${o ? `: ${order(o)}` : ''}`;
};
const changes = (b: Fields): string =>
  Object.entries(b)
    .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : str(v)}`)
    .join(', ');

/** One line a person can read: what the request does, in a trader's words. */
export const summarize = (request: GatewayRequest): string => {
  const b = request.body ?? {};
  const id = request.path?.alId ?? request.path?.planId ?? '';
  switch (request.operation) {
    case 'PlaceGTTOrder':
      return `Place a GTT on ${instrument(b)}: when the price ${ALERT[str(b.ai_t)] ?? str(b.ai_t)} ${str(b.d)}, ${order(b)}.`;
    case 'ModifyGTTOrder':
      return `Replace GTT ${id} on ${instrument(b)}: when the price ${ALERT[str(b.ai_t)] ?? str(b.ai_t)} ${str(b.d)}, ${order(b)}.`;
    case 'PatchGTTOrder':
      return `Change GTT ${id}: ${changes(b)}; the rest stays as the broker holds it.`;
    case 'PlaceOCOOrder':
      return `Place an OCO on ${instrument(b)}: ${leg('target', b.target)}; ${leg('stop-loss', b.stopLoss)}.`;
    case 'ModifyOCOOrder':
      return `Replace OCO ${id} on ${instrument(b)}: ${leg('target', b.target)}; ${leg('stop-loss', b.stopLoss)}.`;
    case 'PatchOCOOrder':
      return `Change OCO ${id}: ${changes(b)}; the rest stays as the broker holds it.`;
    case 'CancelGTTOrder':
      return `Cancel GTT/OCO ${id}.`;
    case 'CreatePlan':
      return b.kind === 'bracket'
        ? `Start a bracket plan: entry ${instrument((b.entry ?? {}) as Fields)} ${order((b.entry ?? {}) as Fields)} when the price ${ALERT[str((b.entry as Fields | undefined)?.ai_t)] ?? ''} ${str((b.entry as Fields | undefined)?.d)}; target ${JSON.stringify(b.target)}, stop-loss ${JSON.stringify(b.stopLoss)}.`
        : `Start a trailing-stop plan on ${instrument((b.order ?? {}) as Fields)}: ${order((b.order ?? {}) as Fields)}, trailing by ${str(b.trailBy)}.`;
    case 'CancelPlan':
      return `Cancel plan ${id} (its live GTT is cancelled, the plan ends).`;
    case 'ReleaseKillSwitch':
      return 'Turn the kill switch OFF: places and modifies are accepted again.';
    default:
      return `${request.operation} ${JSON.stringify({ ...request.path, ...b })}.`;
  }
};

/** The orders a request would place or change, for the limits: each as the limits read it, and named. */
const ordersOf = (request: GatewayRequest): (LimitedOrder & { what: string })[] => {
  const b = request.body ?? {};
  const one = (o: Fields, exch: unknown, trigger: unknown, what: string) => ({
    exch: str(exch),
    qty: str(o.qty),
    prc: str(o.prc),
    d: str(trigger),
    what,
  });
  switch (request.operation) {
    case 'PlaceGTTOrder':
    case 'ModifyGTTOrder':
      return [one(b, b.exch, b.d, 'the order')];
    case 'PlaceOCOOrder':
    case 'ModifyOCOOrder':
      return (['target', 'stopLoss'] as const).map((name) => {
        const l = (b[name] ?? {}) as { trigger?: unknown; order?: Fields };
        return one(l.order ?? {}, b.exch, l.trigger, `the ${name} leg`);
      });
    case 'CreatePlan': {
      const o = ((b.kind === 'bracket' ? b.entry : b.order) ?? {}) as Fields;
      return [one(o, o.exch, o.d, "the plan's order")];
    }
    default:
      return [];
  }
};

/** The operations that place a new order (a plan places its entry): each counts once against the orders per day. */
export const PLACING_OPERATIONS: readonly string[] = ['PlaceGTTOrder', 'PlaceOCOOrder', 'CreatePlan'];

/** The assistant's limits as the preview says it checked them, one line each. */
const limitLines = (limits: AssistantLimits, counted: boolean, ordersToday: number): string[] => [
  ...(limits.exchanges ? [`exchange among ${limits.exchanges.join(', ')}`] : []),
  ...(limits.maxQtyPerOrder !== undefined ? [`quantity at most ${limits.maxQtyPerOrder} per order`] : []),
  ...(limits.maxValuePerOrder !== undefined ? [`value at most ${limits.maxValuePerOrder} per order`] : []),
  ...(counted && limits.maxOrdersPerDay !== undefined
    ? [`orders today: ${ordersToday} of at most ${limits.maxOrdersPerDay}`]
    : []),
];

/**
 * The limits checked and the first order (or OCO leg) over one, if any, in the registry's words
 * (functions/base/schemas/assistant-limits.ts). `ordersToday`: the assistant's day counter where the server keeps one
 * (the remote server; 0 over stdio); only a request that places a new order is held to the orders per day.
 */
export const checkLimits = (
  request: GatewayRequest,
  limits: AssistantLimits = {},
  ordersToday = 0,
): { checked: string[]; refused?: string } => {
  const orders = ordersOf(request);
  if (orders.length === 0) return { checked: [] };
  const counted = PLACING_OPERATIONS.includes(request.operation);
  const checked = limitLines(limits, counted, ordersToday);
  for (const { what, ...order } of orders) {
    const reason = overLimits(limits, order, counted ? ordersToday : 0);
    if (reason) return { checked, refused: `${what}: ${reason}` };
  }
  return { checked };
};

export interface Preview {
  summary: string;
  /** The request to the gateway that confirm sends: operation, path, query, body. */
  request: GatewayRequest;
  /** The gateway's dry run: the exact broker request (token masked) and the exchange's rules it checked. */
  dryRun?: Record<string, unknown>;
  rulesChecked: string[];
  /** A market order the gateway sends as a protected limit order. */
  conversion?: string;
}

/** Builds the preview of `request`, asking the gateway for a dry run where the operation has one. */
export const buildPreview = async (
  port: GatewayPort,
  request: GatewayRequest,
  hasDryRun: boolean,
  limits?: AssistantLimits,
  ordersToday = 0,
): Promise<Preview | { refused: string; rulesChecked: string[] }> => {
  const { checked, refused } = checkLimits(request, limits, ordersToday);
  if (refused) return { refused, rulesChecked: checked };
  const rulesChecked = [...checked];
  let dryRun: Record<string, unknown> | undefined;
  if (hasDryRun) {
    dryRun = (await port.call(request, { dryRun: true })) as Record<string, unknown>;
    const rules = dryRun.exchangeRules as Record<string, unknown> | undefined;
    if (rules)
      rulesChecked.push(
        `exchange rules of ${str(rules.instrument)}: tick ${str(rules.tick)}, lot ${str(rules.lot)}, band ${JSON.stringify(rules.band)}, freeze ${JSON.stringify(rules.freeze)}`,
      );
    rulesChecked.push("the gateway's validation and guardrails (dry run passed)");
  }
  const conversion = conversionOf(request, dryRun);
  return {
    summary: summarize(request),
    request,
    ...(dryRun ? { dryRun } : {}),
    rulesChecked,
    ...(conversion ? { conversion } : {}),
  };
};

/** A market order asked for, said from the dry run's `converted` (the gateway's own word) where it has one. */
const conversionOf = (request: GatewayRequest, dryRun?: Record<string, unknown>): string | undefined => {
  const converted = dryRun?.converted as Fields | undefined;
  if (converted) {
    const legs: [string, Fields][] =
      'from' in converted
        ? [['the order', converted]]
        : (['target', 'stopLoss'] as const).flatMap((name) =>
            converted[name] ? [[`the ${name} leg`, converted[name] as Fields] as [string, Fields]] : [],
          );
    return legs
      .map(
        ([what, c]) =>
          `${what}: ${str(c.from)} sent as ${str(c.to)} at ${str(c.price)} (${str(c.protectionPct)}% from ${str(c.reference)}, tick ${str(c.tick)})`,
      )
      .join('; ');
  }
  const b = request.body ?? {};
  const orders: Fields[] = [
    b,
    ...(['target', 'stopLoss'] as const).map((n) => ((b[n] as Fields | undefined)?.order ?? {}) as Fields),
  ];
  return orders.some((o) => ['MKT', 'SL-MKT'].includes(str(o.prctyp)))
    ? 'a market order is sent as a protected limit order (the broker refuses API market orders); the gateway sets its price when it is sent'
    : undefined;
};
