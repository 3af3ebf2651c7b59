/** The routes of the Assistants function (docs/reference/assistants.md, "Assistant tokens"): what its code reads. */
import { ownRoute as route } from '../base/definition/routes.js';
import type { FunctionSurface } from '../base/definition/types.js';
import {
  assistantDeleted,
  assistantInput,
  assistantList,
  assistantRecord,
  assistantWithToken,
} from '../base/schemas/assistants.js';

/** An assistant that may place orders of at most 10 shares and ₹50,000 each, 20 a day, on NSE. */
export const EXAMPLE_ASSISTANT = {
  name: 'claude-desktop',
  scopes: ['read', 'trade'],
  limits: { maxQtyPerOrder: 10, maxValuePerOrder: 50_000, maxOrdersPerDay: 20, exchanges: ['NSE'] },
} as const;
export const EXAMPLE_ASSISTANT_ID = 'as0123456789abcdef';

const idParam = { assistantId: 'assistantId' } as const;
const idExample = { path: { assistantId: EXAMPLE_ASSISTANT_ID } };

export const ASSISTANTS_ROUTES: FunctionSurface = {
  name: 'Assistants',
  routes: [
    route({
      method: 'POST',
      path: '/assistants',
      operationId: 'CreateAssistant',
      action: 'create',
      directBody: 'assistant',
      summary:
        'Create an assistant for the MCP server: {"name", "scopes": ["read"] | ["read", "trade"] | ["read", "exit"] (exit: cancels, trigger and price changes, and orders that only reduce an open position), "limits"?: {"maxQtyPerOrder"?, "maxValuePerOrder"? (rupees), "maxOrdersPerDay"?, "exchanges"?}}. 201 with assistantId and its bearer token (gtta_…), shown this once; the same key again: 200, the same assistant with a new token.',
      result: assistantWithToken,
      body: true,
      bodySchema: assistantInput,
      idempotencyKey: 'required',
      successStatus: 201,
      kind: 'control',
      retrySafe: true,
      example: { body: EXAMPLE_ASSISTANT },
    }),
    route({
      method: 'GET',
      path: '/assistants',
      operationId: 'ListAssistants',
      action: 'list',
      summary: 'The assistants of this deployment, with their scopes and limits (no tokens: they are shown once)',
      result: assistantList,
      kind: 'read',
      retrySafe: true,
    }),
    route({
      method: 'GET',
      path: '/assistants/{assistantId}',
      operationId: 'GetAssistant',
      action: 'get',
      summary: 'One assistant (its token is never shown again: rotate it for a new one)',
      result: assistantRecord,
      pathParams: idParam,
      kind: 'read',
      retrySafe: true,
      example: idExample,
    }),
    route({
      method: 'POST',
      path: '/assistants/{assistantId}/token',
      operationId: 'RotateAssistantToken',
      action: 'rotate',
      summary: 'A new token for the assistant (shown once); the old one stops working at once',
      result: assistantWithToken.omit({ idempotency: true }),
      pathParams: idParam,
      kind: 'control',
      retrySafe: true,
      example: idExample,
    }),
    route({
      method: 'DELETE',
      path: '/assistants/{assistantId}',
      operationId: 'DeleteAssistant',
      action: 'delete',
      summary: 'Delete an assistant: its token stops working at once',
      result: assistantDeleted,
      pathParams: idParam,
      kind: 'control',
      retrySafe: true,
      example: idExample,
    }),
  ],
  direct: { example: { action: 'list' } },
};
