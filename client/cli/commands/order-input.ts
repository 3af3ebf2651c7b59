/**
 * The flags of one order and of one OCO: as the table shows them, and read into the API's order input. Numbers are
 * checked as the gateway checks them (flags.ts); the rest is passed as typed and validated by the gateway
 * (VALIDATION_FAILED names the field, shown as its flag).
 */
import type { GttOrderChanges, GttOrderInput, OcoOrderInput } from '../../types.js';
import { type FlagSpec, may, needs } from '../command.js';
import type { Flags } from '../flags.js';

/** place and modify. */
export const ORDER_FLAGS: readonly FlagSpec[] = [
  needs('exch', 'NSE'),
  needs('tsym', "'M&M-EQ'"),
  needs('qty', '1'),
  may('price', '1500'),
  needs('product', 'C'),
  needs('side', 'B'),
  needs('price-type', 'LMT'),
  needs('retention', 'DAY'),
  needs('alert', 'LTP_B_O'),
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

/** What `modify` sends: the whole order when every place flag is given, else only the fields of the flags given. */
export type ModifyInput = { full: GttOrderInput } | { changes: GttOrderChanges };

export const modifyFromFlags = (f: Flags): ModifyInput => {
  const given = (name: string) => f.str(name) !== undefined;
  const type = f.str('price-type');
  const full = ORDER_FLAGS.every(
    (flag) =>
      flag.optional || given(flag.name) || (flag.name === 'price' && type !== undefined && MARKET.includes(type)),
  );
  if (full) return { full: orderFromFlags(f) };
  if (given('exch') || given('tsym'))
    f.problem("--exch and --tsym are the order's own: give every place flag to replace it, or leave them out");
  const changes: Record<string, string> = {};
  for (const [field, flag] of Object.entries(CHANGE_FLAGS)) {
    if (!given(flag)) continue;
    changes[field] =
      flag === 'qty' ? f.quantity(flag) : ['price', 'trigger'].includes(flag) ? f.decimal(flag)! : f.str(flag)!;
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

/** The single order of --exch ... --trigger; --price only for limit orders (a market order goes without). */
export const orderFromFlags = (f: Flags): GttOrderInput => {
  const exch = f.need('exch');
  const tsym = f.need('tsym');
  const qty = f.quantity('qty');
  // Needed by a limit order (a missing --price-type is named on its own).
  const type = f.str('price-type');
  const prc = f.decimal('price', type !== undefined && type !== '' && !MARKET.includes(type));
  return {
    exch,
    tsym,
    qty,
    ...(prc === undefined ? {} : { prc }),
    prd: f.product('product'),
    trantype: f.need('side'),
    prctyp: f.need('price-type'),
    ret: f.need('retention'),
    ai_t: f.need('alert'),
    d: f.decimal('trigger'),
    ...(f.str('validity') === undefined ? {} : { validity: f.str('validity') }),
    ...(f.str('tag') === undefined ? {} : { tag: f.str('tag') }),
  } as GttOrderInput;
};

/** The OCO of --exch ... --stop-trigger: each leg an order of the one side, quantity and product. */
export const ocoFromFlags = (f: Flags): OcoOrderInput => {
  const exch = f.need('exch');
  const tsym = f.need('tsym');
  const side = f.need('side');
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
        prctyp: f.str(`${prefix}-price-type`) ?? 'LMT',
        qty,
        prd: product,
        ret: f.str('retention') ?? 'DAY',
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
