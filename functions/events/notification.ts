/**
 * The human message of a lifecycle event (docs/reference/events.md, "Forwarding to a webhook"), one builder for both places a
 * message is made: the deployed NotifyFormatter function (handlers/notify-formatter.ts) and the local forwarder of
 * `npm start` (local/eventbridge.ts), so what `npm start` POSTs in the telegram format is what the stack POSTs.
 *
 * The text comes from what each detail-type's event really holds (base/schemas/events.ts): side (Buy/Sell), quantity,
 * price, the trigger of a single GTT or the fired leg and its trigger of an OCO, the tag, and for a fired GTT the
 * order's status, fill and rejection code and hint. A detail that does not match its schema still gets a line (the
 * detail-type and al_id), never an error: a notification must not be lost to a new field.
 *
 * Also here: which detail-types reach the webhook (`notifyOn`), checked the same way by the CDK app and npm start.
 */
import {
  DETAIL_SCHEMAS,
  DETAIL_TYPES,
  type DetailType,
  type EventDetail,
  type EventLeg,
  type FiredOrder,
} from '../base/schemas/events.js';

/** The formatter's own events on the gateway bus (source and detail-type), whose detail is the webhook's body. */
export const NOTIFICATION_SOURCE = 'gtt-gateway.notification';
export const NOTIFICATION_DETAIL_TYPE = 'Notification';

/** `raw`: the EventBridge envelope unchanged; `slack`: `{text}`; `telegram`: `{chat_id, text}`. */
export const NOTIFY_FORMATS = ['raw', 'slack', 'telegram'] as const;
export type NotifyFormat = (typeof NOTIFY_FORMATS)[number];

/** The default of `notifyOn`: an order fired, what became of it, and what needs a human now. */
export const DEFAULT_NOTIFY_ON: readonly DetailType[] = [
  'GTT Triggered',
  'Order Filled',
  'Order Rejected',
  'Order Cancelled',
  'GTT Removed',
  'Session Expired',
  'Kill Switch',
  'Risk Limit Hit',
  'Plan Unprotected',
  'Signal Refused',
  'Position Unprotected',
];

/**
 * `notifyOn` as given (a comma-separated list, or an array; `all` for every detail-type), checked: a name that is
 * no detail-type fails with one line listing them. Absent or empty: the default.
 */
export const resolveNotifyOn = (value: unknown, setting = 'notifyOn'): DetailType[] => {
  if (value === undefined || value === null) return [...DEFAULT_NOTIFY_ON];
  const names = (Array.isArray(value) ? value.map(String) : String(value).split(','))
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) return [...DEFAULT_NOTIFY_ON];
  if (names.length === 1 && names[0]!.toLowerCase() === 'all') return [...DETAIL_TYPES];
  const unknown = names.filter((name) => !(DETAIL_TYPES as readonly string[]).includes(name));
  if (unknown.length) {
    throw new Error(
      `${setting} names no detail-type ${unknown.map((n) => JSON.stringify(n)).join(', ')}: use a comma-separated list of ${DETAIL_TYPES.join(', ')} (or all)`,
    );
  }
  return [...new Set(names as DetailType[])];
};

const sideWord = (side: string | undefined): string => (side === 'B' ? 'Buy' : side === 'S' ? 'Sell' : (side ?? ''));

/** `@ 1500 LMT`, `at market`, `@ 1395 SL-LMT (trigger price 1400)`. */
const priceWords = (price: string | undefined, priceType: string | undefined, triggerPrice?: string): string => {
  if (priceType === 'MKT') return 'at market';
  if (priceType === 'SL-MKT') return `at market (stop-loss order, trigger price ${triggerPrice ?? '?'})`;
  const base = price === undefined ? '' : `@ ${price}${priceType ? ` ${priceType}` : ''}`;
  return triggerPrice ? `${base} (trigger price ${triggerPrice})` : base;
};

const join = (...parts: (string | undefined | false)[]): string =>
  parts.filter((p): p is string => Boolean(p)).join(' ');
const symbol = (d: { exch?: string | undefined; tsym?: string | undefined }) =>
  d.exch && d.tsym ? `${d.exch}:${d.tsym}` : d.tsym;
