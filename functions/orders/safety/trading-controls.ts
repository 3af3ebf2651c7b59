/**
 * The account's trading controls, shared by every container through one DynamoDB item per account: the order-rate
 * governor every broker write passes, and the kill switch (docs/explanation/compliance.md).
 *
 * The governor is a sliding-window log: the item keeps the send times of the last minute's orders, and a permit is
 * granted only if fewer than `perSecond` orders were permitted in the last second (plus an arrival margin) and fewer
 * than `perMinute` in the last minute. The new time is written with a conditional put on the item's version, so two
 * containers never both take the last permit; the loser reads again. Unlike fixed windows (which let 2 × the limit
 * through across a window boundary) and a token bucket (which lets capacity + rate through in one second), this
 * never lets more than `perSecond` orders through in ANY second, whatever the broker's clock: the broker counts in
 * its own seconds, which ours do not line up with.
 *
 * The kill switch lives in the same item, so turning it on changes the version: a place that read "not halted" and
 * was about to take its permit must read again, and then sees the halt.
 *
 * A container remembers the item as it last wrote or saw it, so a warm permit is one conditional write and no read:
 * if another container wrote since, the write fails and DynamoDB returns the current item with the failure
 * (`ReturnValuesOnConditionCheckFailure`), which is the fresh state to try again with. A remembered halt is never
 * trusted for a refusal: the item is read again first, so a released kill switch is seen at once.
 *
 * `TradingControls` is what the order core and the kill switch use; `DynamoTradingControls` keeps the item in the
 * control table, the tests' `MemoryTradingControls` (test/support/memory-trading-controls.ts) in memory, both deciding
 * by permit-rules.ts. test/contract/trading-controls-contract.test.ts runs one suite against both.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import {
  dynamoDbClient,
  GetItemCommand,
  isConditionFailure,
  PutItemCommand,
  UpdateItemCommand,
} from '../../base/aws/dynamo.js';
import { InternalError, RateLimitedError } from '../../base/contract/errors.js';
import {
  type ControlState,
  haltChanged,
  haltedRefusal,
  rateWindow,
  sessionEndedSince,
  withPermit,
} from './permit-rules.js';

export interface OrderRateLimits {
  perSecond: number;
  perMinute: number;
}

/** Below the exchanges' 10 orders a second (SEBI's threshold for registered algos) and the 120 a minute one broker caps. */
export const DEFAULT_ORDER_RATE: OrderRateLimits = { perSecond: 8, perMinute: 120 };

/**
 * A permit is counted for 1 s plus this margin: the time from the permit to the request's arrival at the broker
 * varies between containers (a garbage collection, a busy event loop, a slower connection), and a later permit must
 * never arrive within the same second as one granted a full second earlier that travelled slower. 250 ms covers the
 * spread measured under load on two cores (100 ms did not); it costs a sustained rate of 8 per 1.25 s, 6.4 a second.
 */
export const ARRIVAL_MARGIN_MS = 250;

/** The control table's key (`pk`) of an account's trading controls (governor, kill switch, session end). */
export const TRADING_PREFIX = 'trading#';

export interface TradingControlsOptions {
  tableName: string;
  limits: OrderRateLimits;
  /** Local runs and tests only (dynalite). */
  endpoint?: string;
  /** Conditional-write attempts under contention before the call is refused as RATE_LIMITED. Default 12. */
  maxAttempts?: number;
  marginMs?: number;
  now?: () => number;
}

export interface Permit {
  /**
   * DynamoDB calls this permit took (one conditional write in a warm container without contention; a read first in a
   * new one; none in memory).
   */
  dynamoCalls: number;
}

/**
 * What the kill switch took down when it went on (docs/explanation/compliance.md): `cancel-all` every pending GTT and OCO;
 * `keep-exits` the entries only, the protective exits (OCOs, plans' exits and stops) left at the broker. Places and
 * modifies are refused in both.
 */
export const HALT_MODES = ['cancel-all', 'keep-exits'] as const;
export type HaltMode = (typeof HALT_MODES)[number];

export interface HaltState {
  halted: boolean;
  /** While on: what its sweep took down (a switch turned on before there were modes reads as cancel-all). */
  mode?: HaltMode;
  /** ISO time of the last change; absent if the switch was never used. */
  changedAt?: string;
  /** Who changed it (the caller's identity as the request carried it), when known. */
  changedBy?: string;
}

/**
 * What a permit also guards, in the same conditional write: until when the write may land (a place or modify: the
 * kill switch's sweep waits for it), and the session this container holds (re-read when a logout came after it).
 */
