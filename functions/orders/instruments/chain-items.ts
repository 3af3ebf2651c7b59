/**
 * The day's option chains in the instruments' copy (copy.ts; docs/reference/options.md): items of their own key shape
 * beside the instruments' `EXCH|TSYM` ones, written by the daily refresh (functions/instruments/chain.ts) and read by
 * chain-copy.ts.
 *
 * - `CHAIN|NFO|NIFTY`: the underlying's listed expiries (`expiries`, ascending `YYYY-MM-DD`) on `day`;
 * - `CHAIN|NFO|NIFTY|2026-12-08`: one expiry's chain on `day`: `lot`, `tick` and `strikes`, a JSON text of
 *   `[strike, ceTsym, ceToken, peTsym, peToken]` rows (empty strings where one side is not listed), ascending.
 *
 * An expiry's item is kept well under DynamoDB's 400 KB (CHAIN_ITEM_MAX_BYTES; NIFTY's widest expiry is about 15 KB);
 * one above it is not written and the refresh reports it. TTL on `expiresAt`, as the copy's.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import { expiresAt } from './copy.js';
import type { ChainExpiry, ChainStrike } from './option-pick.js';

/** The largest expiry item written: far under DynamoDB's 400 KB item limit. */
export const CHAIN_ITEM_MAX_BYTES = 200_000;

export const chainIndexKey = (exch: string, underlying: string): Record<string, AttributeValue> => ({
  pk: { S: `CHAIN|${exch}|${underlying}` },
});

export const chainExpiryKey = (exch: string, underlying: string, expiry: string): Record<string, AttributeValue> => ({
  pk: { S: `CHAIN|${exch}|${underlying}|${expiry}` },
});

type Row = [number, string, string, string, string];

/** The item of the underlying's expiries. */
export const chainIndexItem = (
  exch: string,
  underlying: string,
  expiries: readonly string[],
  day: string,
  now: number,
): Record<string, AttributeValue> => ({
  ...chainIndexKey(exch, underlying),
  day: { S: day },
  expiries: { S: JSON.stringify(expiries) },
  expiresAt: expiresAt(now),
});

/** The item of one expiry's chain (its strikes as one JSON text: a few KB, read whole). */
export const chainExpiryItem = (chain: ChainExpiry, day: string, now: number): Record<string, AttributeValue> => {
  const rows: Row[] = chain.strikes.map((s) => [
    s.strike,
    s.CE?.tsym ?? '',
    s.CE?.token ?? '',
    s.PE?.tsym ?? '',
    s.PE?.token ?? '',
  ]);
  return {
    ...chainExpiryKey(chain.exch, chain.underlying, chain.expiry),
    day: { S: day },
    lot: { N: String(chain.lot) },
    tick: { S: chain.tick },
    strikes: { S: JSON.stringify(rows) },
    expiresAt: expiresAt(now),
  };
};

/** The expiries an index item lists, when it is of `day` and reads cleanly. */
export const expiriesOfItem = (item: Record<string, AttributeValue> | undefined, day: string): string[] | undefined => {
  if (item?.day?.S !== day || item.expiries?.S === undefined) return undefined;
  const expiries = JSON.parse(item.expiries.S) as unknown;
  if (!Array.isArray(expiries) || !expiries.every((e) => typeof e === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(e)))
    throw new Error(`the chain item ${item.pk?.S} lists no expiries`);
  return [...(expiries as string[])].sort();
};

const side = (tsym: unknown, token: unknown): ChainStrike['CE'] =>
  typeof tsym === 'string' && tsym && typeof token === 'string' && token ? { tsym, token } : undefined;

/** One expiry's chain from its item, when it is of `day`; an item that does not read is an error, never a chain. */
export const chainOfItem = (item: Record<string, AttributeValue> | undefined, day: string): ChainExpiry | undefined => {
  if (item?.day?.S !== day) return undefined;
  const [, exch, underlying, expiry] = (item.pk?.S ?? '').split('|');
  const lot = Number(item.lot?.N);
  const rows = JSON.parse(item.strikes?.S ?? 'null') as unknown;
  if (!exch || !underlying || !expiry || !(lot > 0) || !item.tick?.S || !Array.isArray(rows))
    throw new Error(`the chain item ${item.pk?.S} does not read as a chain`);
  const strikes = (rows as unknown[]).map((row) => {
    const [strike, ceTsym, ceToken, peTsym, peToken] = Array.isArray(row) ? (row as unknown[]) : [];
    if (typeof strike !== 'number' || !(strike > 0))
      throw new Error(`the chain item ${item.pk?.S} has a strike that does not read`);
    const CE = side(ceTsym, ceToken);
    const PE = side(peTsym, peToken);
    return { strike, ...(CE ? { CE } : {}), ...(PE ? { PE } : {}) };
  });
  return { underlying, exch, expiry, lot, tick: item.tick.S, strikes };
};
