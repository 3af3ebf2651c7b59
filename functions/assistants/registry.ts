/**
 * What the remote MCP function uses of the assistants (its face): an assistant found by its bearer token, the limits
 * an order is held to, and the day's order counter.
 *
 * `assistantForToken` never throws on what a caller sends: anything but a string of a token's exact shape (`gtta_` and
 * 43 base64url characters) is refused before it is hashed or looked up. A token is found by its hash in one
 * consistent GetItem and the stored hash compared in constant time; a rotated or deleted assistant's token finds
 * nothing at once. A failure of DynamoDB itself is thrown (the caller refuses the request: it fails closed).
 */
import type { Assistant, AssistantLimits, AssistantScope } from '../base/schemas/assistants.js';
import { AssistantStore } from './store.js';
import { isTokenShaped, tokenHash } from './tokens.js';

export { checkLimits, type LimitedOrder } from '../base/schemas/assistant-limits.js';

/** Who is calling: what the MCP function needs of the assistant, never its token or the token's hash. */
export interface AssistantIdentity {
  assistantId: string;
  name: string;
  scopes: AssistantScope[];
  limits: AssistantLimits;
}

const identityOf = (a: Assistant): AssistantIdentity => ({
  assistantId: a.assistantId,
  name: a.name,
  scopes: [...a.scopes],
  limits: { ...a.limits },
});

export interface AssistantRegistry {
  /** The assistant whose token this is, or undefined (junk, a wrong, rotated or deleted assistant's token). */
  assistantForToken(token: unknown): Promise<AssistantIdentity | undefined>;
  /** The orders the assistant placed today (India day), for `checkLimits`. */
  ordersToday(assistantId: string, now?: number): Promise<number>;
  /**
   * Counts one order placed today, only while under the assistant's `maxOrdersPerDay` (a conditional ADD, so two
   * confirms at once cannot both take the last one): the day's count with it, or undefined when the limit is reached.
   */
  countOrder(assistant: AssistantIdentity, now?: number): Promise<number | undefined>;
}

export const createAssistantRegistry = (options: {
  tableName: string;
  endpoint?: string | undefined;
}): AssistantRegistry => {
  const store = new AssistantStore(options);
  return {
    assistantForToken: async (token) => {
      if (!isTokenShaped(token)) return undefined;
      const found = await store.byTokenHash(tokenHash(token));
      return found ? identityOf(found) : undefined;
    },
    ordersToday: (assistantId, now = Date.now()) => store.ordersOn(assistantId, now),
    countOrder: (assistant, now = Date.now()) =>
      store.countOrder(assistant.assistantId, assistant.limits.maxOrdersPerDay, now),
  };
};
