/**
 * What a write tool answers first: the exact request, the rules checked (the assistant's limits here, the exchange's
 * rules from the gateway's dry run), any market order sent as a protected limit, a one-line summary a person can
 * read, and the confirmationId. Nothing is sent to the broker by a preview.
 */
import type { GatewayPort, GatewayRequest } from './port.js';

/** The assistant's caps, set by the trader; an order over one is refused at its preview. */
export interface AssistantLimits {
  /** The most quantity of one order (each leg of an OCO). */
  maxQty?: number;
  /** The most value (quantity x price, or trigger when the price is 0) of one order. */
  maxValue?: number;
  /** The exchanges the assistant may trade on. */
  exchanges?: readonly string[];
}

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

/** The orders a request would place or change, for the limits: each with exchange, quantity and value. */
const ordersOf = (request: GatewayRequest): { exch: string; qty: number; price: number; what: string }[] => {
  const b = request.body ?? {};
  const one = (o: Fields, exch: unknown, trigger: unknown, what: string) => {
    const prc = Number(o.prc ?? 0);
    return { exch: str(exch), qty: Number(o.qty ?? 0), price: prc > 0 ? prc : Number(trigger ?? 0), what };
  };
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

/** The limits checked (each a line) and the first one broken, if any. */
export const checkLimits = (
  request: GatewayRequest,
  limits: AssistantLimits = {},
): { checked: string[]; refused?: string } => {
  const checked: string[] = [];
  for (const o of ordersOf(request)) {
    if (limits.exchanges) {
      checked.push(`exchange ${o.exch} among ${limits.exchanges.join(', ')}`);
      if (!limits.exchanges.includes(o.exch))
        return {
          checked,
          refused: `${o.what} is on ${o.exch}; this assistant may trade only on ${limits.exchanges.join(', ')}`,
        };
    }
    if (limits.maxQty !== undefined) {
      checked.push(`quantity ${o.qty} at most ${limits.maxQty}`);
      if (o.qty > limits.maxQty)
        return { checked, refused: `${o.what} has quantity ${o.qty}, over this assistant's cap of ${limits.maxQty}` };
    }
    if (limits.maxValue !== undefined) {
      const value = o.qty * o.price;
      checked.push(`value ${value} at most ${limits.maxValue}`);
      if (value > limits.maxValue)
        return {
          checked,
          refused: `${o.what} is worth ${value}, over this assistant's cap of ${limits.maxValue} per order`,
        };
    }
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
): Promise<Preview | { refused: string; rulesChecked: string[] }> => {
  const { checked, refused } = checkLimits(request, limits);
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
