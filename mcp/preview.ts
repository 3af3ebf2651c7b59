/**
 * What a write tool answers first: the exact request, the rules checked (the assistant's limits here, the exchange's
 * rules from the gateway's dry run), any market order sent as a protected limit, the market beside the order (the
 * last price, each trigger's distance from it, the tag: market.ts), a summary a person can read, and the
 * confirmationId. Nothing is sent to the broker by a preview.
 */
import { watchedName } from '../functions/base/schemas/alert-watch.js';
import { rupees } from '../functions/base/schemas/assistant-limits.js';
import type { AssistantLimits } from '../functions/base/schemas/assistants.js';
import {
  legsOfDryRun,
  legsPlanSentence,
  optionPlanSentence,
  type OptionWordsInput,
  resolvedOfDryRun,
} from '../functions/base/schemas/option-words.js';
import type { GttOrder } from '../functions/base/schemas/reply.js';
import { closeSummary } from './close.js';
import { exitOnlyCheck } from './exit-only.js';
import { boundToCurrent, changedOrder, checkLimits, withValueCap } from './limits.js';
import { marketLine, marketOf, type MarketView } from './market.js';
import type { GatewayPort, GatewayRequest } from './port.js';
import { settingsPreview } from './settings.js';

export type { AssistantLimits };
export { checkLimits, PLACING_OPERATIONS } from './limits.js';

type Fields = Record<string, unknown>;
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const SIDE: Record<string, string> = { B: 'buy', S: 'sell' };
const ALERT: Record<string, string> = {
  LTP_A_O: 'the price rises above',
  LTP_B_O: 'the price falls below',
};
/** The 52-week types fire on a new high (low) of the broker's own range, which may ignore `d` (broker-wire.md). */
const WEEK52: Record<string, string> = {
  LTP_A_52HIGH: 'the price makes a new 52-week high',
  LTP_B_52LOW: 'the price makes a new 52-week low',
};
/** What fires the order, in a trader's words: `the price falls below`, `the open interest rises to`. */
const when = (alertType: unknown): string => {
  const type = str(alertType);
  if (ALERT[type]) return ALERT[type];
  if (!type) return 'the price reaches';
  const what = type.startsWith('CH_PER_') ? 'change from the close (in %)' : watchedName(type);
  return `the ${what} ${/_A_/.test(type) ? 'rises to' : 'falls to'}`;
};

/** `the price falls below 1490`; a 52-week type says its level may be the broker's own. */
const whenAt = (alertType: unknown, d: unknown): string => {
  const week52 = WEEK52[str(alertType)];
  return week52
    ? `${week52} (the broker's own range; the level sent, ${str(d)}, may be ignored)`
    : `${when(alertType)} ${str(d)}`;
};

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

/** A changed order as it will be after the change (an OCO's legs, or the single order and its trigger). */
const after = (current: GttOrder | undefined, b: Fields): string => {
  if (!current) return '';
  const o = changedOrder(current, b);
  const what =
    o.target !== undefined || o.stopLoss !== undefined
      ? `${leg('target', o.target)}; ${leg('stop-loss', o.stopLoss)}`
      : `when ${whenAt(o.ai_t, o.d)}, ${order(o)}`;
  return ` After it, on ${instrument(o)}: ${what} (only if the order is still as read now).`;
};

const PRODUCT_NAMES: Record<string, string> = { C: 'CNC', M: 'NRML', H: 'cover' };
/** An option plan's product (the gateway's default M) and its entry's cap: `Product M (NRML); the entry ...`. */
const optionTerms = (b: Fields): string => {
  const prd = str(b.prd) || 'M';
  const cap =
    typeof b.maxValue === 'number'
      ? `; the entry at most ${rupees(b.maxValue)} in value (quantity × limit) when it crosses, else nothing is sent`
      : '';
  return `Product ${prd} (${PRODUCT_NAMES[prd] ?? prd})${cap}.`;
};

/** An option entry's value now (its dry run's quantity × limit) beside the cap the plan holds when it crosses. */
const capLine = (b: Fields, dryRun?: Record<string, unknown>): string[] => {
  const value = dryRun?.value;
  if (typeof value !== 'number') return [];
  const cap = typeof b.maxValue === 'number' ? b.maxValue : undefined;
  return [
    `the entry's value now: ${rupees(value)}${cap === undefined ? '' : `; at most ${rupees(cap)} when the index crosses (maxValue: above it nothing is sent)`}`,
  ];
};

/**
 * One line a person can read: what the request does, in a trader's words. `current`: the pending order a change
 * applies to, read for its preview: the order after the change is said too. `dryRun`: the gateway's, where it says
 * more (an option plan's contract now).
 */
