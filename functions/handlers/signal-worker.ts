// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// The signal worker: acts on each queued signal as its strategy says, and records what became of it
import { logger } from '../base/runtime/logger.js';
import { createSignalWorker } from '../signals/worker.js';

export const handler = createSignalWorker({ logger });