const legName = (leg: 'target' | 'stopLoss') => (leg === 'target' ? 'target' : 'stop-loss');
/** What a single GTT's alert watches (docs/explanation/broker-wire.md, "Alert types"), for "when LTP above 1510". */
const WATCHED: Readonly<Record<string, string>> = {
  LTP: 'LTP',
  CH_PER: '% change',
  ATP: 'ATP',
  OI: 'OI',
  TOI: 'total OI',
  VOLUME: 'volume',
};
const alertWords = (alertType: string | undefined) => {
  const match = alertType === undefined ? null : /^([A-Z]+(?:_PER)?)_([AB])_/.exec(alertType);
  const watched = match ? WATCHED[match[1]!] : undefined;
  return watched ? `${watched} ${match![2] === 'A' ? 'above' : 'below'}` : 'trigger';
};
const tagWords = (tag: string | undefined) => (tag ? `tag ${tag}` : undefined);

const legLine = (name: string, leg: EventLeg, tsym: string | undefined) =>
  join(
    `${name}:`,
    sideWord(leg.side),
    String(leg.quantity),
    tsym,
    priceWords(leg.price, leg.priceType, leg.triggerPrice),
    `at LTP ${leg.trigger}`,
  );

type OrderDetail = EventDetail<'GTT Placed'>;

/** A GTT as it stands: `Buy 1 NSE:M&M-EQ @ 1500 LMT when LTP below 1490` or the two legs of an OCO. */
const orderWords = (d: Partial<OrderDetail>): string[] => {
  const tsym = symbol(d);
  if (d.type === 'oco' || d.target || d.stopLoss) {
    return [
      `OCO ${tsym ?? ''}`.trim(),
      ...(d.target ? [legLine('target', d.target, undefined)] : []),
      ...(d.stopLoss ? [legLine('stop-loss', d.stopLoss, undefined)] : []),
    ];
  }
  return [
    join(
      sideWord(d.side),
      d.quantity === undefined ? undefined : String(d.quantity),
      tsym,
      priceWords(d.price, d.priceType),
      d.trigger === undefined ? undefined : `when ${alertWords(d.alertType)} ${d.trigger}`,
    ),
  ].filter(Boolean);
};

/** What the fired order became: `order 24112300000123 filled 1 @ 1500.00`, `... rejected: RMS_MARGIN (add funds)`. */
const firedOrderWords = (order: FiredOrder, quantity: number | undefined): string => {
  const of = quantity === undefined ? '' : ` of ${quantity}`;
  const fill = order.averagePrice && order.filledQty > 0 ? ` @ ${order.averagePrice}` : '';
  switch (order.status) {
    case 'filled':
      return `order ${order.norenordno} filled ${order.filledQty}${fill}`;
    case 'partially-filled':
      return `order ${order.norenordno} partially filled ${order.filledQty}${of}${fill}`;
    case 'open':
      return `order ${order.norenordno} open, filled ${order.filledQty}${of}`;
    case 'rejected':
      return join(
        `order ${order.norenordno} rejected`,
        order.rejection ? `${order.rejection.code}: ${order.rejection.hint}` : undefined,
      );
    case 'cancelled':
      return `order ${order.norenordno} cancelled, filled ${order.filledQty}${of}${fill}`;
  }
};

const tail = (d: { al_id?: string; tag?: string | undefined; origin?: string }) =>
  [d.al_id ? `al_id ${d.al_id}` : undefined, tagWords(d.tag), d.origin ? `(${d.origin})` : undefined]
    .filter(Boolean)
    .join(' · ');

const lines = (head: string, ...rest: (string | undefined | false)[]): string =>
  [head, ...rest.filter((l): l is string => Boolean(l))].join('\n');

const signalHead = (d: EventDetail<'Signal Received'>): string =>
  join(
    d.strategyName ?? d.strategyId,
    `(${d.source}${d.mode === 'paper' ? ', paper' : ''})`,
    d.tickers?.length ? d.tickers.join(', ') : undefined,
    `signal ${d.signalId}`,
  );

