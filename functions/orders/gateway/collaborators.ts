/**
 * What an operation's order path works with besides the broker, decided once from its table entry (`needsOf`): the
 * journal where it takes keys, the event producer where it has a lifecycle event, the trading controls where it
 * writes orders (and Logout, which ends the session on the same item), the leases where it changes an order, the
 * watcher's copy where it reads one order, the instruments' copy where it checks an order or reads an instrument.
 *
 * The same answer decides what a generated handler file binds (orders/definitions.ts `GATEWAY_BINDINGS`), what its
 * function is granted and given (its tables), and what the container builds here (`buildCollaborators`), so the three
 * cannot drift apart. A collaborator the entry needs is built when the deployment names its table; a needed factory
 * that was not given while its table is named is a CONFIGURATION_ERROR on the first invocation, never a write sent
 * around it.
 */
import { SessionSource } from '../../base/broker/session.js';
import { ConfigurationError } from '../../base/contract/errors.js';
import { type AnyOperation, changesAnOrder, usesTradingControls } from '../../base/contract/operation.js';
import type { GatewayConfig } from '../../base/runtime/config.js';
import type { EventsConfig, GatewayEvents } from '../../events/core/producer.js';
import type { InstrumentCopy } from '../instruments/copy.js';
import type { OrderJournal } from '../journal.js';
import { DynamoOrderLeases, type OrderLeases } from '../lease.js';
import type { TradingControls } from '../safety/trading-controls.js';
import { OrderCopy } from './order-copy.js';

/** Which collaborators an entry's path uses: from its own flags, nothing else. */
export interface Needs {
  journal: boolean;
  events: boolean;
  controls: boolean;
  leases: boolean;
  copy: boolean;
  instruments: boolean;
}

export const needsOf = (op: AnyOperation): Needs => ({
  journal: op.idempotency !== undefined,
  events: op.lifecycle !== undefined,
  controls: usesTradingControls(op),
  leases: changesAnOrder(op),
  copy: Boolean(op.fromCopy),
  instruments: Boolean(op.guardedOrders ?? op.instrument),
});

/**
 * What an entry's stack is given: its own needs, and those of the cancel an entry that reads its order back runs
 * through the order core (an OCO held otherwise than asked: oco-readback.ts), which the container builds beside it.
 */
export const stackNeedsOf = (op: AnyOperation): Needs => {
  const own = needsOf(op);
  if (!op.readBack) return own;
  const cancel = needsOf(op.readBack.cancel);
  return Object.fromEntries(
    Object.entries(own).map(([key, value]) => [key, value || cancel[key as keyof Needs]]),
  ) as unknown as Needs;
};

/** Builds the journal of broker writes of one operation (orders/journal-factory.ts `dynamoJournal`). */
export type JournalFactory = (
  operation: AnyOperation,
  config: GatewayConfig & { idempotencyTableName: string },
) => OrderJournal;
/** Builds the trading controls: the governor, the kill switch, the session's end (`dynamoTradingControls`). */
export type TradingControlsFactory = (config: GatewayConfig & { controlTableName: string }) => TradingControls;
/** Builds the leases of one change per order (orders/lease.ts) on the control table: `dynamoLeases`. */
export type LeasesFactory = (config: GatewayConfig & { controlTableName: string }) => OrderLeases;
/** Builds the watcher's copy of the pending orders (order-copy.ts) on the events table: `dynamoOrderCopy`. */
export type CopyFactory = (config: GatewayConfig & { eventsTableName: string }) => OrderCopy;
/** Builds the account's copy of the instruments' rules (orders/instruments/copy.ts: `dynamoInstrumentCopy`). */
export type InstrumentCopyFactory = (config: GatewayConfig & { instrumentsTableName: string }) => InstrumentCopy;
/** Builds the lifecycle-event producer (the outbox's, or the direct one) when the deployment has a bus. */
export type EventsFactory = (config: EventsConfig) => GatewayEvents;

