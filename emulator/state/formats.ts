/** Time formats and symbol decoding as brokers of this API family write and read them. */
import { fixedToken } from './indices.js';

export const IST_OFFSET_MS = 5.5 * 60 * 60 * 1000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Brokers of this family stamp replies in Indian Standard Time (UTC+05:30). */
const ist = (now: Date) => {
  const t = new Date(now.getTime() + IST_OFFSET_MS);
  return {
    hh: pad(t.getUTCHours()),
    mi: pad(t.getUTCMinutes()),
    ss: pad(t.getUTCSeconds()),
    dd: pad(t.getUTCDate()),
    mm: pad(t.getUTCMonth() + 1),
    yyyy: String(t.getUTCFullYear()),
  };
};

/** `HH:MM:SS DD-MM-YYYY` (section 4: place, modify, cancel, client details, logout). */
export const requestTime = (now = new Date()): string => {
  const t = ist(now);
  return `${t.hh}:${t.mi}:${t.ss} ${t.dd}-${t.mm}-${t.yyyy}`;
};

/** `DDMMYYYYHHMMSS` (section 4.3: GetEnabledGTTs). */
export const compactRequestTime = (now = new Date()): string => {
  const t = ist(now);
  return `${t.dd}${t.mm}${t.yyyy}${t.hh}${t.mi}${t.ss}`;
};

/**
 * `tsym` arrives URL-encoded for special characters (docs/explanation/broker-wire.md), with `+` or `%20` for a space. Decode it the way
 * a form decoder does; a string that is not valid percent-encoding is kept literally (tolerant, like the broker).
 */
export const decodeSymbol = (raw: string): string => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
};

/**
 * A stable instrument token (digit string) for a symbol: an index's family token, a listed option's own number
 * (indices.ts, so no two listed contracts share one), a hash of the name for any other.
 */
export const instrumentToken = (exch: string, tsym: string): string => {
  const fixed = fixedToken(exch, tsym);
  if (fixed !== undefined) return fixed;
  let hash = 2166136261;
  for (const ch of `${exch}:${tsym}`) hash = Math.imul(hash ^ ch.codePointAt(0)!, 16777619) >>> 0;
  return String(1000 + (hash % 90000));
};
