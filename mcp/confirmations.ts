/**
 * Preview, then confirm once: a write tool stores the exact request it previewed under a new confirmationId, bound
 * to the SHA-256 hash of that request's canonical JSON, valid for two minutes. A confirm first reads it (`peek`:
 * an unknown, expired, altered or another's id is refused there and nothing is marked), then `take`s it: only one
 * caller ever takes it first, and only that confirm may send; its answer is kept (`settle`) and every later confirm
 * of the id replays that answer, sending nothing. The store is small and async so a DynamoDB one can serve a
 * stateless server.
 */
import { createHash, randomUUID } from 'node:crypto';

import type { GatewayRequest } from './port.js';

/** How long a preview may be confirmed. */
export const CONFIRMATION_TTL_MS = 120_000;

/** JSON with object keys sorted at every depth: the same request always gives the same text. */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
};

/** The SHA-256 (hex) of the request's canonical JSON. */
export const requestHash = (request: GatewayRequest): string =>
  createHash('sha256').update(canonicalJson(request)).digest('hex');

export interface Confirmation {
  id: string;
  /** requestHash(request) when the preview was made. */
  hash: string;
  request: GatewayRequest;
  summary: string;
  /** Epoch ms after which the id is refused. */
  expiresAt: number;
  /** The assistant that asked for the preview, when the server knows it. */
  assistant?: string;
}

/** The first confirm's answer, kept so that every later confirm of the id replays it. */
export interface SettledAnswer {
  structuredContent: Record<string, unknown>;
  isError: boolean;
}

/**
 * What taking (or peeking at) an id found: its first use (the one confirm that may send), a later use (replay the
 * first's answer, once it is settled), or nothing usable.
 */
export type Taken =
  | { state: 'first'; confirmation: Confirmation }
  | { state: 'again'; confirmation: Confirmation; answer?: SettledAnswer }
  | { state: 'expired' }
  | { state: 'unknown' };

export interface ConfirmationStore {
  put(confirmation: Confirmation): Promise<void>;
  /** What `take` would answer now, marking nothing: a refused confirm leaves the id as it was. */
  peek(id: string, now: number): Promise<Taken>;
  /** Marks the id used and answers what it was; atomic, so only one caller ever gets `first`. */
  take(id: string, now: number): Promise<Taken>;
  /** Keeps the first confirm's answer (what it sent and got, or why it sent nothing), for the later ones. */
  settle(id: string, answer: SettledAnswer): Promise<void>;
}

/** One process's store (the stdio server): a map, records dropped once expired. */
export class MemoryConfirmationStore implements ConfirmationStore {
  private readonly records = new Map<
    string,
    { confirmation: Confirmation; used: boolean; answer?: SettledAnswer | undefined }
  >();

  put(confirmation: Confirmation): Promise<void> {
    this.records.set(confirmation.id, { confirmation: structuredClone(confirmation), used: false });
    return Promise.resolve();
  }

  peek(id: string, now: number): Promise<Taken> {
    return Promise.resolve(this.find(id, now, false));
  }

  take(id: string, now: number): Promise<Taken> {
    return Promise.resolve(this.find(id, now, true));
  }

  settle(id: string, answer: SettledAnswer): Promise<void> {
    const record = this.records.get(id);
    if (record?.used) record.answer = structuredClone(answer);
    return Promise.resolve();
  }

  private find(id: string, now: number, use: boolean): Taken {
    const record = this.records.get(id);
    this.sweep(now, id);
    if (!record) return { state: 'unknown' };
    if (now > record.confirmation.expiresAt) {
      this.records.delete(id);
      return { state: 'expired' };
    }
    const confirmation = structuredClone(record.confirmation);
    const taken: Taken = record.used
      ? { state: 'again', confirmation, ...(record.answer ? { answer: structuredClone(record.answer) } : {}) }
      : { state: 'first', confirmation };
    if (use) record.used = true;
    return taken;
  }

  /** Drops the expired records other than `keep` (which take answers as expired). */
  private sweep(now: number, keep: string): void {
    for (const [id, record] of this.records)
      if (id !== keep && now > record.confirmation.expiresAt) this.records.delete(id);
  }
}

/** A new confirmation of `request`: a fresh id (a UUID, also the Idempotency-Key the confirm sends). */
export const newConfirmation = (
  request: GatewayRequest,
  summary: string,
  now: number,
  ttlMs: number = CONFIRMATION_TTL_MS,
  assistant?: string,
): Confirmation => ({
  id: randomUUID(),
  hash: requestHash(request),
  request,
  summary,
  expiresAt: now + ttlMs,
  ...(assistant ? { assistant } : {}),
});

/** Why a taken confirmation may not be sent, or undefined when it may: expired, unknown, or its request altered. */
export const refusal = (taken: Taken, expectedHash?: string): string | undefined => {
  if (taken.state === 'unknown')
    return 'No preview has this confirmationId (it was never issued by this server, or it expired and was dropped; over stdio a preview lives in the server process, so a client that starts a server per call cannot confirm): preview the change again.';
  if (taken.state === 'expired')
    return 'This confirmationId expired (a preview is valid for two minutes): preview the change again.';
  const { confirmation } = taken;
  if (requestHash(confirmation.request) !== confirmation.hash)
    return 'The stored request no longer matches the hash it was previewed with: nothing was sent; preview the change again.';
  if (expectedHash !== undefined && expectedHash !== confirmation.hash)
    return "The request changed since it was previewed (its hash differs from this confirmationId's): nothing was sent; preview the new request to get a new confirmationId.";
  return undefined;
};