/** The factories a stack is given: the generated entries give exactly the ones `needsOf` names. */
export interface CollaboratorFactories {
  journal?: JournalFactory | undefined;
  events?: EventsFactory | undefined;
  controls?: TradingControlsFactory | undefined;
  leases?: LeasesFactory | undefined;
  copy?: CopyFactory | undefined;
  instruments?: InstrumentCopyFactory | undefined;
}

/** What the container built for one table entry, on first use: present where the entry needs it and the table is named. */
export interface Collaborators {
  config: GatewayConfig;
  sessions: SessionSource;
  journal?: OrderJournal | undefined;
  events?: GatewayEvents | undefined;
  controls?: TradingControls | undefined;
  leases?: OrderLeases | undefined;
  copy?: OrderCopy | undefined;
  instruments?: InstrumentCopy | undefined;
  /** An entry that reads its order back: the collaborators of the cancel it runs through the order core. */
  readBack?: Collaborators | undefined;
}

/** The leases on the control table, as deployed. */
export const dynamoLeases: LeasesFactory = (config) =>
  new DynamoOrderLeases({
    tableName: config.controlTableName,
    lateWindowMs: config.orderLateWindowMs,
    endpoint: config.dynamodbEndpoint,
  });

/** The watcher's copy on the events table, as deployed. */
export const dynamoOrderCopy: CopyFactory = (config) =>
  new OrderCopy({
    tableName: config.eventsTableName,
    controlTableName: config.controlTableName,
    endpoint: config.dynamodbEndpoint,
  });

/** The session source of a deployment's configuration (cached per container). */
export const sessionSource = (config: GatewayConfig): SessionSource =>
  new SessionSource({
    secretId: config.brokerSecretId,
    maxAgeSeconds: config.secretMaxAgeSeconds,
    endpoint: config.secretsManagerEndpoint,
  });

/** Builds, once, what `needsOf(operation)` names and the deployment has a table for. */
export const buildCollaborators = (
  operation: AnyOperation,
  config: GatewayConfig,
  factories: CollaboratorFactories,
  sessions: SessionSource = sessionSource(config),
): Collaborators => {
  const needs = needsOf(operation);
  const table = {
    journal: config.idempotencyTableName,
    events: config.eventBusName,
    controls: config.controlTableName,
    leases: config.controlTableName,
    copy: config.eventsTableName,
    instruments: config.instrumentsTableName,
  };
  // An order write is never sent around the governor: its controls are built wherever the table is named.
  if (operation.kind === 'order' && table.controls !== undefined && !factories.controls)
    throw new ConfigurationError(
      `${operation.name} was built without the trading controls (order-rate governor, kill switch); nothing was sent.`,
    );
  const wanted = <K extends keyof Needs>(key: K): string | undefined =>
    needs[key] && factories[key] ? table[key] : undefined;
  const journalTable = wanted('journal');
  const bus = wanted('events');
  const controlTable = wanted('controls');
  const leaseTable = wanted('leases');
  const eventsTable = wanted('copy');
  const instrumentsTable = wanted('instruments');
  return {
    config,
    sessions,
    ...(journalTable
      ? { journal: factories.journal!(operation, { ...config, idempotencyTableName: journalTable }) }
      : {}),
    ...(bus ? { events: factories.events!({ ...config, eventBusName: bus }) } : {}),
    ...(controlTable ? { controls: factories.controls!({ ...config, controlTableName: controlTable }) } : {}),
    ...(leaseTable ? { leases: factories.leases!({ ...config, controlTableName: leaseTable }) } : {}),
    ...(eventsTable ? { copy: factories.copy!({ ...config, eventsTableName: eventsTable }) } : {}),
    ...(instrumentsTable
      ? { instruments: factories.instruments!({ ...config, instrumentsTableName: instrumentsTable }) }
      : {}),
    ...(operation.readBack
      ? { readBack: buildCollaborators(operation.readBack.cancel, config, factories, sessions) }
      : {}),
  };
};