export interface PermitGuard {
  landBy?: number;
  /**
   * A permit asked for alongside the journal's claim makes its first try at once; a try lost to contention waits for
   * this before trying again: true once the request is to be sent (its key claimed), false when it was answered
   * without a send (a replay, a key in flight), which ends the permit. So twins of one key contend once, not twelve
   * times, and never make the one to be sent wait.
   */
  wanted?: () => Promise<boolean>;
  session?: {
    /** When this container last read the secret from Secrets Manager (ms). */
    readAt: () => number;
    /** Reads the secret again; throws SESSION_EXPIRED (nothing sent) when it is logged out. */
    reread: () => Promise<void>;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The account's trading controls, as the order core (a permit for every broker write) and the kill switch use them.
 * Every call fails closed: a table that cannot be reached is INTERNAL_ERROR, nothing sent.
 */
export interface TradingControls {
  /**
   * One permit to send an order write for the account, or a RATE_LIMITED refusal with `retryAfterSeconds` (and
   * TRADING_HALTED when `refuseWhenHalted` and the kill switch is on). A logout since the session's secret was read
   * (`guard.session`) has it read again first; a place or modify's `guard.landBy` is kept as `inFlightUntil`.
   */
  acquire(account: string, refuseWhenHalted: boolean, guard?: PermitGuard): Promise<Permit>;
  haltState(account: string): Promise<HaltState>;
  /** Until when a place or modify already permitted may still land (ms; 0: none ever was). */
  inFlightUntil(account: string): Promise<number>;
  /** The session was ended (a logout): every later permit, in every container, re-reads the secret first. */
  endSession(account: string): Promise<void>;
  /** Turns the kill switch on (in `mode`, default cancel-all) or off; a permit being taken meanwhile sees it. */
  setHalt(account: string, halted: boolean, changedBy?: string, mode?: HaltMode): Promise<HaltState>;
}

const toControlItem = (item: Record<string, AttributeValue> | undefined): ControlState => ({
  version: Number(item?.v?.N ?? '0'),
  log: (item?.log?.L ?? []).map((entry) => Number(entry.N)).filter(Number.isFinite),
  halt: {
    halted: item?.halted?.BOOL === true,
    ...(item?.haltChangedAt?.S ? { changedAt: item.haltChangedAt.S } : {}),
    ...(item?.haltChangedBy?.S ? { changedBy: item.haltChangedBy.S } : {}),
    ...(item?.halted?.BOOL === true
      ? { mode: item.haltMode?.S === 'keep-exits' ? ('keep-exits' as const) : ('cancel-all' as const) }
      : {}),
  },
  liveUntil: Number(item?.liveUntil?.N ?? '0') || 0,
  sessionEndedAt: Number(item?.sessionEndedAt?.N ?? '0') || 0,
});

/** The trading controls in one item per account of the control table (module comment). */
export class DynamoTradingControls implements TradingControls {
  private readonly margin: number;
  private readonly maxAttempts: number;
  private readonly now: () => number;
  /** The item per account as this container last wrote or saw it (the next permit's conditional write assumes it). */
  private readonly known = new Map<string, ControlState>();

  constructor(private readonly options: TradingControlsOptions) {
    this.margin = options.marginMs ?? ARRIVAL_MARGIN_MS;
    this.maxAttempts = options.maxAttempts ?? 12;
    this.now = options.now ?? Date.now;
  }

  get limits(): OrderRateLimits {
    return this.options.limits;
  }

  private key(account: string): Record<string, AttributeValue> {
    return { pk: { S: `${TRADING_PREFIX}${account}` } };
  }

  private get client() {
    return dynamoDbClient(this.options.endpoint);
  }

  private unavailable(error: unknown, what: string): InternalError {
    return new InternalError(`The trading controls table is unavailable (${what}); nothing was sent to the broker.`, {
      cause: error,
      outcome: 'not_executed',
    });
  }

  private async read(account: string): Promise<ControlState> {
    let item: Record<string, AttributeValue> | undefined;
    try {
      ({ Item: item } = await this.client.send(
        new GetItemCommand({ TableName: this.options.tableName, Key: this.key(account), ConsistentRead: true }),
      ));
    } catch (error) {
      throw this.unavailable(error, 'read');
    }
    return toControlItem(item);
  }

  async acquire(account: string, refuseWhenHalted: boolean, guard: PermitGuard = {}): Promise<Permit> {
    let calls = 0;
    // The remembered item (warm container) or a fresh read (first permit); `fresh` says whether it was just read.
    let item = this.known.get(account);
    let fresh = false;
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      if (attempt > 1 && guard.wanted && !(await guard.wanted()))
        throw new RateLimitedError('The permit is no longer wanted (its request was answered without a send).', {
          outcome: 'not_executed',
          details: { retryAfterSeconds: 1, window: 'contention' },
        });
      if (!item || (!fresh && refuseWhenHalted && item.halt.halted)) {
        item = await this.read(account);
        calls++;
        fresh = true;
      }
      if (refuseWhenHalted && item.halt.halted) {
        this.known.set(account, item);
        throw haltedRefusal(item.halt);
      }
      // A logout after this container read its secret: read it again (SESSION_EXPIRED while it stays logged out),
      // whatever token the broker would still accept.
      if (guard.session && sessionEndedSince(item, guard.session.readAt())) await guard.session.reread();
      const now = this.now();
      const { lastMinute, refusal } = rateWindow(item.log, now, this.options.limits, this.margin);
      if (refusal) {
        // A refusal on a remembered item is checked against a fresh read first: others' permits may have aged out
        // differently, and the item may have changed since.
        if (!fresh) {
          item = undefined;
          continue;
        }
        throw refusal;
      }
      const next = withPermit(item, lastMinute, now, refuseWhenHalted, guard.landBy);
      try {
        calls++;
        await this.client.send(
          new PutItemCommand({
            TableName: this.options.tableName,
            Item: {
              ...this.key(account),
              v: { N: String(next.version) },
              log: { L: next.log.map((t) => ({ N: String(t) })) },
              halted: { BOOL: item.halt.halted },
              ...(item.halt.changedAt ? { haltChangedAt: { S: item.halt.changedAt } } : {}),
              ...(item.halt.changedBy ? { haltChangedBy: { S: item.halt.changedBy } } : {}),
              ...(item.halt.mode ? { haltMode: { S: item.halt.mode } } : {}),
              ...(next.liveUntil ? { liveUntil: { N: String(next.liveUntil) } } : {}),
              ...(next.sessionEndedAt ? { sessionEndedAt: { N: String(next.sessionEndedAt) } } : {}),
            },
            ConditionExpression: item.version === 0 ? 'attribute_not_exists(v) OR v = :v' : 'v = :v',
            ExpressionAttributeValues: { ':v': { N: String(item.version) } },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        this.known.set(account, next);
        return { dynamoCalls: calls };
      } catch (error) {
        if (!isConditionFailure(error)) {
          this.known.delete(account);
          throw this.unavailable(error, 'write');
        }
        // Another container took a permit (or the kill switch changed) since: the failure carries the item as it
        // is now (read it if it does not), tried again after a short random pause so the contenders spread out.
        const current = (error as { Item?: Record<string, AttributeValue> }).Item;
        item = current ? toControlItem(current) : undefined;
        fresh = current !== undefined;
        await sleep(Math.random() * 5 * attempt);
      }
    }
    this.known.delete(account);
    throw new RateLimitedError(
      `The order-rate governor is busy (${this.maxAttempts} other orders took permits first); nothing was sent. Retry after 1 second.`,
      { outcome: 'not_executed', details: { retryAfterSeconds: 1, window: 'contention' } },
    );
  }

  async haltState(account: string): Promise<HaltState> {
    return (await this.read(account)).halt;
  }

  /** Until when a place or modify already permitted may still land (ms; 0: none ever was). */
  async inFlightUntil(account: string): Promise<number> {
    return (await this.read(account)).liveUntil;
  }

  /**
   * The session was ended (a logout): the next permit in every container, warm or not, sees the item changed and
   * re-reads its secret before sending anything.
   */
  async endSession(account: string): Promise<void> {
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.options.tableName,
          Key: this.key(account),
          UpdateExpression: 'SET sessionEndedAt = :at, v = if_not_exists(v, :zero) + :one',
          ExpressionAttributeValues: {
            ':at': { N: String(this.now()) },
            ':zero': { N: '0' },
            ':one': { N: '1' },
          },
        }),
      );
    } catch (error) {
      throw this.unavailable(error, 'session');
    }
  }

