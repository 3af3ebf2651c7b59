/**
 * The Assistants function (definition.ts): `POST /assistants` (Idempotency-Key required), `GET /assistants`,
 * `GET /assistants/{assistantId}`, `POST /assistants/{assistantId}/token` (rotate), `DELETE /assistants/{assistantId}`;
 * direct invocation with `{action: "create", idempotencyKey, assistant}`, `{action: "list"}`, `{action: "get" |
 * "rotate" | "delete", assistantId}`. Nothing here reaches the broker.
 *
 * The token (tokens.ts) is shown in the reply that sets it and stored only hashed (store.ts). The same
 * Idempotency-Key again with the same body answers 200 with the same assistant and a NEW token (the token of the
 * reply that was lost cannot be shown again: it is not stored; the one it replaces stops working); with another
 * body, 422. Bad input is refused before anything is written.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import * as z from 'zod';

import { AssistantNotFoundError, IdempotencyKeyReusedError } from '../base/contract/errors.js';
import { validateInput, validationFailed } from '../base/contract/validate-input.js';
import { createRoutedFunction, type RoutedReply } from '../base/middleware/routed-function.js';
import type { RoutedRequest } from '../base/middleware/routed-request.js';
import { parseConfig } from '../base/runtime/config.js';
import { envSchema } from '../base/runtime/env.js';
import { logger as defaultLogger } from '../base/runtime/logger.js';
import { type Assistant, assistantInput } from '../base/schemas/assistants.js';
import { memo } from '../base/schemas/values.js';
import { canonicalInput } from '../orders/safety/idempotency-input.js';
import { ASSISTANTS_ROUTES } from './routes.js';
import { AssistantStore, type StoredAssistant } from './store.js';
import { ASSISTANT_ID, assistantIdOf, newToken, sha256Hex, tokenHash } from './tokens.js';

export const assistantsEnv = envSchema(['dynamodbEndpoint', 'eventsTableName'], {
  overrides: { eventsTableName: z.string().min(3, { error: 'must name the events table' }).max(255) },
});

export interface AssistantsOptions {
  env?: Record<string, string | undefined>;
  logger?: Logger;
}

const assistantIdField = (request: RoutedRequest): string => {
  const id = request.fields.assistantId;
  if (typeof id !== 'string' || !ASSISTANT_ID.test(id))
    throw validationFailed([{ field: 'assistantId', message: 'must be an assistant id (as and 16 hex digits)' }]);
  return id;
};

export const createAssistantsFunction = (options: AssistantsOptions = {}) => {
  const logger = options.logger ?? defaultLogger;
  const config = memo(() => parseConfig(assistantsEnv, options.env, 'assistants'));
  const store = memo(
    () => new AssistantStore({ tableName: config().eventsTableName, endpoint: config().dynamodbEndpoint }),
  );
  const found = async (assistantId: string): Promise<StoredAssistant> => {
    const stored = await store().get(assistantId);
    if (!stored)
      throw new AssistantNotFoundError(`No assistant ${assistantId} (GET /assistants lists them); nothing was done.`);
    return stored;
  };
  const rotate = async (stored: StoredAssistant) => {
    const token = newToken();
    const next = await store().rotate(stored, tokenHash(token), new Date().toISOString());
    if (!next)
      throw validationFailed(
        [{ field: 'assistantId', message: 'its token was rotated or it was deleted meanwhile: read it and try again' }],
        'The assistant changed meanwhile; nothing was done',
      );
    logger.info('assistant token rotated', { assistantId: stored.assistant.assistantId });
    return { ...next.assistant, token };
  };

  const create = async (request: RoutedRequest): Promise<RoutedReply> => {
    const key = request.idempotencyKey!;
    const assistantId = assistantIdOf(key);
    const inputHash = sha256Hex(canonicalInput(request.body));
    const existing = await store().get(assistantId);
    if (existing) {
      if (existing.inputHash !== inputHash)
        throw new IdempotencyKeyReusedError(
          `Idempotency-Key "${key}" already created assistant ${assistantId} with another body; use a new key for a new assistant.`,
          { outcome: 'not_executed' },
        );
      return { status: 200, body: { ...(await rotate(existing)), idempotency: { key, replayed: true } } };
    }
    // A key already used answers as its first request did (another body: 422, whatever this one holds); a new one's
    // input is checked whole before anything is written.
    const input = validateInput(assistantInput, request.body);
    const now = new Date().toISOString();
    const assistant: Assistant = { ...input, assistantId, createdAt: now, tokenSetAt: now };
    const token = newToken();
    // A concurrent create with the same key won: answer as its retry would.
    if (!(await store().create({ assistant, tokenHash: tokenHash(token), inputHash }))) return create(request);
    logger.info('assistant created', { assistantId, name: assistant.name, scopes: assistant.scopes });
    return { body: { ...assistant, token, idempotency: { key, replayed: false } } };
  };

  const run = async (request: RoutedRequest): Promise<RoutedReply> => {
    switch (request.route.action) {
      case 'create':
        return create(request);
      case 'list':
        return { body: { assistants: await store().list() } };
      case 'get':
        return { body: (await found(assistantIdField(request))).assistant };
      case 'rotate':
        return { body: await rotate(await found(assistantIdField(request))) };
      default: {
        const stored = await found(assistantIdField(request));
        await store().remove(stored);
        logger.info('assistant deleted', { assistantId: stored.assistant.assistantId });
        return { body: { assistantId: stored.assistant.assistantId, deleted: true } };
      }
    }
  };
  return createRoutedFunction(ASSISTANTS_ROUTES, (request) => run(request), { logger });
};
