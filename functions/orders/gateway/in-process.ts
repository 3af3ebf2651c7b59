/**
 * The operation table's entries called in-process by another function (plans, signals, the kill switch's sweep):
 * each is the order core itself (gateway-handler.ts `orderCore`), with the deployment's journal, order-rate
 * governor, kill switch, leases, copies and lifecycle events, so nothing a caller of the API would meet is skipped,
 * and the caller's own deadline: no Lambda shell, no made-up Lambda context. A failure is the typed GatewayError
 * (redacted), never a JSON body to parse back. The broker reads of the caller's own (SearchScrip, GetQuotes) get
 * deps whose timeout ends before the deadline.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Metrics } from '@aws-lambda-powertools/metrics';

import type { BrokerCallDeps } from '../../base/broker/call-broker.js';
import type { SessionSource } from '../../base/broker/session.js';
import type { AnyOperation } from '../../base/contract/operation.js';
import { contractError } from '../../base/middleware/error-contract.js';
import { type GatewayConfig, type GatewaySettings, parseGatewayConfig } from '../../base/runtime/config.js';
import { functionMetrics } from '../../base/runtime/metrics.js';
import { createGatewayEvents } from '../../events/core/producer.js';
import { dynamoInstrumentCopy } from '../instruments/copy.js';
import { dynamoJournal } from '../journal-factory.js';
import { dynamoTradingControls } from '../safety/trading-controls.js';
import { brokerDeps } from './broker-deps.js';
import {
  buildCollaborators,
  type CollaboratorFactories,
  dynamoLeases,
  dynamoOrderCopy,
  sessionSource,
} from './collaborators.js';
import { orderCore } from './gateway-handler.js';

/** A table entry called in-process, with the epoch ms by which the call must end; its typed error on failure. */
export type DirectHandler = (input: Record<string, unknown>, deadline: number) => Promise<unknown>;

export interface InProcessGateway {
  config: GatewayConfig;
  metrics: Metrics;
  sessions: SessionSource;
  /** The entry's core with this function's collaborators (build it once per container). */
  direct: (operation: AnyOperation) => DirectHandler;
  /** The deps of a broker read of one's own, its timeout ending a second before the deadline. */
  reads: (deadline: number) => BrokerCallDeps;
}

/** Every collaborator an in-process caller may need, as deployed (the events published directly: no outbox). */
const IN_PROCESS: Required<CollaboratorFactories> = {
  journal: dynamoJournal,
  controls: dynamoTradingControls,
  instruments: dynamoInstrumentCopy,
  events: createGatewayEvents,
  leases: dynamoLeases,
  copy: dynamoOrderCopy,
};

/** The wiring for a function named `name` (its metrics' `Function` dimension). */
export const inProcessGateway = (settings: GatewaySettings, logger: Logger, name: string): InProcessGateway => {
  const config = parseGatewayConfig(settings);
  const metrics = functionMetrics(name);
  const sessions = sessionSource(config);
  return {
    config,
    metrics,
    sessions,
    direct: (operation) => {
      let built: ReturnType<typeof buildCollaborators> | undefined;
      const parts = () => (built ??= buildCollaborators(operation, config, IN_PROCESS, sessions));
      const core = orderCore(operation, parts, logger, metrics);
      return async (input, deadline) => {
        try {
          return await core(input, deadline);
        } catch (error) {
          // The error contract's last net (redacted), as the typed error itself.
          throw contractError(error, 'api');
        } finally {
          if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
        }
      };
    },
    reads: (deadline) =>
      brokerDeps(config, { session: () => sessions.current(), refreshSession: () => sessions.refresh() }, deadline),
  };
};
