// Lambda entry point: the scheduled GttWatcher (functions/watcher/): publishes GTT changes seen at the broker.
import { logger } from '../runtime/logger.js';
import { createGttWatcher } from '../watcher/function.js';

export const handler = createGttWatcher({ logger });
