/**
 * A PlanEngine wired to one deployment: the operation table's entries in-process on the shared stack (idempotency,
 * governor, events), the events table for the plans and their events' markers, the bus, the broker for prices.
 * Built by the Plans function (the routes) and the watcher (the steps), from the same environment.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { MetricUnit } from '@aws-lambda-powertools/metrics';

import { freezeQuantity, priceBand } from '../base/broker/market.js';
import { ConfigurationError } from '../base/contract/errors.js';
import type { GatewaySettings } from '../base/runtime/config.js';
import { envName } from '../base/runtime/env.js';
import { writeLog } from '../base/runtime/logger.js';
import { OutboxTable } from '../events/core/outbox.js';
import { scopeOf } from '../events/core/views.js';
import { inProcessGateway } from '../orders/gateway/in-process.js';
import { chainsFromCopy } from '../orders/instruments/chain-copy.js';
import { dynamoInstrumentCopy } from '../orders/instruments/copy.js';
import { DEFAULT_EXPIRY_CUTOFF_MINUTES, type OptionChains } from '../orders/instruments/option-pick.js';
import {
  cancelGttOrder,
  getOrderBook,
  getPendingGttOrders,
  getTriggeredGttOrders,
  modifyGttOrder,
  placeGttOrder,
  placeOcoOrder,
} from '../orders/operations.js';
import { placeOrder } from '../orders/plain-order-operation.js';
import { PlanEngine } from './engine.js';
import { instrument, lastPrice } from './quotes.js';
import { PlanStore } from './store.js';

/** A deployment without the instruments' copy has no chains: an option plan says which setting it needs. */
const noChains = (): Promise<never> =>
  Promise.reject(
    new ConfigurationError(
      `Option plans read the day's option chains from the instruments' copy (${envName('instrumentsTableName')}), which this deployment does not set.`,
      { outcome: 'not_executed' },
    ),
  );
const NO_CHAINS: OptionChains = { expiries: noChains, chain: noChains };

export const createPlanEngine = (settings: GatewaySettings, logger: Logger): PlanEngine => {
  const gateway = inProcessGateway(settings, logger, 'Plans');
  const { config, metrics, sessions, direct, reads } = gateway;
  if (!config.eventsTableName || !config.eventBusName || !config.idempotencyTableName)
    throw new ConfigurationError(
      `Plans need the events table, the bus and the idempotency table, which holds their outbox (${(['eventsTableName', 'eventBusName', 'idempotencyTableName'] as const).map(envName).join(', ')}).`,
    );
  const outbox = new OutboxTable({ tableName: config.idempotencyTableName, endpoint: config.dynamodbEndpoint });
  const busName = config.eventBusName;
  return new PlanEngine({
    store: new PlanStore({ tableName: config.eventsTableName, endpoint: config.dynamodbEndpoint }),
    place: direct(placeGttOrder),
    placeOco: direct(placeOcoOrder),
    modify: direct(modifyGttOrder),
    cancel: direct(cancelGttOrder),
    pending: direct(getPendingGttOrders),
    triggered: direct(getTriggeredGttOrders),
    instrument: (exch, tsym, deadline) => instrument(exch, tsym, reads(deadline)),
    lastPrice: (exch, tsym, deadline) => lastPrice(exch, tsym, reads(deadline)),
    placeOrder: direct(placeOrder),
    orderBook: direct(getOrderBook),
    chains: config.instrumentsTableName
      ? chainsFromCopy(
          dynamoInstrumentCopy({
            instrumentsTableName: config.instrumentsTableName,
            dynamodbEndpoint: config.dynamodbEndpoint,
          }),
        )
      : NO_CHAINS,
    band: (exch, token, deadline) => priceBand(exch, token, reads(deadline)),
    freeze: (exch, token, deadline) => freezeQuantity(exch, token, reads(deadline)),
    expiryCutoffMinutes: config.optionEntryCutoffMinutes ?? DEFAULT_EXPIRY_CUTOFF_MINUTES,
    protectionPercent: config.marketProtectionPercent,
    // The plan's events go through the same outbox as the order events: the EventForwarder publishes them at least
    // once and records them for GET /events.
    publish: (events) => outbox.put(events),
    warn: (message, fields) => {
      writeLog(logger, 'warn', message, fields);
      if (typeof fields.metric === 'string') metrics.addMetric(fields.metric, MetricUnit.Count, 1);
    },
    scope: async () => {
      const s = scopeOf(busName, await sessions.current());
      return [s.deployment, s.uid, s.actid].join('\u0001');
    },
  });
};
