/**
 * An OCO as the broker holds it against the OCO as it was sent (the trap of this family: a client whose x/y legs map
 * otherwise, so the stop-loss leg fires at entry; docs/explanation/order-safety.md, "An OCO read back"). The record
 * is the one-order read's (normalised by order-records.ts: `oivariable` x with `place_order_params` is the target,
 * y with `place_order_params_leg2` the stop-loss), read tolerantly: a field the record leaves out or empty is
 * `unchecked`, never a difference; numbers compare by value (`2600` is `2600.00`).
 *
 * Compared, per leg: the trigger, the side, the quantity and the price; and the alert type, which is the OCO's
 * (one `ai_t` for both legs on this family's wire).
 */
import type { LegDifference } from '../contract/operation.js';
import type { PlaceOcoInput } from '../schemas/input.js';
import type { GttOrder } from '../schemas/reply.js';
import { isRecord } from '../schemas/values.js';
import { OCO_ALERT_TYPE } from './order-jdata.js';

export interface LegsCompared {
  differences: LegDifference[];
  /** Fields the broker's record does not show (left out or empty): not verified. */
  unchecked: string[];
}

const text = (value: unknown): string | undefined =>
  value === undefined || value === null || String(value).trim() === '' ? undefined : String(value).trim();

/** `1500`, `1500.0` and `1500.00` are one value; anything else compares as text. */
const same = (a: string, b: string): boolean =>
  /^-?\d+(\.\d+)?$/.test(a) && /^-?\d+(\.\d+)?$/.test(b) ? Number(a) === Number(b) : a === b;

type Leg = PlaceOcoInput['target'];

const LEG_FIELDS: readonly [string, (leg: Leg) => string, (held: Record<string, unknown>) => unknown][] = [
  ['trigger', (leg) => leg.trigger, (held) => held.trigger],
  ['order.trantype', (leg) => leg.order.trantype, (held) => orderOf(held).trantype],
  ['order.qty', (leg) => String(leg.order.qty), (held) => orderOf(held).qty],
  ['order.prc', (leg) => leg.order.prc ?? '0', (held) => orderOf(held).prc],
];

const orderOf = (leg: Record<string, unknown>): Record<string, unknown> => (isRecord(leg.order) ? leg.order : {});

/** What the broker holds otherwise than was sent, and what its record does not show. */
export const compareOcoLegs = (asked: PlaceOcoInput, record: unknown): LegsCompared => {
  const order = (isRecord(record) ? record : {}) as Partial<GttOrder>;
  const differences: LegDifference[] = [];
  const unchecked: string[] = [];
  const check = (field: string, want: string, value: unknown) => {
    const held = text(value);
    if (held === undefined) unchecked.push(field);
    else if (!same(want, held)) differences.push({ field, asked: want, held });
  };
  if (order.type !== undefined && order.type !== 'oco')
    differences.push({ field: 'type', asked: 'oco', held: String(order.type) });
  check('ai_t', OCO_ALERT_TYPE, order.ai_t);
  for (const name of ['target', 'stopLoss'] as const) {
    const held = order[name];
    for (const [field, want, at] of LEG_FIELDS) {
      check(`${name}.${field}`, want(asked[name]), isRecord(held) ? at(held) : undefined);
    }
  }
  return { differences, unchecked };
};

/** The differences in words: `target.trigger asked 2600, held 2400`. */
export const describeDifferences = (differences: readonly LegDifference[]): string =>
  differences.map((d) => `${d.field} asked ${d.asked}, held ${d.held}`).join('; ');
