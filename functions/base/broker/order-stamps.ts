/**
 * The stamp of a journaled broker write (functions/orders/journal.ts): a short name derived from the write's
 * idempotency key that the broker keeps with the order, so a write whose reply was lost (or whose process died) is
 * found in the broker's books instead of being sent again.
 *
 * It travels in `remarks`, the one free-text field the family keeps on a GTT (the 2021 API documentation shows
 * `Remarks` on GetPendingGTTOrder records; NorenRestApiPy and the Go and JS clients send `remarks` on PlaceGTTOrder,
 * ModifyGTTOrder and PlaceOCOOrder) and, on the brokers that carry it, on the order a fired GTT places. The caller's
 * own `tag` goes first and the stamp after one space (`my-tag gw.k3v9q0m2ab`); a tag too long to leave room keeps the
 * remarks to itself and the write is journaled without a stamp (its unknown outcome can then only be reported).
 * Everything the gateway answers shows the caller's tag only: the stamp is split off where remarks are read.
 */
import { createHash } from 'node:crypto';

import { TAG_MAX_LENGTH } from '../schemas/fields.js';

/** `gw.` and ten base-32 characters: 50 bits, unique among one account's orders by a wide margin. */
const STAMP = /^gw\.[0-9a-v]{10}$/;
/**
 * A stamp as the gateway writes it: the remarks' last word, after a space or alone. A caller's tag cannot end in
 * that shape (base/schemas/fields.ts refuses it), so remarks that end so carry a stamp the gateway wrote.
 */
const SUFFIX = /(?:^| )(gw\.[0-9a-v]{10})$/;
export const STAMP_LENGTH = 13;

/** The stamp of the write that an idempotency key (per operation) names: the same on every attempt. */
export const stampOf = (operation: string, key: string): string => {
  const hash = createHash('sha256').update(`${operation}\u0000${key}`).digest();
  let bits = 0n;
  for (const byte of hash.subarray(0, 7)) bits = (bits << 8n) | BigInt(byte);
  return `gw.${(bits >> 6n).toString(32).padStart(10, '0')}`;
};

/** The remarks that carry `tag` and `stamp`, or undefined when there is no room for the stamp (the tag alone). */
export const stampedRemarks = (tag: string | undefined, stamp: string): string | undefined => {
  if (tag === undefined || tag === '') return stamp;
  return tag.length + 1 + stamp.length <= TAG_MAX_LENGTH ? `${tag} ${stamp}` : undefined;
};

/** Remarks as the broker holds them, split into the caller's tag and the gateway's stamp. */
export const splitRemarks = (remarks: string | undefined): { tag?: string; stamp?: string } => {
  if (!remarks) return {};
  const match = SUFFIX.exec(remarks);
  if (!match) return { tag: remarks };
  const tag = remarks.slice(0, match.index);
  return { ...(tag ? { tag } : {}), stamp: match[1]! };
};

export const isStamp = (text: string): boolean => STAMP.test(text);
