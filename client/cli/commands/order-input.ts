/**
 * The flags of one order and of one OCO: as the table shows them, and read into the API's order input. Numbers are
 * checked as the gateway checks them (flags.ts); the exchange, side, price type, retention and alert are read as
 * traders type them (trader-values.ts) and sent as the API's canonical values; the rest is passed as typed and
 * validated by the gateway (VALIDATION_FAILED names the field, shown as its flag).
 */
import type { GttOrderChanges, GttOrderInput, OcoOrderChanges, OcoOrderInput } from '../../types.js';
import { type FlagSpec, may, needs } from '../command.js';
import type { Flags } from '../flags.js';
import {
  ALERT_VALUES,
  canonicalValue,
  defaultAlert,
  EXCHANGE_VALUES,
  PRICE_TYPE_VALUES,
  RETENTION_VALUES,
  SIDE_VALUES,
  type ValueTable,
} from '../trader-values.js';

/** place and modify. */
export const ORDER_FLAGS: readonly FlagSpec[] = [
  needs('exch', 'NSE'),
  needs('tsym', "'M&M-EQ'"),
  needs('qty', '1'),
  may('price', '1500'),
  needs('product', 'C'),
  needs('side', 'B'),
  // Needed unless --price is given (then LMT, said in the output): a market order names MKT or SL-MKT.
  needs('price-type', 'LMT'),
  may('retention', 'DAY'),
  may('alert', 'LTP_B_O'),
  needs('trigger', '1490'),
  may('tag', 'T'),
  may('validity', 'GTT'),
  may('key', 'K'),
];

/** modify: any of place's flags; all of them is a full replacement (PUT), fewer a change of those alone (PATCH). */
export const MODIFY_FLAGS: readonly FlagSpec[] = ORDER_FLAGS.map((flag) => ({ ...flag, optional: true }));

/** The flag of each field a partial modify may change. */
const CHANGE_FLAGS = {
  qty: 'qty',
  prc: 'price',
  prd: 'product',
  trantype: 'side',
  prctyp: 'price-type',
  ret: 'retention',
  ai_t: 'alert',
  d: 'trigger',
  validity: 'validity',
  tag: 'tag',
} as const;

/** The flags of a partial modify read as traders type them, each with its table of values. */
const VALUE_TABLES: Readonly<Record<string, ValueTable>> = {
  side: SIDE_VALUES,
  'price-type': PRICE_TYPE_VALUES,
  retention: RETENTION_VALUES,
  alert: ALERT_VALUES,
};

/** What `modify` sends: the whole order when every place flag is given, else only the fields of the flags given. */
export type ModifyInput =
  { full: GttOrderInput; defaults: string[]; alertLeftOut: boolean } | { changes: GttOrderChanges };

export const modifyFromFlags = (f: Flags): ModifyInput => {
  const given = (name: string) => f.str(name) !== undefined;
  const type = f.str('price-type');
  const market = type !== undefined && MARKET.includes(canonicalType(type));
  // A full replacement names its price type: a modify never turns an order's price type into LMT by default.
  const full =
    given('price-type') &&
    ORDER_FLAGS.every((flag) => flag.optional || given(flag.name) || (flag.name === 'price' && market));
  if (full) {
    const { order, defaults, alertLeftOut } = orderFromFlags(f);
    return { full: order, defaults, alertLeftOut };
  }
  if (given('exch') || given('tsym'))
    f.problem("--exch and --tsym are the order's own: give every place flag to replace it, or leave them out");
  const changes: Record<string, string> = {};
  for (const [field, flag] of Object.entries(CHANGE_FLAGS)) {
    if (!given(flag)) continue;
    const table = VALUE_TABLES[flag];
    changes[field] =
      flag === 'qty'
        ? f.quantity(flag)
        : ['price', 'trigger'].includes(flag)
          ? f.decimal(flag)!
          : table
            ? f.choice(flag, table)
            : f.str(flag)!;
  }
  if (Object.keys(changes).length === 0)
    f.standalone(
      'modify needs what to change: one flag or more (a trigger, a price, a quantity, ...), or every flag of place',
    );
  return { changes: changes as GttOrderChanges };
};