export const summarize = (request: GatewayRequest, current?: GttOrder, dryRun?: unknown): string => {
  const b = request.body ?? {};
  const id = request.path?.alId ?? request.path?.planId ?? '';
  switch (request.operation) {
    case 'PlaceGTTOrder':
      return `Place a GTT on ${instrument(b)}: when ${whenAt(b.ai_t, b.d)}, ${order(b)}.`;
    case 'ModifyGTTOrder':
      return `Replace GTT ${id} on ${instrument(b)}: when ${whenAt(b.ai_t, b.d)}, ${order(b)}.`;
    case 'PatchGTTOrder':
      return `Change GTT ${id}: ${changes(b)}; the rest stays as the broker holds it.${after(current, b)}`;
    case 'PlaceOCOOrder':
      return `Place an OCO on ${instrument(b)}: ${leg('target', b.target)}; ${leg('stop-loss', b.stopLoss)}.`;
    case 'ModifyOCOOrder':
      return `Replace OCO ${id} on ${instrument(b)}: ${leg('target', b.target)}; ${leg('stop-loss', b.stopLoss)}.`;
    case 'PatchOCOOrder':
      return `Change OCO ${id}: ${changes(b)}; the rest stays as the broker holds it.${after(current, b)}`;
    case 'CancelGTTOrder':
      return `Cancel GTT/OCO ${id}.`;
    case 'CreatePlan':
      if (b.kind === 'option-entry')
        return `${optionPlanSentence(b as unknown as OptionWordsInput, resolvedOfDryRun(dryRun))} ${optionTerms(b)}`;
      if (b.kind === 'option-legs')
        return `${
          legsPlanSentence(dryRun, (b.exit ?? {}) as { stop: string; target: string }) ??
          `Start a legs plan: ${JSON.stringify(b.legs)} entered together, exit ${JSON.stringify(b.exit)}.`
        } ${optionTerms(b)}`;
      return b.kind === 'bracket'
        ? `Start a bracket plan: entry ${instrument((b.entry ?? {}) as Fields)} ${order((b.entry ?? {}) as Fields)} when ${whenAt((b.entry as Fields | undefined)?.ai_t, (b.entry as Fields | undefined)?.d)}; target ${JSON.stringify(b.target)}, stop-loss ${JSON.stringify(b.stopLoss)}.`
        : `Start a trailing-stop plan on ${instrument((b.order ?? {}) as Fields)}: ${order((b.order ?? {}) as Fields)}, trailing by ${str(b.trailBy)}.`;
    case 'CancelPlan':
      return `Cancel plan ${id} (its live GTT is cancelled, the plan ends).`;
    case 'ReleaseKillSwitch':
      return 'Turn the kill switch OFF: places and modifies are accepted again.';
    default:
      return `${request.operation} ${JSON.stringify({ ...request.path, ...b })}.`;
  }
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
  /** The kill switch is on: the confirm would be refused (TRADING_HALTED), and how to turn it off. */
  killSwitch?: string;
  /** The symbol's last price, each trigger's distance from it and the tag (absent for a write naming no symbol). */
  market?: MarketView;
}

/** The operations the kill switch refuses (the operation table's `refusedWhileHalted`): places and modifies. */
export const REFUSED_WHILE_HALTED: readonly string[] = [
  'PlaceGTTOrder',
  'PlaceOCOOrder',
  'ModifyGTTOrder',
  'ModifyOCOOrder',
  'PatchGTTOrder',
  'PatchOCOOrder',
];

/**
 * The kill switch's state for a preview of an operation it refuses: the rule checked, and while it is on, what the
 * confirm would meet and the way out. A read that fails is said, never taken for "off".
 */
const killSwitchOf = async (port: GatewayPort, request: GatewayRequest): Promise<{ rule?: string; note?: string }> => {
  if (!REFUSED_WHILE_HALTED.includes(request.operation)) return {};
  let state: { halted?: unknown; mode?: unknown; changedAt?: unknown };
  try {
    state = (await port.call({ operation: 'GetKillSwitch' })) as typeof state;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { rule: `kill switch: not read (${typeof code === 'string' ? code : 'error'}); confirm checks it again` };
  }
  if (state.halted !== true) return { rule: 'kill switch: off' };
  const since = typeof state.changedAt === 'string' ? ` since ${state.changedAt}` : '';
  return {
    rule: `kill switch: ON (${str(state.mode) || 'cancel-all'}${since})`,
    note: `The kill switch is ON${since}: confirm will be refused with TRADING_HALTED (423) and nothing sent. To go ahead, the person turns it off first (kill_switch_off, then confirm that; or \`npm run gtt -- kill-switch off\`), then confirms this preview before it expires.`,
  };
};

/**
 * A cancel's order, read at the broker now, or why there is nothing to cancel (`ORDER_NOT_FOUND`: cancelled, fired or
 * never placed). Any other failure of the read is the preview's.
 */
