/**
 * `POST /positions/close` (docs/how-to/close-a-position.md): one position closed now, all of it or part, by one
 * protected LIMIT order through the order core's plain PlaceOrder as an exit (plain-order.ts `placeExitOrder`), priced
 * like the day's-limit square-off (exit-price.ts). It only ever reduces: the side is the one that closes the position
 * read now (a sell of a long, a buy of a short), the quantity at most |netQty|, and the quantity plus what the
 * position's pending exits on that side would close (exit-only.ts `waitingExits`: GTTs and OCOs resting, and what live
 * plans owe that is not at the broker yet, such as a trailing stop whose place was lost) at most
 * the position, so a resting GTT that fires after the close cannot take it past flat: the refusal names those
 * exits' al_ids to cancel first. A refusal sends nothing.
 *
 * Never twice: the plan (side, quantity, price) is kept under the caller's key before the order goes (close-store.ts),
 * and the order carries a key derived from it, so a retry sends the same order and the journal answers the one
 * placed; a lost reply is settled from the order book by the order's stamp.
 */
import {
  IdempotencyKeyReusedError,
  InternalError,
  toGatewayError,
  ValidationFailedError,
} from '../base/contract/errors.js';
import type { CloseInput, CloseResult } from '../base/schemas/close.js';
import { netQtyOf, type OwedExit, pendingExitQty, waitingExits } from '../base/schemas/exit-only.js';
import type { Position, PositionsResult } from '../base/schemas/positions.js';
import { deepSort, md5 } from '../orders/journal-entry.js';
import type { DryRunExitOrder, PlaceExitOrder } from '../orders/plain-order.js';
import type { ClosePlan, ClosePlans } from './close-store.js';
import type { PendingExit } from './coverage.js';
import type { ExitPrice } from './exit-price.js';

export interface CloseDeps {
  positions: (deadline: number) => Promise<PositionsResult>;
  pending: (deadline: number) => Promise<PendingExit[]>;
  /** What the live plans owe (their store read now; coverage.ts `owedOfPlans`), beside the pending list. */
  owed?: (pending: readonly PendingExit[]) => Promise<OwedExit[]>;
  exitPrice: ExitPrice;
  placeExit: PlaceExitOrder;
  dryRunExit: DryRunExitOrder;
  plans: ClosePlans;
}

type Fields = Record<string, unknown>;

export type CloseDecision =
  | { ok: true; trantype: 'B' | 'S'; qty: number; netQty: number; position: Position }
  | { ok: false; reason: string; field: string };

/** The pending orders with an exit of the position on `side` (what `pendingExitQty` counts). */
export const pendingExitIds = (pending: readonly Fields[], at: CloseInput, side: 'B' | 'S'): string[] =>
  pending
    .filter((order) => pendingExitQty([order], at, side) > 0)
    .map((order) => String(order.al_id ?? ''))
    .filter((alId) => alId !== '');

/** Whether and how `input` closes its position (pure): the side, the quantity, or why not. */
export const closeDecision = (
  input: CloseInput,
  positions: readonly Position[],
  pending: readonly Fields[],
  owed: readonly OwedExit[] = [],
): CloseDecision => {
  const where = `${input.exch}:${input.tsym} (product ${input.prd})`;
  const held = netQtyOf(positions, input);
  const position = positions.find((p) => p.exch === input.exch && p.tsym === input.tsym && p.product === input.prd);
  if (held === 0 || !position)
    return { ok: false, field: 'tsym', reason: `no open position of ${where} to close: GET /positions lists them` };
  const trantype = held > 0 ? 'S' : 'B';
  const size = Math.abs(held);
  const what = `the ${held > 0 ? 'long' : 'short'} of ${size}`;
  const qty = input.qty === undefined ? size : Number(input.qty);
  if (qty > size)
    return {
      ok: false,
      field: 'qty',
      reason: `qty ${qty} is more than ${what} ${where}: a close only reduces a position; ask for at most ${size}, or leave qty out to close it all`,
    };
  const waiting = waitingExits(pending, owed, input, trantype);
  const already = waiting.total;
  if (already + qty > size) {
    const ids = [
      ...pendingExitIds(pending, input, trantype).map((id) => `al_id ${id}`),
      ...waiting.plans.filter((p) => p.atBroker < p.owed.qty).map((p) => `plan ${p.owed.planId} (${p.owed.what})`),
    ];
    return {
      ok: false,
      field: 'qty',
      reason: `closing ${qty} of ${what} ${where} while its pending exits would ${trantype === 'S' ? 'sell' : 'buy'} ${already} more (${ids.join(', ')}) could take it past flat when they fire: cancel them first (DELETE /gtt-orders/{alId}${waiting.plans.length ? ', a plan by DELETE /plans/{planId}' : ''})${size - already > 0 ? `, or close at most ${size - already}` : ''}`,
    };
  }
  return { ok: true, trantype, qty, netQty: held, position: { ...position, netQty: held } };
};

