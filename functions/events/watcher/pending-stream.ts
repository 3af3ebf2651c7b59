/**
 * The GttWatcher's read of the broker's pending list, record by record as it arrives (the transport cuts the JSON
 * array into elements: base/broker/json-records.ts), compared with the snapshot by the hash of each record's text:
 *
 * - a record whose text hashes to what the snapshot holds for its al_id (`recordHash`) is unchanged: it is neither
 *   read in its dialect nor checked again (it was, when that text was first seen), and only its id and hash are kept;
 * - any other record is read and checked as the operation table's GetPendingGTTOrder reads it (a failure fails the
 *   read with BROKER_BAD_REPLY, as the operation does) and kept normalised, for the diff and the copy.
 *
 * So a cycle where nothing changed holds the snapshot's keys and hashes, not the list's records, and spends per order
 * one JSON.parse and one hash. The snapshot (the state's Query) and the list are read in parallel: records that
 * arrive before the snapshot is there wait as their text and are compared when it is (`attach`).
 */
import { hash as oneShotHash } from 'node:crypto';

import { normaliseOrder } from '../../base/broker/order-records.js';
import { checkRecord, type ListDecoder, recordSchema } from '../../base/broker/reply.js';
import { BrokerBadReplyError } from '../../base/contract/errors.js';
import type { GttOrder, PendingOrderRecord } from '../../base/schemas/reply.js';
import { isRecord } from '../../base/schemas/values.js';
import type { KnownOrder } from '../../orders/events/watcher-items.js';
import { getPendingGttOrders } from '../../orders/operations.js';

/** A listed order: unchanged since the snapshot (`al_id` and hash only), or read and normalised. */
export type ListedOrder = GttOrder | { al_id: string; unchanged: true };

/** The hash of a record's text as the broker listed it: the copy is written again only when it changes. */
export const recordHashOfText = (text: string): string =>
  // One-shot (no Hash object per record): the same sha256 as before, so the stored hashes stay valid.
  oneShotHash('sha256', text, 'base64url').slice(0, 22);

/** A record's al_id in any key case, as text (a whole number is read as its digits), or undefined. */
export const listedIdOf = (record: unknown): string | undefined => {
  if (!isRecord(record)) return undefined;
  let value = record.al_id;
  if (value === undefined) {
    for (const key of Object.keys(record)) if (key.toLowerCase() === 'al_id') value = record[key];
  }
  if (typeof value === 'string') return value;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
};

type Issue = { path: string; message: string };

export class PendingStream {
  /** What was listed, in the list's order. */
  readonly listed: ListedOrder[] = [];
  /** The hash of each read record's text (for its order item's `recordHash`). */
  private readonly hashes = new WeakMap<GttOrder, string>();
  private readonly issues: Issue[] = [];
  private snapshot: Readonly<Record<string, KnownOrder>> | undefined;
  /** Records that arrived before the snapshot: their id and hash, and their text (parsed again only if changed). */
  private waiting: { id: string | undefined; hash: string; text: string; index: number }[] = [];
  private readonly schema = recordSchema(getPendingGttOrders);
  /** True once the list arrived as an array (a "no data" reply or an error is the operation's, not ours). */
  private arrived = false;

  /** The sink the broker call reads the list with. */
  decoder(): ListDecoder {
    return {
      records: [],
      issues: [],
      onRecord: (record, index, text) => this.take(record, index, text),
      finish: () => {
        this.arrived = true;
        return { orders: [] };
      },
    };
  }

  /** The snapshot the records are compared with; the records that waited for it are compared now. */
  attach(orders: Readonly<Record<string, KnownOrder>>): void {
    this.snapshot = orders;
    const waiting = this.waiting;
    this.waiting = [];
    for (const { id, hash, text, index } of waiting) {
      if (this.unchanged(id, hash)) continue;
      this.take(JSON.parse(text), index, text);
    }
  }

  /** The listed orders (after `attach`), or BROKER_BAD_REPLY as the operation would answer it. */
  orders(): ListedOrder[] {
    if (!this.arrived) return [];
    if (this.issues.length) {
      throw new BrokerBadReplyError(`The broker's GetPendingGTTOrder reply does not have the documented shape.`, {
        details: { httpStatus: 200, issues: this.issues },
      });
    }
    return this.listed;
  }

  /** The hash of a read record's text. */
  hashOf(order: GttOrder): string | undefined {
    return this.hashes.get(order);
  }

  /** Whether the snapshot holds this record's text (by its hash): if so it is listed by id only. */
  private unchanged(id: string | undefined, hash: string): boolean {
    if (id === undefined || this.issues.length || this.snapshot?.[id]?.recordHash !== hash) return false;
    this.listed.push({ al_id: id, unchanged: true });
    return true;
  }

  private take(record: unknown, index: number, text: string): void {
    if (this.issues.length) {
      // The read fails: the rest are only looked at for the first issues.
      checkRecord(this.schema, record, index, this.issues);
      return;
    }
    const hash = recordHashOfText(text);
    const id = listedIdOf(record);
    if (!this.snapshot) {
      // Its id and hash now (the record is parsed already), so an unchanged one is not parsed again on `attach`.
      this.waiting.push({ id, hash, text, index });
      return;
    }
    if (this.unchanged(id, hash)) return;
    const checked = checkRecord(this.schema, record, index, this.issues);
    if (!checked.ok) {
      this.listed.length = 0;
      return;
    }
    const order = normaliseOrder(checked.data as PendingOrderRecord) as GttOrder;
    this.hashes.set(order, hash);
    this.listed.push(order);
  }
}