/** place-oco and modify-oco: one side, quantity and product, a target leg and a stop-loss leg. */
export const OCO_FLAGS: readonly FlagSpec[] = [
  needs('exch', 'NSE'),
  needs('tsym', "'M&M-EQ'"),
  needs('side', 'S'),
  needs('qty', '1'),
  needs('product', 'C'),
  may('retention', 'DAY'),
  needs('target-trigger', '1600'),
  may('target-price', '1600'),
  may('target-price-type', 'LMT'),
  needs('stop-trigger', '1400'),
  may('stop-price', '1400'),
  may('stop-price-type', 'LMT'),
  may('stop-trigger-price', 'P'),
  may('ltp', '1500'),
  may('tag', 'T'),
  may('validity', 'GTT'),
  may('key', 'K'),
];

const MARKET = ['MKT', 'SL-MKT'];
const canonicalType = (typed: string): string => canonicalValue(PRICE_TYPE_VALUES, typed) ?? typed;

/** The retention a GTT's order gets when --retention is left out. */
export const DEFAULT_RETENTION = 'DAY';

/**
 * The single order of --exch ... --trigger; --price only for limit orders (a market order goes without).
 * `defaults`: what the command chose for flags left out (--retention, --alert), said in its output.
 */
export const orderFromFlags = (f: Flags): { order: GttOrderInput; defaults: string[]; alertLeftOut: boolean } => {
  const exch = f.choice('exch', EXCHANGE_VALUES);
  const tsym = f.need('tsym');
  const qty = f.quantity('qty');
  const prd = f.product('product');
  const trantype = f.choice('side', SIDE_VALUES);
  // --price alone is a limit order (LMT); without --price the price type must be said (MKT, SL-MKT: no price).
  const priced = f.str('price') !== undefined;
  const prctyp = f.choice('price-type', PRICE_TYPE_VALUES, priced ? 'LMT' : undefined);
  const prc = f.decimal('price', prctyp !== '' && !MARKET.includes(prctyp));
  const ret = f.choice('retention', RETENTION_VALUES, DEFAULT_RETENTION);
  const ai_t = f.choice('alert', ALERT_VALUES, defaultAlert(trantype));
  // A percentage change may be negative (--trigger=-2.5): the gateway judges the trigger per alert type.
  const d = ai_t.startsWith('CH_PER_') ? f.need('trigger') : f.decimal('trigger');
  const defaults = [
    ...(priced && f.str('price-type') === undefined ? ['price type LMT (a limit order at --price)'] : []),
    ...(f.str('retention') === undefined
      ? [`retention ${ret} (the default: the order the GTT places is good for its day)`]
      : []),
  ];
  const order = {
    exch,
    tsym,
    qty,
    ...(prc === undefined ? {} : { prc }),
    prd,
    trantype,
    prctyp,
    ret,
    ai_t,
    d,
    ...(f.str('validity') === undefined ? {} : { validity: f.str('validity') }),
    ...(f.str('tag') === undefined ? {} : { tag: f.str('tag') }),
  } as GttOrderInput;
  // Left out, the alert is fitted to the trigger against the last price when the command runs (alert-default.ts).
  return { order, defaults, alertLeftOut: f.str('alert') === undefined };
};

