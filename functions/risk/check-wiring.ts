/**
 * The day's limits' check as the GttWatcher runs it (check.ts), built from the deployment's settings: the positions
 * read through the operation table's own GetPositions entry on the in-process order core, the kill switch through its
 * face (controls/kill-switch.ts, as a signal's kill-switch action turns it), the event into the idempotency table's
 * outbox. This file is the face the watcher imports.
 */
import type { Logger } from '@aws-lambda-powertools/logger';

import { ConfigurationError } from '../base/contract/errors.js';
import type { GatewaySettings } from '../base/runtime/config.js';
import { envName } from '../base/runtime/env.js';
import type { PositionsResult } from '../base/schemas/positions.js';
import { memo } from '../base/schemas/values.js';
import { createKillSwitchControl } from '../controls/kill-switch.js';
import { OutboxTable } from '../events/core/outbox.js';
import { eventIds, scopeOf } from '../events/core/views.js';
import { inProcessGateway } from '../orders/gateway/in-process.js';
import { getPendingGttOrders, getPositions } from '../orders/operations.js';
import { exitOrders } from '../orders/plain-order.js';
import { PlanStore } from '../plans/store.js';
import { createRiskCheck, type RiskCheck } from './check.js';
import { owedOfPlans } from './coverage.js';
import { everyPending, everyPlan } from './coverage-watch.js';
import { exitPriceOn } from './exit-price.js';
import { RiskStore } from './store.js';

export type { RiskCheck, RiskRun } from './check.js';

export interface RiskCheckOptions {
  /** Tests: the clock (which India day is checked). */
  now?: () => number;
}

export const createRiskCheckFor = (
  settings: GatewaySettings,
  logger: Logger,
  options: RiskCheckOptions = {},
): RiskCheck => {
  const gateway = inProcessGateway(settings, logger, 'GttWatcher');
  const { config } = gateway;
  if (!config.eventsTableName || !config.eventBusName || !config.idempotencyTableName)
    throw new ConfigurationError(
      `The day's limits need the events table, the bus and the idempotency table (${(['eventsTableName', 'eventBusName', 'idempotencyTableName'] as const).map(envName).join(', ')}).`,
    );
  const busName = config.eventBusName;
  const outbox = new OutboxTable({ tableName: config.idempotencyTableName, endpoint: config.dynamodbEndpoint });
  const positions = gateway.direct(getPositions);
  const pendingPage = gateway.direct(getPendingGttOrders);
  const planStore = new PlanStore({ tableName: config.eventsTableName, endpoint: config.dynamodbEndpoint });
  // What waits to close each position when the square-off is planned: every page of the pending list, and the plans.
  const waiting = async (deadline: number) => {
    const pending = await everyPending(pendingPage, deadline);
    const owed = owedOfPlans(await everyPlan(planStore), pending);
    return { pending: pending as unknown as Record<string, unknown>[], owed };
  };
  const placeExit = memo(() => exitOrders(gateway));
  const killSwitch = memo(() => createKillSwitchControl({ config: settings, logger }));
  return createRiskCheck({
    store: new RiskStore({ tableName: config.eventsTableName, endpoint: config.dynamodbEndpoint }),
    positions: async (deadline) => (await positions({}, deadline)) as PositionsResult,
    killSwitchOn: (changedBy, deadline, mode) => killSwitch().on(changedBy, deadline, mode),
    publish: (events) => outbox.put(events),
    eventId: async (day) => {
      const s = scopeOf(busName, await gateway.sessions.current());
      return eventIds.riskLimitHit([s.deployment, s.uid, s.actid].join('\u0001'), day);
    },
    // Square-off: the market-order protection's rule (a sell below the last price, a buy above it, by the
    // deployment's band, on the instrument's tick), placed through the order core's plain PlaceOrder as an exit.
    exitPrice: exitPriceOn(gateway),
    placeExit: (order, deadline) => placeExit()(order, deadline),
    waiting,
    ...(options.now ? { now: options.now } : {}),
  });
};
