/**
 * The flags of one order and of one OCO: as the table shows them, and read into the API's order input. Numbers are
 * checked as the gateway checks them (flags.ts); the rest is passed as typed and validated by the gateway
 * (VALIDATION_FAILED names the field, shown as its flag).
 */
import type { GttOrderInput, OcoOrderInput } from '../../types.js';
import { type FlagSpec, may, needs } from '../command.js';
import type { Flags } from '../flags.js';

/** place and modify. */
export const ORDER_FLAGS: readonly FlagSpec[] = [
  needs('exch', 'NSE'),
  needs('tsym', "'M&M-EQ'"),
  needs('qty', '1'),
  needs('price', '1500'),
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

/** The single order of --exch ... --trigger. */
export const orderFromFlags = (f: Flags): GttOrderInput =>
  ({
    exch: f.need('exch'),
    tsym: f.need('tsym'),
    qty: f.quantity('qty'),
    prc: f.decimal('price'),
    prd: f.product('product'),
    trantype: f.need('side'),
    prctyp: f.need('price-type'),
    ret: f.need('retention'),
    ai_t: f.need('alert'),
    d: f.decimal('trigger'),
    ...(f.str('validity') === undefined ? {} : { validity: f.str('validity') }),
    ...(f.str('tag') === undefined ? {} : { tag: f.str('tag') }),
  }) as GttOrderInput;

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
