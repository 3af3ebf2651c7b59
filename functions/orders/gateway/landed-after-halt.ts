/**
 * A place or modify that took its permit before the kill switch went on and landed after it: the order core cancels
 * it at once (docs/explanation/compliance.md, "Kill switch"), says so (a log line with the `LandedAfterHalt` metric, the GTT
 * Placed or Modified and GTT Cancelled events), and answers TRADING_HALTED naming the order, instead of a success for
 * an order the trader has just halted. A cancel that fails leaves it to the switch's sweep, which waits until every
 * permitted write can no longer land (orders/safety/trading-controls.ts `inFlightUntil`).
 *
 * Except under `keep-exits`, for a write that leaves an exit at the broker (an OCO, a plan's exit or trailing stop:
 * orders/safety/exits.ts, the rule the switch's sweep keeps exits by): that switch keeps the exits, so a change of
 * one (a stop moved, a trailing stop's step) or an exit placed that lands after it is kept and answered as the
 * success it is, with a log line (`LandedAfterHaltKept`). Cancelling it would remove a protection the switch
 * answered `kept`, for good.
 *
 * A plain order (PlaceOrder) that is an exit never comes here (the switch lets it through: order-send.ts); one that
 * is not stands, logged (`LandedAfterHaltPlain`): the table has no cancel of a regular order.
 */
import type { Logger } from '@aws-lambda-powertools/logger';

import { type BrokerCallDeps, callBroker } from '../../base/broker/call-broker.js';
import type { BrokerSession } from '../../base/broker/session.js';
import { toGatewayError, TradingHaltedError } from '../../base/contract/errors.js';
import type { AnyOperation } from '../../base/contract/operation.js';
import { writeLog } from '../../base/runtime/logger.js';
import { indiaTimeText } from '../../base/schemas/india-time.js';
import type { GatewayEvents } from '../../events/core/producer.js';
import { cancelGttOrder } from '../operations.js';
import { isExit } from '../safety/exits.js';
import type { TradingControls } from '../safety/trading-controls.js';
import { buildEvents, queueEvents } from './order-events.js';

/** A switch turned this long before the permit counts as after it: containers' clocks differ by milliseconds. */
const CLOCK_SKEW_MS = 1_000;

export interface LandedCheck {
  operation: AnyOperation;
  controls: TradingControls;
  permitAt: number;
  input: unknown;
  result: unknown;
  calls: BrokerCallDeps;
  session: () => Promise<BrokerSession>;
  producer?: GatewayEvents | undefined;
  remainingMs: () => number;
  logger: Logger;
}

/** Undoes a write that landed after the switch went on (`carriedOwn`: its own events are already in the outbox). */
export type UndoLanded = (carriedOwn: boolean) => Promise<never>;

/**
 * Reads the kill switch after the write's success (alongside the write's record): undefined when it stayed off since
 * the permit, else how to undo the write, which throws TRADING_HALTED (after cancelling the order). Never rejects.
 */
export const landedAfterHalt = async (check: LandedCheck): Promise<UndoLanded | undefined> => {
  let uid: string;
  let halt: Awaited<ReturnType<TradingControls['haltState']>> | undefined;
  try {
    uid = (await check.session()).uid;
    halt = await check.controls.haltState(uid);
  } catch {
    // Unreadable: the write stands, and a sweep under way cancels it once it can no longer be in flight.
    return undefined;
  }
  if (!halt?.halted || !halt.changedAt || Date.parse(halt.changedAt) < check.permitAt - CLOCK_SKEW_MS) return undefined;
  if (check.operation.broker === 'PlaceOrder') {
    // A plain order the switch refuses (not an exit) that took its permit before it: the table has no cancel of a
    // regular order, so it stands, said loudly (docs/explanation/order-safety.md, "Plain orders").
    writeLog(check.logger, 'error', 'plain order landed after the kill switch went on; it stands (no cancel here)', {
      operation: check.operation.name,
      norenordno: String((check.result as { norenordno?: unknown }).norenordno),
      haltedAt: halt.changedAt,
      metric: 'LandedAfterHaltPlain',
    });
    return undefined;
  }
  if (halt.mode === 'keep-exits' && isExit(orderLeft(check.operation, check.input))) {
    // The switch keeps the exits: this one, changed or placed, stays.
    writeLog(check.logger, 'warn', 'exit landed after the kill switch (keep-exits); kept', {
      operation: check.operation.name,
      al_id: String((check.result as { al_id?: unknown }).al_id),
      haltedAt: halt.changedAt,
      metric: 'LandedAfterHaltKept',
    });
    return undefined;
  }
  return (carriedOwn) => undo(check, uid, halt.changedAt!, carriedOwn);
};

/** The broker's OCO writes: what they leave at the broker is an OCO. */
const OCO_WRITES: readonly string[] = ['PlaceOCOOrder', 'ModifyOCOOrder'];

/**
 * The order a write leaves at the broker, as the switch's sweep would read it: its kind, and its tag (the caller's
 * part of the remarks: a plan's GTTs carry the plan's stamp there). A PATCH's input is the merged order.
 */
const orderLeft = (operation: AnyOperation, input: unknown) => {
  const tag = (input as { tag?: unknown } | undefined)?.tag;
  return {
    type: OCO_WRITES.includes(operation.broker) ? ('oco' as const) : ('single' as const),
    tag: typeof tag === 'string' ? tag : undefined,
  };
};

const undo = async (check: LandedCheck, uid: string, haltedAt: string, carriedOwn: boolean): Promise<never> => {
  const { operation, controls, logger } = check;
  const halt = { changedAt: haltedAt };
  const alId = String((check.result as { al_id?: unknown }).al_id);
  let cancelled: unknown;
  let failure: string | undefined;
  try {
    // A cancel takes its permit like any (the exchange counts it); the switch does not refuse cancels.
    await controls.acquire(uid, false);
    cancelled = (await callBroker(cancelGttOrder, { al_id: alId }, check.calls)).result;
  } catch (error) {
    failure = toGatewayError(error).code;
  }
  writeLog(logger, 'error', 'order landed after the kill switch went on', {
    operation: operation.name,
    al_id: alId,
    haltedAt: halt.changedAt,
    cancelled: failure === undefined,
    ...(failure ? { code: failure } : {}),
    metric: 'LandedAfterHalt',
  });
  if (check.producer) {
    const events = [
      // Its own events (GTT Placed or Modified) once: not again when its record already carried them.
      ...(carriedOwn
        ? []
        : await buildEvents(operation, check.producer, check.input, check.result, check.session, logger)),
      ...(cancelled === undefined
        ? []
        : await buildEvents(cancelGttOrder, check.producer, { al_id: alId }, cancelled, check.session, logger)),
    ];
    await queueEvents(operation, check.producer, events, check.remainingMs(), logger);
  }
  throw new TradingHaltedError(
    failure === undefined
      ? `The kill switch went on (${indiaTimeText(halt.changedAt)}, ${halt.changedAt}) while this order was on its way: the broker took it (al_id ${alId}) and it was cancelled at once; nothing of it is live. Turn the switch off (DELETE /kill-switch) and send it again with a new key.`
      : `The kill switch went on (${indiaTimeText(halt.changedAt)}, ${halt.changedAt}) while this order was on its way: the broker took it (al_id ${alId}) and cancelling it failed (${failure}); the switch's sweep cancels it. Check GET /gtt-orders.`,
    {
      outcome: failure === undefined ? 'undone' : 'unknown',
      details: { al_id: alId, cancelled: failure === undefined },
    },
  );
};