const texts: { [T in DetailType]: (d: EventDetail<T>) => string } = {
  'GTT Placed': (d) => lines(`GTT Placed: ${orderWords(d).join('\n')}`, tail(d)),
  'GTT Modified': (d) => lines(`GTT Modified: ${orderWords(d).join('\n')}`, tail(d)),
  'GTT Cancelled': (d) => {
    const what = orderWords(d).join('\n');
    return lines(`GTT Cancelled${what ? `: ${what}` : ''}`, d.status && `status ${d.status}`, tail(d));
  },
  'GTT Triggered': (d) => {
    let what: string;
    if (d.firedLeg && (d.target || d.stopLoss)) {
      const leg = d.firedLeg === 'target' ? d.target : d.stopLoss;
      what = leg
        ? join(
            `${legName(d.firedLeg)} leg fired at LTP ${leg.trigger}:`,
            sideWord(leg.side),
            String(leg.quantity),
            symbol(d),
            priceWords(leg.price, leg.priceType, leg.triggerPrice),
          )
        : `${legName(d.firedLeg)} leg fired: ${symbol(d) ?? ''}`;
    } else {
      what = join(
        sideWord(d.side),
        d.quantity === undefined ? undefined : String(d.quantity),
        symbol(d),
        priceWords(d.price, d.priceType),
        d.trigger && `fired at ${d.trigger}`,
      );
    }
    const firedQty = d.firedLeg ? (d.firedLeg === 'target' ? d.target : d.stopLoss)?.quantity : d.quantity;
    return lines(
      `GTT Triggered: ${what}`,
      `status ${d.status}${d.order ? `, ${firedOrderWords(d.order, firedQty)}` : ''}`,
      tail(d),
    );
  },
  'GTT Removed': (d) =>
    lines(
      `GTT Removed: ${orderWords(d).join('\n')}`,
      d.status ? `status ${d.status}` : 'no longer pending at the broker',
      tail(d),
    ),
  'Session Expired': (d) =>
    lines(
      `Session Expired: ${d.code}, ${d.reason}`,
      'log in again: orders cannot be placed or watched until then',
      `(${d.origin})`,
    ),
  'Session Renewed': (d) => `Session Renewed (${d.method}, ${d.origin})`,
  'Risk Limit Hit': (d) =>
    lines(
      `Risk Limit Hit: ${d.limit === 'dayLossLimit' ? 'day loss limit' : 'day profit target'} ${d.threshold} crossed on ${d.day} (P&L ${d.pnl.total})`,
      `kill switch on (${d.mode})${d.squareOff ? ', open positions squared off' : ''}`,
    ),
  'Kill Switch': (d) =>
    d.halted
      ? lines(
          `Kill Switch ON${d.changedBy ? ` by ${d.changedBy}` : ''}: places and modifies refused`,
          d.cancelled !== undefined || d.failed !== undefined
            ? `${d.cancelled ?? 0} pending order(s) cancelled, ${d.failed ?? 0} still pending (cancel them by hand)`
            : undefined,
        )
      : `Kill Switch OFF${d.changedBy ? ` by ${d.changedBy}` : ''}: orders accepted again`,
  'Order Filled': (d) => fateText('Order Filled', d),
  'Order Rejected': (d) => fateText('Order Rejected', d),
  'Order Cancelled': (d) => fateText('Order Cancelled', d),
  'Plan Armed': (d) => planText('Plan Armed', d),
  'Plan Step': (d) =>
    planText(
      'Plan Step',
      d,
      d.step === 'stop-trailed'
        ? `stop moved ${d.oldTrigger ?? '?'} -> ${d.newTrigger ?? '?'}`
        : d.step === 'price-unavailable'
          ? // Its reason says it (`price unavailable: why; the stop stays at X`); an older event's began with a code.
            d.reason?.startsWith('price unavailable')
            ? d.reason
            : `the price could not be read: the stop is not trailing (${d.reason ?? 'broker unavailable'})`
          : 'exit OCO live',
    ),
  'Plan Done': (d) => planText('Plan Done', d),
  'Plan Failed': (d) => planText('Plan Failed', d, d.reason),
  'Signal Received': (d) => lines(`Signal Received: ${signalHead(d)}`),
  'Signal Acted': (d) =>
    lines(
      `Signal Acted: ${signalHead(d)}`,
      ...(d.results ?? []).map((r) =>
        join(
          r.tsym ?? r.ticker,
          r.alId && `al_id ${r.alId}`,
          r.planId && `plan ${r.planId}`,
          r.dryRun && '(paper)',
          r.detail,
        ),
      ),
    ),
  'Signal Refused': (d) => lines(`Signal Refused: ${signalHead(d)}`, d.reason, d.code && `code ${d.code}`),
  'Assistant Action': (d) =>
    lines(
      `Assistant Action: ${d.assistantName} (${d.assistantId}) ${d.tool}${d.operation ? ` ${d.operation}` : ''}: ${d.outcome}`,
      d.summary,
      join(d.alId && `al_id ${d.alId}`, d.planId && `plan ${d.planId}`),
      d.reason,
    ),
  'Plan Unprotected': (d) =>
    planText(
      'Plan Unprotected',
      d,
      join(
        d.position
          ? `OPEN POSITION: ${d.position.side === 'B' ? 'long' : 'short'} ${d.position.qty}, no live exit.`
          : undefined,
        d.reason,
      ),
    ),
  'Position Unprotected': (d) =>
    lines(
      `Position Unprotected: ${d.netQty > 0 ? 'long' : 'short'} ${Math.abs(d.netQty)} ${d.exch}:${d.tsym} (${d.product}) @ ${d.averagePrice}, ${d.status}: ${d.uncoveredQty} without a stop`,
      d.autoCover &&
        (d.autoCover.placed
          ? `autoCover: OCO ${d.autoCover.al_id ?? ''} target ${d.autoCover.target} stop ${d.autoCover.stopLoss} for ${d.autoCover.qty}${d.autoCover.replayed ? ' (placed earlier)' : ''}`
          : `autoCover refused: ${d.autoCover.code}: ${d.autoCover.reason}`),
      `(${d.origin})`,
    ),
};

