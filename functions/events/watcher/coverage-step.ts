/**
 * The watcher's coverage step (functions/risk/coverage-watch.ts, docs/explanation/coverage.md): with coverage on,
 * each run matches every open position with its exits (and, with autoCover, covers it once), and publishes each
 * `Position Unprotected` whose id no earlier run published, marking it as the watcher marks its own events (and
 * keeping it in the account's history, GET /events). A failure is logged, never the watcher's own run's failure.
 */
import type { Logger } from '@aws-lambda-powertools/logger';

import type { EventPublisher } from '../../base/aws/publisher.js';
import { toGatewayError } from '../../base/contract/errors.js';
import { writeLog } from '../../base/runtime/logger.js';
import { type CoverageDeps, watchCoverage } from '../../risk/coverage-watch.js';
import type { EventsTable } from '../core/store.js';

export interface CoverageStepRun {
  checked: number;
  unprotected: number;
  published: string[];
  error?: string;
}

export const runCoverageStep = async (
  deps: { coverage: CoverageDeps; table: EventsTable; publisher: EventPublisher; logger: Logger },
  deadline: number,
): Promise<CoverageStepRun | undefined> => {
  try {
    const run = await watchCoverage(deps.coverage, deadline);
    if (!run) return undefined;
    const seen = run.events.length
      ? await deps.table.publishedAmong(run.events.map((e) => e.detail.eventId))
      : new Set<string>();
    const fresh = run.events.filter((e) => !seen.has(e.detail.eventId));
    const published: string[] = [];
    if (fresh.length) {
      const result = await deps.publisher.publish(fresh);
      const accepted = new Set(result.published);
      const sent = fresh.filter((e) => accepted.has(e.detail.eventId));
      if (sent.length) await deps.table.markPublished(sent);
      published.push(...sent.map((e) => e.detail.eventId));
      for (const e of sent) writeLog(deps.logger, 'warn', 'position unprotected', { ...e.detail });
      if (result.failed.length)
        writeLog(deps.logger, 'error', 'Position Unprotected not published; the next run tries again', {
          reason: result.failed[0]!.reason,
        });
    }
    return { checked: run.checked, unprotected: run.events.length, published };
  } catch (error) {
    const failure = toGatewayError(error);
    writeLog(deps.logger, 'error', 'coverage not checked this run', { code: failure.code, message: failure.message });
    return { checked: 0, unprotected: 0, published: [], error: failure.code };
  }
};