  /**
   * Turns the kill switch on (in `mode`, default cancel-all) or off; the version changes, so a permit being taken
   * concurrently reads again.
   */
  async setHalt(account: string, halted: boolean, changedBy?: string, mode?: HaltMode): Promise<HaltState> {
    const state = haltChanged(halted, this.now(), changedBy, mode);
    const kept = state.mode;
    const sets = ['halted = :h', 'haltChangedAt = :at', 'v = if_not_exists(v, :zero) + :one'];
    const removes: string[] = [];
    (changedBy ? sets : removes).push(changedBy ? 'haltChangedBy = :by' : 'haltChangedBy');
    (kept ? sets : removes).push(kept ? 'haltMode = :m' : 'haltMode');
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.options.tableName,
          Key: this.key(account),
          UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
          ExpressionAttributeValues: {
            ':h': { BOOL: halted },
            ':at': { S: state.changedAt },
            ':zero': { N: '0' },
            ':one': { N: '1' },
            ...(changedBy ? { ':by': { S: changedBy } } : {}),
            ...(kept ? { ':m': { S: kept } } : {}),
          },
        }),
      );
    } catch (error) {
      throw this.unavailable(error, 'kill switch');
    }
    return state;
  }
}

/** The gateway's trading controls on the deployment's table (a TradingControlsFactory). */
export const dynamoTradingControls = (config: {
  controlTableName: string;
  orderRatePerSecond: number;
  orderRatePerMinute: number;
  orderRateMarginMs?: number;
  dynamodbEndpoint?: string | undefined;
}): DynamoTradingControls =>
  new DynamoTradingControls({
    tableName: config.controlTableName,
    limits: { perSecond: config.orderRatePerSecond, perMinute: config.orderRatePerMinute },
    ...(config.orderRateMarginMs === undefined ? {} : { marginMs: config.orderRateMarginMs }),
    ...(config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint } : {}),
  });