const cancelled = async (port: GatewayPort, request: GatewayRequest): Promise<{ gone?: string; order?: GttOrder }> => {
  const alId = request.path?.alId;
  if (request.operation !== 'CancelGTTOrder' || alId === undefined) return {};
  try {
    return {
      order: (await port.call({ operation: 'GetGTTOrder', path: { alId }, query: { fresh: true } })) as GttOrder,
    };
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ORDER_NOT_FOUND') throw error;
    return {
      gone: `GTT/OCO ${alId} is not pending at the broker (already cancelled, fired, or never placed): there is nothing to cancel, and nothing was sent. pending_gtts lists the pending orders; triggered_gtts those that fired today.`,
    };
  }
};

/**
 * Builds the preview of `asked`, asking the gateway for a dry run where the operation has one. A change (PATCH) reads
 * the pending order first: its limits are checked on the order after the change, and the request previewed (and
 * confirmed) is bound to the version read (`If-Match`), so the order checked is the order that results.
 * `exitOnly`: the assistant's scope is `exit`: the write is held to the exit-only rule too (exit-only.ts).
 */
export const buildPreview = async (
  port: GatewayPort,
  asked: GatewayRequest,
  hasDryRun: boolean,
  limits?: AssistantLimits,
  ordersToday = 0,
  exitOnly = false,
): Promise<Preview | { refused: string; rulesChecked: string[] }> => {
  const bound = await boundToCurrent(port, asked);
  const { current } = bound;
  // An option entry carries the assistant's maxValuePerOrder as its maxValue, so its dry run (and the plan) holds it.
  const request = withValueCap(bound.request, limits);
  const { gone, order: cancelling } = await cancelled(port, request);
  if (gone) return { refused: gone, rulesChecked: ['the order is pending at the broker (read now): it is not'] };
  // An option plan opens a position (never exit-only), and its contract is known only from its dry run: the limits
  // check the contract it would pick now (a legs plan's: each leg's entry order).
  const legsPlan = request.operation === 'CreatePlan' && request.body?.kind === 'option-legs';
  const option = legsPlan || (request.operation === 'CreatePlan' && request.body?.kind === 'option-entry');
  if (option && exitOnly) {
    const exit = await exitOnlyCheck(port, request);
    if (exit.refused) return { refused: exit.refused, rulesChecked: exit.checked };
  }
  let dryRun = option ? ((await port.call(request, { dryRun: true })) as Record<string, unknown>) : undefined;
  const picked = legsPlan ? (legsOfDryRun(dryRun) ?? null) : option ? (resolvedOfDryRun(dryRun) ?? null) : undefined;
  const { checked, refused } = checkLimits(request, limits, ordersToday, current, picked);
  if (refused) return { refused, rulesChecked: checked };
  const rulesChecked = [...checked];
  if (Array.isArray(picked))
    rulesChecked.push(
      ...picked.map((l) => `the entry of ${l.exch}:${l.tsym} now: ${order(l as unknown as Fields)}, placed together`),
    );
  else if (picked)
    rulesChecked.push(
      `the contract it picks now: ${picked.tsym} (strike ${picked.strike}, expiry ${picked.expiry}, lot ${picked.lot}, ${picked.qty} in all), at ${str(request.body?.underlying)} ${picked.price}; chosen again when the index crosses`,
      ...capLine(request.body ?? {}, dryRun),
    );
  if (exitOnly) {
    const exit = await exitOnlyCheck(port, request, current);
    if (exit.refused) return { refused: exit.refused, rulesChecked: [...rulesChecked, ...exit.checked] };
    rulesChecked.push(...exit.checked);
  }
  if (request.operation === 'CancelGTTOrder') rulesChecked.push('the order is pending at the broker (read now)');
  // POST /plans offers its dry run to option plans only (a bracket's entry is a POST /gtt-orders body).
  if (hasDryRun && !dryRun && request.operation !== 'CreatePlan') {
    dryRun = (await port.call(request, { dryRun: true })) as Record<string, unknown>;
    const rules = dryRun.exchangeRules as Record<string, unknown> | undefined;
    if (rules)
      rulesChecked.push(
        `exchange rules of ${str(rules.instrument)}: tick ${str(rules.tick)}, lot ${str(rules.lot)}, band ${JSON.stringify(rules.band)}, freeze ${JSON.stringify(rules.freeze)}`,
      );
    rulesChecked.push("the gateway's validation and guardrails (dry run passed)");
  }
  const conversion = conversionOf(request, dryRun);
  const [halt, market] = await Promise.all([
    killSwitchOf(port, request),
    marketOf(port, request, current ?? cancelling),
  ]);
  if (halt.rule) rulesChecked.push(halt.rule);
  const settings = await settingsPreview(port, request);
  if (settings) rulesChecked.push(settings.rule);
  if (option) rulesChecked.push("the gateway's validation of the plan (dry run passed)");
  const summary = settings?.summary ?? closeSummary(dryRun) ?? summarize(request, current, dryRun);
  return {
    summary: market ? `${summary} ${marketLine(market)}` : summary,
    request,
    ...(dryRun ? { dryRun } : {}),
    rulesChecked,
    ...(conversion ? { conversion } : {}),
    ...(halt.note ? { killSwitch: halt.note } : {}),
    ...(market ? { market } : {}),
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
