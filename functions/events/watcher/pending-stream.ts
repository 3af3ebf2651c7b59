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
 * one hash: the transport hands the records' bytes undecoded, and only a record whose text the snapshot does not hold
 * is decoded and parsed (its text holds its al_id, so a known text names its order). The snapshot (the state's Query) and the list are read in parallel: records that
 * arrive before the snapshot is there wait as their text and are compared when it is (`attach`).
 */
import { hash as oneShotHash } from 'node:crypto';

import { normaliseOrder } from '../../base/broker/order-records.js';
import { checkRecord, type ListDecoder, recordSchema } from '../../base/broker/reply.js';
import { BrokerBadReplyError } from '../../base/contract/errors.js';
import type { GttOrder, PendingOrderRecord } from '../../base/schemas/reply.js';
import { getPendingGttOrders } from '../../orders/operations.js';
import type { KnownOrder } from '../core/watcher-items.js';

/** A listed order: unchanged since the snapshot (`al_id` and hash only), or read and normalised. */
export type ListedOrder = GttOrder | { al_id: string; unchanged: true };

/**
 * The hash of a record's text as the broker listed it (of its UTF-8 bytes, the same thing): the copy is written again
 * only when it changes. One-shot (no Hash object per record).
 */
export const recordHashOfText = (text: string | Buffer): string =>
  oneShotHash('sha256', text, 'base64url').slice(0, 22);

type Issue = { path: string; message: string };

export class PendingStream {
  /** What was listed, in the list's order. */
  readonly listed: ListedOrder[] = [];
  /** The hash of each read record's text (for its order item's `recordHash`). */
  private readonly hashes = new WeakMap<GttOrder, string>();
  private readonly issues: Issue[] = [];
  /** The snapshot's orders by the hash of their record's text: an unchanged record is known by its text alone. */
  private known: Map<string, string> | undefined;
  /** Records that arrived before the snapshot: their hash and bytes (decoded only if changed). */
  private waiting: { hash: string; bytes: Buffer; index: number }[] = [];
  private readonly schema = recordSchema(getPendingGttOrders);
  /** True once the list arrived as an array (a "no data" reply or an error is the operation's, not ours). */
  private arrived = false;

  /** The sink the broker call reads the list with: texts only, each parsed here if it changed. */
  decoder(): ListDecoder {
    return {
      records: [],
      issues: [],
      unparsed: true,
      onRecord: (record, index, text, bytes) => this.take(record, index, bytes ?? text),
      finish: () => {
        this.arrived = true;
        return { orders: [] };
      },
    };
  }

  /** The snapshot the records are compared with; the records that waited for it are compared now. */
  attach(orders: Readonly<Record<string, KnownOrder>>): void {
    const known = new Map<string, string>();
    for (const id of Object.keys(orders)) {
      const hash = orders[id]!.recordHash;
      if (hash !== undefined) known.set(hash, id);
    }
    this.known = known;
    const waiting = this.waiting;
    this.waiting = [];
    for (const { hash, bytes, index } of waiting) this.take(undefined, index, bytes, hash);
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

  /**
   * `record`: parsed already, or undefined (the transport hands bytes only); `raw`: its text or its bytes (valid
   * during the call only); `hash`: of them, when known.
   */
  private take(record: unknown, index: number, raw: string | Buffer, hash = recordHashOfText(raw)): void {
    if (!this.issues.length) {
      if (!this.known) {
        // A copy: the bytes are the transport's only during the call.
        this.waiting.push({
          hash,
          bytes: typeof raw === 'string' ? Buffer.from(raw, 'utf8') : Buffer.from(raw),
          index,
        });
        return;
      }
      // The snapshot holds this text (by its hash, and the text holds its al_id): listed by id only.
      const id = this.known.get(hash);
      if (id !== undefined) {
        this.listed.push({ al_id: id, unchanged: true });
        return;
      }
    }
    let parsed = record;
    if (parsed === undefined) {
      try {
        parsed = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'));
      } catch {
        if (this.issues.length < 10) this.issues.push({ path: String(index), message: 'not JSON' });
        this.listed.length = 0;
        return;
      }
    }
    // Once the read fails, the rest are only looked at for the first issues.
    const checked = checkRecord(this.schema, parsed, index, this.issues);
    if (!checked.ok || this.issues.length) {
      this.listed.length = 0;
      return;
    }
    const order = normaliseOrder(checked.data as PendingOrderRecord) as GttOrder;
    this.hashes.set(order, hash);
    this.listed.push(order);
  }
}
