/**
 * A pending order as an assistant reads it (`pending_gtts`): the gateway's normalised record without the broker's own
 * bookkeeping (`stat`, `token`, `pp`, `ls`, `ti`, `brkname`, `actid`, `C`, `ordersource`, `oivariable`, the raw
 * `place_order_params`), in the fields the write tools take, so a record can be changed or cancelled as read: a single
 * GTT's order and its trigger `d`, or an OCO's `target` and `stopLoss` legs.
 */
type Fields = Record<string, unknown>;

const pick = (from: Fields | undefined, names: readonly string[]): Fields =>
  Object.fromEntries(names.filter((n) => from?.[n] !== undefined && from[n] !== '').map((n) => [n, from![n]]));

const ORDER = ['trantype', 'prctyp', 'qty', 'prc', 'prd', 'trgprc'] as const;

const leg = (value: unknown): Fields | undefined => {
  if (value === null || typeof value !== 'object') return undefined;
  const { trigger, order } = value as { trigger?: unknown; order?: Fields };
  return { trigger, order: pick(order, ORDER) };
};

/** One record of the gateway's pending list, as the tools take their fields. */
export const assistantOrder = (record: Fields): Fields => {
  const head = pick(record, ['al_id', 'type', 'exch', 'tsym']);
  const tail = pick(record, ['validity', 'tag']);
  if (record.type === 'oco') return { ...head, target: leg(record.target), stopLoss: leg(record.stopLoss), ...tail };
  return { ...head, ...pick(record, ['trantype', 'qty', 'prctyp', 'prc', 'prd', 'ai_t', 'd']), ...tail };
};

/** The pending list's page with each record as the tools take it; its paging fields as they were. */
export const assistantPendingPage = (page: unknown): unknown => {
  if (page === null || typeof page !== 'object' || !Array.isArray((page as Fields).orders)) return page;
  const { orders, ...rest } = page as { orders: Fields[] };
  return { orders: orders.map(assistantOrder), ...rest };
};