const requestHash = (input: CloseInput) =>
  md5(JSON.stringify(deepSort({ exch: input.exch, tsym: input.tsym, prd: input.prd, qty: input.qty ?? null })));

const reused = (key: string) =>
  new IdempotencyKeyReusedError(
    `Idempotency key "${key}" was already used to close another position or quantity; use a new key for a new close.`,
    { outcome: 'not_executed' },
  );

/** The close of `input` decided on the positions and pending exits read now (refused: nothing is sent). */
const decide = async (deps: CloseDeps, input: CloseInput, deadline: number): Promise<ClosePlan> => {
  const [read, pending] = await Promise.all([deps.positions(deadline), deps.pending(deadline)]);
  const owed = deps.owed
    ? await deps.owed(pending).catch((error: unknown) => {
        throw new InternalError(
          `Not closed: the plans, whose exits count beside the pending ones, could not be read (${toGatewayError(error).code}). Nothing was sent; try again.`,
          { outcome: 'not_executed' },
        );
      })
    : [];
  const decision = closeDecision(input, read.positions, pending as unknown as Fields[], owed);
  if (!decision.ok)
    throw new ValidationFailedError(`Not closed: ${decision.reason}. Nothing was sent.`, {
      details: [{ field: decision.field, message: decision.reason }],
    });
  const prc = await deps.exitPrice(decision.position, deadline);
  return {
    request: requestHash(input),
    exch: input.exch,
    tsym: input.tsym,
    prd: input.prd,
    trantype: decision.trantype,
    qty: decision.qty,
    prc,
    netQty: decision.netQty,
    lastPrice: decision.position.lastPrice!,
  };
};

/** The close the plan of `key` stands for, decided now when the key has none. */
const planFor = async (deps: CloseDeps, input: CloseInput, key: string, deadline: number): Promise<ClosePlan> => {
  const request = requestHash(input);
  const kept = await deps.plans.get(key);
  if (kept) {
    if (kept.request !== request) throw reused(key);
    return kept;
  }
  const stands = await deps.plans.claim(key, await decide(deps, input, deadline));
  if (stands.request !== request) throw reused(key);
  return stands;
};

/** The close of `input` under the caller's idempotency key `key`. */
export const closePosition = async (
  deps: CloseDeps,
  input: CloseInput,
  key: string,
  deadline: number,
): Promise<CloseResult> => {
  const plan = await planFor(deps, input, key, deadline);
  const placed = await deps.placeExit(
    {
      exch: plan.exch,
      tsym: plan.tsym,
      prd: plan.prd,
      trantype: plan.trantype,
      qty: plan.qty,
      prc: plan.prc,
      key: `close:${key}`,
    },
    deadline,
  );
  return {
    norenordno: placed.norenordno,
    exch: plan.exch,
    tsym: plan.tsym,
    prd: plan.prd,
    trantype: plan.trantype,
    qty: plan.qty,
    prc: plan.prc,
    netQty: plan.netQty,
    lastPrice: plan.lastPrice,
    outcome: placed.adopted ? 'adopted' : placed.replayed ? 'replayed' : 'placed',
  };
};

/**
 * `?dryRun=true`: the close decided now (or refused, with the same reasons) and the PlaceOrder it would send, as the
 * order core's dry run shows it (the exchange's rules checked); nothing kept, nothing sent.
 */
export const closeDryRun = async (
  deps: CloseDeps,
  input: CloseInput,
  deadline: number,
): Promise<Record<string, unknown>> => {
  const { request: _request, ...plan } = await decide(deps, input, deadline);
  const order = {
    exch: plan.exch,
    tsym: plan.tsym,
    prd: plan.prd,
    trantype: plan.trantype,
    qty: plan.qty,
    prc: plan.prc,
  };
  return { ...(await deps.dryRunExit(order, deadline)), close: plan };
};
