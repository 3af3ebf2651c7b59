/** Observers told how a one-line body ended, as the order core tells them (gateway-handler.ts `orderCore`). */
import { openRecord, type RequestObserver, type RequestRecord } from '../../../functions/orders/gateway/context.js';

/**
 * Runs `body` with a record opened as the core opens it, then tells `observers` (listed outermost first, as the
 * core's list reads from the last: the first listed is told last) how it ended.
 */
export const run = async (
  observers: RequestObserver[],
  body: (context: { gateway: RequestRecord }) => unknown,
  _event: unknown = {},
  state: Partial<RequestRecord> = {},
): Promise<{ result?: unknown; error?: unknown; context: { gateway: RequestRecord } }> => {
  const context = { gateway: { ...openRecord('direct'), ...state } };
  const told = [...observers].reverse();
  try {
    let result = await body(context);
    for (const observer of told) result = observer.after?.(context.gateway, result) ?? result;
    return { result, context };
  } catch (error) {
    for (const observer of told) observer.onError?.(context.gateway, error);
    return { error, context };
  }
};