/** The OCO of --exch ... --stop-trigger: each leg an order of the one side, quantity and product. */
export const ocoFromFlags = (f: Flags): OcoOrderInput => {
  const exch = f.choice('exch', EXCHANGE_VALUES);
  const tsym = f.need('tsym');
  const side = f.choice('side', SIDE_VALUES);
  const ret = f.choice('retention', RETENTION_VALUES, DEFAULT_RETENTION);
  const qty = f.quantity('qty');
  const product = f.product('product');
  const leg = (prefix: 'target' | 'stop') => {
    const trigger = f.decimal(`${prefix}-trigger`);
    const price = f.decimal(`${prefix}-price`, false);
    const triggerPrice = prefix === 'stop' ? f.decimal('stop-trigger-price', false) : undefined;
    return {
      trigger,
      order: {
        trantype: side,
        prctyp: f.choice(`${prefix}-price-type`, PRICE_TYPE_VALUES, 'LMT'),
        qty,
        prd: product,
        ret,
        ...(price === undefined ? {} : { prc: price }),
        ...(triggerPrice === undefined ? {} : { trgprc: triggerPrice }),
      },
    };
  };
  const ltp = f.decimal('ltp', false);
  return {
    exch,
    tsym,
    ...(f.str('validity') === undefined ? {} : { validity: f.str('validity') }),
    ...(f.str('tag') === undefined ? {} : { tag: f.str('tag') }),
    ...(ltp === undefined ? {} : { ltp }),
    target: leg('target'),
    stopLoss: leg('stop'),
  } as OcoOrderInput;
};

/** What `modify-oco` sends: the whole OCO when every place-oco flag it needs is given, else only what changes. */
export type ModifyOcoInput = { full: OcoOrderInput } | { changes: OcoOrderChanges };

/** The field of an OCO leg's order each flag changes: `--side`, `--qty`, `--product`, `--retention` change both legs. */
const BOTH_LEGS = { side: 'trantype', qty: 'qty', product: 'prd', retention: 'ret' } as const;
const ONE_LEG = { 'price-type': 'prctyp', price: 'prc', 'trigger-price': 'trgprc' } as const;

/**
 * `modify-oco 1 --stop-trigger 1410`: only the flags given (PATCH, the rest as the broker holds it), or every flag
 * place-oco needs for a full replacement of both legs (PUT).
 */
export const modifyOcoFromFlags = (f: Flags): ModifyOcoInput => {
  const given = (name: string) => f.str(name) !== undefined;
  if (OCO_FLAGS.every((flag) => flag.optional || given(flag.name))) return { full: ocoFromFlags(f) };
  if (given('exch') || given('tsym'))
    f.problem("--exch and --tsym are the OCO's own: give every place-oco flag to replace it, or leave them out");
  const both: Record<string, string> = {};
  for (const [flag, field] of Object.entries(BOTH_LEGS)) {
    if (!given(flag)) continue;
    both[field] =
      flag === 'qty'
        ? f.quantity(flag)
        : flag === 'product'
          ? f.product(flag)
          : f.choice(flag, flag === 'side' ? SIDE_VALUES : RETENTION_VALUES);
  }
  const leg = (prefix: 'target' | 'stop') => {
    const order: Record<string, string> = { ...both };
    for (const [suffix, field] of Object.entries(ONE_LEG)) {
      const flag = `${prefix}-${suffix}`;
      if (!given(flag)) continue;
      order[field] = suffix === 'price-type' ? f.choice(flag, PRICE_TYPE_VALUES) : f.decimal(flag)!;
    }
    const trigger = given(`${prefix}-trigger`) ? f.decimal(`${prefix}-trigger`) : undefined;
    const changed = {
      ...(trigger === undefined ? {} : { trigger }),
      ...(Object.keys(order).length ? { order } : {}),
    };
    return Object.keys(changed).length ? changed : undefined;
  };
  const target = leg('target');
  const stopLoss = leg('stop');
  const ltp = given('ltp') ? f.decimal('ltp') : undefined;
  const changes = {
    ...(target ? { target } : {}),
    ...(stopLoss ? { stopLoss } : {}),
    ...(ltp === undefined ? {} : { ltp }),
    ...(given('tag') ? { tag: f.str('tag') } : {}),
    ...(given('validity') ? { validity: f.str('validity') } : {}),
  };
  if (!target && !stopLoss && !given('tag') && !given('validity'))
    f.standalone(
      "modify-oco needs what to change: one flag or more (a leg's trigger or price, the quantity, ...), or every flag of place-oco",
    );
  return { changes: changes as OcoOrderChanges };
};
