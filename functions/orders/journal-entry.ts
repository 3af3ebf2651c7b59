/** The journal's item (journal.ts) as this code reads it: its stored outcome, its entry, the hashes of its keys. */
import { createHash } from 'node:crypto';

import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

import type { ErrorBody } from '../base/contract/errors.js';

export type Stored =
  | { kind: 'ok'; result: unknown; outbox?: unknown }
  | { kind: 'unknown'; error: ErrorBody }
  /**
   * Refused after the write landed (the kill switch went on meanwhile, an OCO held otherwise than asked; the order
   * cancelled, or its cancel failed): replayed as is.
   */
  | { kind: 'refused'; error: ErrorBody };

export interface Entry {
  status: 'INPROGRESS' | 'COMPLETED' | 'UNKNOWN';
  validation?: string;
  /** The sender's deadline (ms). */
  inProgressUntil: number;
  landBy: number;
  attempt: number;
  stamp?: string;
  data?: Stored;
}

export const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** Objects with their keys sorted, at any depth: the hash of a body does not depend on its key order. */
export const deepSort = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(deepSort);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, deepSort((value as Record<string, unknown>)[key])]),
    );
  return value;
};

export const entryOf = (item: Record<string, AttributeValue>, lateWindowMs: number): Entry => {
  const inProgressUntil = Number(item.in_progress_expiration?.N ?? '0');
  return {
    status: (item.status?.S ?? 'INPROGRESS') as Entry['status'],
    ...(item.validation?.S ? { validation: item.validation.S } : {}),
    inProgressUntil,
    // A record of Powertools' own (before this journal) has neither: its sender's deadline plus the late window.
    landBy: Number(item.landBy?.N ?? inProgressUntil + lateWindowMs),
    attempt: Number(item.attempt?.N ?? '0'),
    ...(item.stamp?.S ? { stamp: item.stamp.S } : {}),
    ...(item.data?.M ? { data: unmarshall({ d: item.data } as Record<string, AttributeValue>).d as Stored } : {}),
  };
};
