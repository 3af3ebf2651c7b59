/**
 * `Session Renewed` on the lifecycle bus after a session function wrote a new token (when the configuration names a bus, `eventBusName`).
 * Its eventId is the secret version's: a retried publish of one renewal is one event. A failed publish is logged and
 * does not fail the renewal: the token is in the secret either way. Nothing of the session but its method is sent.
 */
import type { Logger } from '@aws-lambda-powertools/logger';

import { createEventPublisher } from '../base/aws/publisher.js';
import { writeLog } from '../base/runtime/logger.js';
import { eventIds } from '../events/core/views.js';
import type { SessionConfig } from './config.js';

export const publishSessionRenewed = async (
  config: SessionConfig,
  method: 'oauth' | 'flattrade' | 'totp',
  versionId: string,
  logger: Logger,
): Promise<void> => {
  if (!config.eventBusName) return;
  const eventId = eventIds.sessionRenewed(versionId);
  const result = await createEventPublisher({
    busName: config.eventBusName,
    endpoint: config.eventbridgeEndpoint,
  }).publish([
    {
      detailType: 'Session Renewed',
      detail: { eventId, observedAt: new Date().toISOString(), origin: 'gateway', method },
    },
  ]);
  if (result.failed.length)
    writeLog(logger, 'error', 'Session Renewed not published', { eventId, reason: result.failed[0]!.reason });
};
