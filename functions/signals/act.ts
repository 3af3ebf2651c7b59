/**
 * The part that acts on a signal (replaced by the full one at merge: symbols, prices, orders, plans, cancel, the
 * kill switch, paper mode). On this branch it refuses every signal, so the worker's wiring compiles and runs.
 */
import type { Logger } from '@aws-lambda-powertools/logger';

import type { GatewaySettings } from '../runtime/config.js';
import type { SignalActor } from './actor.js';

export const createSignalActor =
  (_settings: GatewaySettings, _logger: Logger): SignalActor =>
  () =>
    Promise.resolve({ state: 'refused', reason: 'acting is not built on this branch' });
