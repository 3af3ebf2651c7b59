/**
 * The scheduled runs on this machine (EventBridge Scheduler in AWS): `POST /_local/run/<Name>` runs a function of the
 * manifest that has a schedule once, with its schedule's payload (the session functions; the SignalWorker's sweep,
 * `{"sweep": true}`), and `repeat` runs one every so often without overlapping (npm start's GttWatcher and sweep).
 */
import { fromDirectInvocation } from '../functions/base/contract/errors.js';
import type { FunctionEntry } from '../functions/base/definition/types.js';
import { scheduleOf } from '../functions/manifest/index.js';
import type { LocalHandler, LocalRoute } from './http-api.js';

/** Local routes that run a scheduled function once, as its schedule would. */
export const LOCAL_RUN_PREFIX = '/_local/run/';

/** A scheduled function behind a local route: its result as JSON, or its error in the error contract (as it threw it). */
const scheduledRun =
  (handler: LocalHandler, input: unknown): LocalHandler =>
  async (_event, context) => {
    try {
      const result = await handler(input, context);
      return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(result) };
    } catch (error) {
      const failure = fromDirectInvocation(error);
      return {
        statusCode: failure.status,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ error: failure.toBody() }),
      };
    }
  };

/** `POST /_local/run/<Name>` for each function of `functions` with a schedule that runs here. */
export const scheduledRoutes = (
  handlers: ReadonlyMap<string, LocalHandler>,
  functions: readonly FunctionEntry[],
): LocalRoute[] =>
  functions.flatMap((f) => {
    const schedule = scheduleOf(f);
    const handler = handlers.get(f.name);
    return schedule && handler
      ? [
          {
            method: 'POST',
            path: `${LOCAL_RUN_PREFIX}${f.name}`,
            name: f.name,
            handler: scheduledRun(handler, schedule.input),
          },
        ]
      : [];
  });

/**
 * Runs `run` now, then `intervalMs` after each run ended: runs never overlap. `stop` ends the loop and waits for the
 * run under way.
 */
export const repeat = (intervalMs: number, run: () => Promise<unknown>, onError?: (error: unknown) => void) => {
  let on = true;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const loop = () => {
    if (!on) return;
    running = run()
      .catch((error: unknown) => onError?.(error))
      .finally(() => {
        if (on) timer = setTimeout(loop, intervalMs);
      });
  };
  loop();
  return {
    stop: async () => {
      on = false;
      clearTimeout(timer);
      await running;
    },
  };
};