const planText = (title: string, d: EventDetail<'Plan Armed'>, what?: string) =>
  lines(`${title}: ${d.kind} plan ${d.planId} on ${symbol(d) ?? d.tsym}, now ${d.state}`, what, tail(d));

const fateText = (title: string, d: EventDetail<'Order Filled'>) =>
  lines(
    `${title}: ${join(sideWord(d.side), String(d.quantity), symbol(d), d.firedLeg && `(${legName(d.firedLeg)} leg)`)}`,
    firedOrderWords(d.order, d.quantity),
    d.order.status === 'rejected' && d.order.rejection?.text ? `broker: ${d.order.rejection.text}` : undefined,
    tail(d),
  );

const isDetailType = (name: string): name is DetailType => (DETAIL_TYPES as readonly string[]).includes(name);

/** The message of one event: its detail-type and detail as EventBridge delivers them. */
export const notificationText = (event: { 'detail-type': string; detail: unknown }): string => {
  const detailType = event['detail-type'];
  if (isDetailType(detailType)) {
    const parsed = DETAIL_SCHEMAS[detailType].safeParse(event.detail);
    if (parsed.success) return (texts[detailType] as (d: unknown) => string)(parsed.data);
  }
  const d = (typeof event.detail === 'object' && event.detail !== null ? event.detail : {}) as Record<string, unknown>;
  return join(
    detailType,
    typeof d.al_id === 'string' ? `al_id ${d.al_id}` : undefined,
    typeof d.origin === 'string' ? `(${d.origin})` : undefined,
  );
};

/** The body the webhook gets for a format: the envelope itself (`raw`), or the message shaped for the chat service. */
export const notificationBody = (
  format: NotifyFormat,
  event: { 'detail-type': string; detail: unknown },
  telegramChatId?: string,
): unknown => {
  if (format === 'raw') return event;
  const text = notificationText(event);
  if (format === 'slack') return { text };
  if (telegramChatId === undefined) throw new Error('the telegram format needs a chat id');
  return { chat_id: telegramChatId, text };
};
