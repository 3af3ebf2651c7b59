/**
 * Assistants: an AI assistant's identity on this deployment (docs/reference/assistants.md, "Assistant tokens"). The trader
 * creates one over IAM (`POST /assistants`) with a name, its scopes and its limits; its bearer token is shown once and
 * stored only hashed. The remote MCP endpoint finds an assistant by its token and holds each order to its limits.
 */
import * as z from 'zod';

import { EXCHANGES } from './fields.js';

/**
 * `read`: the read tools only. `trade`: the write tools too (always with `read`). `exit`: the write tools held to the
 * exit-only rule (exit-only.ts): cancels, changes of triggers and prices, and orders that only reduce an open position
 * (always with `read`, never with `trade`).
 */
export const ASSISTANT_SCOPES = ['read', 'trade', 'exit'] as const;
export type AssistantScope = (typeof ASSISTANT_SCOPES)[number];

/** An assistant's name: what its events and audit records show (printable text only, never instructions). */
export const ASSISTANT_NAME = /^[\p{L}\p{N} _.:/()@+-]+$/u;

const positive = (field: string, what: string) =>
  z
    .number({ error: `limits.${field} must be a positive whole number (${what})` })
    .int({ error: `limits.${field} must be a positive whole number (${what})` })
    .positive({ error: `limits.${field} must be a positive whole number (${what})` })
    .max(Number.MAX_SAFE_INTEGER);

/** What an assistant may do at most; an absent limit is no limit of the assistant's (the deployment's guardrails hold). */
export const assistantLimits = z.strictObject({
  maxQtyPerOrder: positive('maxQtyPerOrder', 'shares or units per order').optional(),
  maxValuePerOrder: positive('maxValuePerOrder', 'rupees: quantity × price').optional(),
  maxOrdersPerDay: positive('maxOrdersPerDay', 'orders placed per India day').optional(),
  exchanges: z
    .array(z.enum(EXCHANGES, { error: `limits.exchanges may name ${EXCHANGES.join(', ')} only` }))
    .min(1, { error: 'limits.exchanges must name at least one exchange (omit it for any)' })
    .max(EXCHANGES.length)
    .refine((list) => new Set(list).size === list.length, { error: 'limits.exchanges must not repeat an exchange' })
    .optional(),
});
export type AssistantLimits = z.output<typeof assistantLimits>;

/** `POST /assistants`. */
export const assistantInput = z.strictObject({
  name: z
    .string({ error: 'name must be a string' })
    .min(1, { error: 'name must not be empty' })
    .max(64, { error: 'name must be at most 64 characters' })
    .regex(ASSISTANT_NAME, { error: 'name may hold letters, digits, spaces and _ . : / ( ) @ + - only' }),
  scopes: z
    .array(z.enum(ASSISTANT_SCOPES, { error: 'scopes may hold read, trade and exit only' }), {
      error: 'scopes must be ["read"], ["read", "trade"] or ["read", "exit"]',
    })
    .min(1, { error: 'scopes must be ["read"], ["read", "trade"] or ["read", "exit"]' })
    .max(ASSISTANT_SCOPES.length)
    .refine((list) => list.includes('read'), { error: 'scopes must include read (a trade assistant reads too)' })
    .refine((list) => new Set(list).size === list.length, { error: 'scopes must not repeat a scope' })
    .refine((list) => !(list.includes('trade') && list.includes('exit')), {
      error: 'scopes may hold trade or exit, not both (exit is trade held to reducing open positions)',
    }),
  limits: assistantLimits.default({}),
});
export type AssistantInput = z.output<typeof assistantInput>;

/** An assistant as stored and shown: never its token nor the token's hash. */
export interface Assistant extends AssistantInput {
  assistantId: string;
  createdAt: string;
  /** When its token was last set (created or rotated). */
  tokenSetAt: string;
}

export const assistantRecord = z.object({
  assistantId: z.string().describe('as and 16 hex digits'),
  name: z.string(),
  scopes: z.array(z.enum(ASSISTANT_SCOPES)),
  limits: z.object({
    maxQtyPerOrder: z.number().int().optional(),
    maxValuePerOrder: z.number().int().optional().describe('rupees'),
    maxOrdersPerDay: z.number().int().optional(),
    exchanges: z.array(z.enum(EXCHANGES)).optional(),
  }),
  createdAt: z.string(),
  tokenSetAt: z.string().describe('when its token was last set (created or rotated)'),
});
export const assistantWithToken = assistantRecord.extend({
  token: z
    .string()
    .describe('the bearer token (gtta_ and 43 characters): shown in this reply only, never again; store it now'),
  idempotency: z.object({ key: z.string(), replayed: z.boolean() }).optional(),
});
export const assistantList = z.object({ assistants: z.array(assistantRecord) });
export const assistantDeleted = z.object({ assistantId: z.string(), deleted: z.literal(true) });
