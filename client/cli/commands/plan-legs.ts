/**
 * A legs-as-one plan in `gtt plans`, `gtt plan` and the answers of `plan-create` and `plan-cancel`
 * (docs/reference/plans.md, "Legs as one"): in place of its symbol the net premium at the fills and the exit on it,
 * then one line of its legs: each leg's side, lots and contract, its fill, what is open and its close being placed.
 * Read loosely: a record missing a part leaves that part out.
 */
import type { PlanRecord } from '../../types.js';

type Legs = NonNullable<PlanRecord['legs']>;
type Leg = Legs['legs'][number];

const round2 = (n: number): number => Math.round(n * 100) / 100;
const signed = (n: number): string => (n > 0 ? `+${round2(n)}` : String(round2(n)));

/** `S 1 lot NFO:NIFTY08DEC26C25000 filled 65 at 81.4, open 65, closing order 24120700023 at 108.6`. */
export const legText = (l: Leg): string => {
  const entry = l.refused
    ? `refused: ${l.refused}`
    : l.filledQty !== undefined
      ? l.filledQty > 0
        ? `filled ${l.filledQty} at ${l.fill ?? '?'}`
        : 'not filled'
      : l.entryOrder
        ? `entry ${l.entryOrder} not filled yet`
        : 'entry not placed yet';
  const open = l.open ?? (l.filledQty ? l.filledQty : undefined);
  const close =
    l.closeOrder || l.closeGen !== undefined
      ? `, closing ${l.closeOrder ? `order ${l.closeOrder}` : '(being placed)'}${l.closePrc ? ` at ${l.closePrc}` : ''}`
      : '';
  return `${l.trantype} ${l.lots} lot${l.lots === 1 ? '' : 's'} ${l.exch}:${l.tsym} ${entry}${open === undefined ? '' : `, open ${open}`}${close}`;
};

/** `net -161.2  stop 40 target 25% (move -40 / +40.3)`: a legs plan's part of its line in place of its symbol. */
export const legsSummary = (p: PlanRecord): string => {
  const legs = p.legs;
  if (!legs) return '';
  const net = legs.entryNet === undefined ? 'net when every leg fills' : `net ${signed(legs.entryNet)}`;
  const points =
    legs.stopPoints !== undefined && legs.targetPoints !== undefined
      ? ` (move ${signed(-legs.stopPoints)} / ${signed(legs.targetPoints)})`
      : '';
  return `${net}  stop ${legs.exit.stop} target ${legs.exit.target}${points}`;
};

/** The second line of a legs plan: `  legs: <leg>; <leg>` (none for any other plan). */
export const legsLine = (p: PlanRecord): string =>
  p.legs ? `  legs: ${p.legs.legs.length ? p.legs.legs.map(legText).join('; ') : 'none recorded'}` : '';
