// Lambda entry point: the scheduled GttWatcher (functions/watcher/): publishes GTT changes seen at the broker.
import { createGttWatcher } from '../watcher/function.js';
import { logger } from '../runtime/logger.js';

export const handler = createGttWatcher({ logger });
