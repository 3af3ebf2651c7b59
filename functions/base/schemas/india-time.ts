/**
 * India's time (UTC+05:30, no daylight saving): the exchanges' calendar day, and a time as a trader reads it in a
 * message (the API's fields stay ISO; what a person reads says the India time beside it).
 */
export const IST_OFFSET_MS = 5.5 * 3_600_000;

/** India's calendar day of `ms`, `YYYY-MM-DD`: the exchanges' day. */
export const indiaDay = (ms: number): string => new Date(ms + IST_OFFSET_MS).toISOString().slice(0, 10);

/** An ISO time as `2026-12-06 20:51:17 IST` (the text itself when it is not one). */
export const indiaTimeText = (iso: string): string => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const local = new Date(ms + IST_OFFSET_MS).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 19)} IST`;
};
