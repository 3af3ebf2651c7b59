/**
 * The account's trading controls in memory, for tests of the order core without a database: the order-rate
 * governor, the kill switch and the session's end, decided by the rules the DynamoDB controls decide by
 * (functions/orders/safety/permit-rules.ts) on an item per account kept in a `MemoryControlTable`. Several instances
 * on one table are several containers of one deployment: a permit taken or the switch turned in one is seen by the
 * next permit of every other, as the one DynamoDB item makes it.
 *
 * A permit reads and writes the item with no await in between, so it never loses to another (DynamoDB's conditional
 * write on the item's version): `guard.wanted`, asked only after a try lost to contention, is never asked here. The
 * one await is the session's re-read after a logout; the item is read again after it. A permit makes no DynamoDB call
 * (`dynamoCalls: 0`). test/contract/trading-controls-contract.test.ts runs the same cases against it and against the
 * DynamoDB controls on dynalite.
 */
import { InternalError } from '../../functions/base/contract/errors.js';
import {
  type ControlState,
  haltChanged,
  haltedRefusal,
  NO_CONTROLS,
  rateWindow,
  sessionEndedSince,
  withPermit,
} from '../../functions/orders/safety/permit-rules.js';
import {
  ARRIVAL_MARGIN_MS,
  type HaltMode,
  type HaltState,
  type OrderRateLimits,
  type Permit,
  type PermitGuard,
  type TradingControls,
} from '../../functions/orders/safety/trading-controls.js';

/** The control table in memory: each account's item. */
export class MemoryControlTable {
  readonly items = new Map<string, ControlState>();
  /** While true every call fails as an unreachable table does (INTERNAL_ERROR, nothing sent). */
  unavailable = false;
}

export interface MemoryTradingControlsOptions {
  limits: OrderRateLimits;
  /** How long past its second a permit still counts (the arrival margin); the deployment's unless said. */
  marginMs?: number;
  /** The clock (ms): a test's fake one. */
  now?: () => number;
  /** The table it shares with other containers' controls; a new one unless given. */
  table?: MemoryControlTable;
}

export class MemoryTradingControls implements TradingControls {
  readonly table: MemoryControlTable;
  private readonly now: () => number;
  private readonly margin: number;

  constructor(private readonly options: MemoryTradingControlsOptions) {
    this.table = options.table ?? new MemoryControlTable();
    this.now = options.now ?? Date.now;
    this.margin = options.marginMs ?? ARRIVAL_MARGIN_MS;
  }

  private read(account: string, what: string): ControlState {
    if (this.table.unavailable)
      throw new InternalError(`The trading controls table is unavailable (${what}); nothing was sent to the broker.`, {
        cause: new Error('the memory control table is set unavailable'),
        outcome: 'not_executed',
      });
    return this.table.items.get(account) ?? NO_CONTROLS;
  }

  private write(account: string, next: ControlState): void {
    this.table.items.set(account, next);
  }

  async acquire(account: string, refuseWhenHalted: boolean, guard: PermitGuard = {}): Promise<Permit> {
    let item = this.read(account, 'read');
    if (refuseWhenHalted && item.halt.halted) throw haltedRefusal(item.halt);
    if (guard.session && sessionEndedSince(item, guard.session.readAt())) {
      await guard.session.reread();
      // Another container may have written meanwhile: the permit is decided on the item as it is now.
      item = this.read(account, 'read');
      if (refuseWhenHalted && item.halt.halted) throw haltedRefusal(item.halt);
    }
    const now = this.now();
    const { lastMinute, refusal } = rateWindow(item.log, now, this.options.limits, this.margin);
    if (refusal) throw refusal;
    this.write(account, withPermit(item, lastMinute, now, refuseWhenHalted, guard.landBy));
    return { dynamoCalls: 0 };
  }

  async haltState(account: string): Promise<HaltState> {
    return this.read(account, 'read').halt;
  }

  async inFlightUntil(account: string): Promise<number> {
    return this.read(account, 'read').liveUntil;
  }

  async endSession(account: string): Promise<void> {
    const item = this.read(account, 'session');
    this.write(account, { ...item, version: item.version + 1, sessionEndedAt: this.now() });
  }

  async setHalt(account: string, halted: boolean, changedBy?: string, mode?: HaltMode): Promise<HaltState> {
    const item = this.read(account, 'kill switch');
    const halt = haltChanged(halted, this.now(), changedBy, mode);
    this.write(account, { ...item, version: item.version + 1, halt });
    return halt;
  }
}
