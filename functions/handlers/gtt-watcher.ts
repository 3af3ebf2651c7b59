// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// GttWatcher: publishes GTT changes seen at the broker (pending list, triggered history) and runs the plans
import { logger } from '../base/runtime/logger.js';
import { createGttWatcher } from '../events/watcher/function.js';

export const handler = createGttWatcher({ logger });
