/**
 * The human output that is not one command's own: aligned tables, the next page's cursor, a dry run's broker
 * request, what an order call did, and a GttGatewayError with each field shown as its flag.
 */
import type { GttGatewayError } from '../errors.js';
import type { DryRunResult } from '../types.js';

/** Order fields as the API names them -> the flag that sets them (for messages). */
export const FLAG_OF_FIELD: Record<string, string> = {
  exch: '--exch',
  tsym: '--tsym',
  qty: '--qty',
  prc: '--price',
  prd: '--product',
  trantype: '--side',
  prctyp: '--price-type',
  ret: '--retention',
  ai_t: '--alert',
  d: '--trigger',
  tag: '--tag',
  validity: '--validity',
  ltp: '--ltp',
  'target.trigger': '--target-trigger',
  'target.order.prc': '--target-price',
  'target.order.prctyp': '--target-price-type',
  'stopLoss.trigger': '--stop-trigger',
  'stopLoss.order.prc': '--stop-price',
  'stopLoss.order.prctyp': '--stop-price-type',
  'stopLoss.order.trgprc': '--stop-trigger-price',
  'Idempotency-Key': '--key',
};

/** Columns padded to their widest cell, under a header and a rule. */
export const table = (header: string[], rows: string[][]): string => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
};

/** A list's text, with how to get its next page while there is one. */
export const withNextPage = (text: string, list: { nextCursor?: string | undefined }) =>
  list.nextCursor ? `${text}\nmore: --cursor ${list.nextCursor} (or --all)` : text;

export const dryRunText = (r: DryRunResult): string => {
  const sent = `dry run: nothing was sent. ${r.operation} would send\n  ${r.request.method} ${r.request.url}`;
  const rules = r.exchangeRules;
  if (!rules) return `${sent}\n  jData ${JSON.stringify(r.request.jData)}`;
  const band = typeof rules.band === 'string' ? rules.band : `${rules.band.width} (${rules.band.lc}-${rules.band.uc})`;
  const checked = `tick ${rules.tick}, lot ${rules.lot}, precision ${rules.precision}, band ${band}, freeze ${rules.freeze}`;
  return `${sent}\n  jData ${JSON.stringify(r.request.jData)}\n  rules checked for ${rules.instrument}: ${checked}`;
};

/** One conversion as the gateway reports it (`converted`: a single order's, or an OCO's by leg). */
interface Conversion {
  to: string;
  price: string;
  protectionPct: string;
}
type Converted = Conversion | { target?: Conversion; stopLoss?: Conversion };

/** "market order sent as LMT 1497.45: protection 0.5%" (an OCO: each converted leg, named). */
export const conversionText = (converted: Converted): string => {
  const one = (c: Conversion) => `market order sent as ${c.to} ${c.price}: protection ${c.protectionPct}%`;
  if ('to' in converted) return one(converted);
  return (['target', 'stopLoss'] as const)
    .flatMap((leg) => (converted[leg] ? [`${leg}: ${one(converted[leg])}`] : []))
    .join('; ');
};

/** What a place, modify or cancel did, with its key; a replay says so, and a market order what it was sent as. */
export const actionText = (
  verb: string,
  r: {
    al_id: string;
    idempotency?: { key?: string; replayed?: boolean };
    converted?: Converted;
    verified?: boolean;
    unverified?: string;
  },
): string => {
  const key = r.idempotency?.key;
  const replayed = r.idempotency?.replayed
    ? ' — replayed: an earlier request with this key did it, nothing new was sent'
    : '';
  const converted = r.converted ? ` (${conversionText(r.converted)})` : '';
  // An OCO read back once placed: its legs as asked, or why they were not compared.
  const verified =
    r.verified === true
      ? '; legs verified at the broker'
      : r.verified === false
        ? `; legs NOT verified: ${r.unverified ?? 'no reason given'}`
        : '';
  return `${verb} al_id ${r.al_id}${converted}${key ? ` (idempotency key ${key})` : ''}${verified}${replayed}`;
};

/** A failure: code, status, message, broker text, each field by its flag, outcome and key. */
export const errorText = (e: GttGatewayError): string => {
  const lines = [`error ${e.code}${e.status ? ` (HTTP ${e.status})` : ''}: ${e.message}`];
  if (e.brokerMessage) lines.push(`  broker said: ${e.brokerMessage}`);
  if (Array.isArray(e.details)) {
    for (const d of e.details as { field?: string; message?: string }[]) {
      if (d && typeof d === 'object')
        lines.push(
          `  ${d.field && FLAG_OF_FIELD[d.field] ? `${FLAG_OF_FIELD[d.field]} (${d.field})` : (d.field ?? '')}: ${d.message ?? ''}`,
        );
    }
  } else if (e.details !== undefined) {
    lines.push(`  details: ${JSON.stringify(e.details)}`);
  }
  if (e.outcome === 'unknown')
    lines.push('  outcome: UNKNOWN — the broker may have acted: check `list` before acting again');
  else if (e.outcome === 'not_executed') lines.push('  outcome: not executed — the broker did not act');
  else if (e.outcome === 'undone')
    lines.push('  outcome: undone — the broker acted and the gateway undid it: nothing is live');
  else if (e.outcome === 'executed')
    lines.push(
      '  outcome: EXECUTED — the order is LIVE at the broker though the call failed: cancel it (`cancel <al_id>`)',
    );
  if (e.idempotencyKey)
    lines.push(`  idempotency key: ${e.idempotencyKey}${e.attempts > 1 ? ` (${e.attempts} attempts)` : ''}`);
  else if (e.attempts > 1) lines.push(`  attempts: ${e.attempts}`);
  return lines.join('\n');
};

/** India Standard Time, the exchanges' clock (UTC+05:30, no daylight saving). */
const IST_OFFSET_MS = 330 * 60_000;
export const IST_OFFSET = '+05:30';
/** The broker's own times: `HH:MM:SS DD-MM-YYYY` (norentm) and `DD-MM-YYYY HH:MM:SS` (exch_tm), India time. */
const BROKER_TIME = /^(\d\d:\d\d:\d\d) (\d\d)-(\d\d)-(\d{4})$/;
const EXCHANGE_TIME = /^(\d\d)-(\d\d)-(\d{4}) (\d\d:\d\d:\d\d)$/;

/**
 * A time as the exchange's clock shows it, with the offset: `2026-11-27 10:51:02 +05:30`. Takes an ISO time (the
 * API's, in UTC) or the broker's own formats (already India time); any other text comes back as it was.
 */
export const istTime = (value: string | undefined): string => {
  if (value === undefined || value === '') return '';
  const broker = BROKER_TIME.exec(value);
  if (broker) return `${broker[4]}-${broker[3]}-${broker[2]} ${broker[1]} ${IST_OFFSET}`;
  const exchange = EXCHANGE_TIME.exec(value);
  if (exchange) return `${exchange[3]}-${exchange[2]}-${exchange[1]} ${exchange[4]} ${IST_OFFSET}`;
  const ms = /^\d{4}-\d\d-\d\dT/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) return value;
  const local = new Date(ms + IST_OFFSET_MS).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 19)} ${IST_OFFSET}`;
};

/** A time in ms since the epoch: an ISO time, or the broker's own formats (India time); undefined for other text. */
export const timeMs = (value: string | undefined): number | undefined => {
  const shown = istTime(value);
  const match = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d) \+05:30$/.exec(shown);
  if (!match) return undefined;
  const ms = Date.parse(`${match[1]}T${match[2]}${IST_OFFSET}`);
  return Number.isNaN(ms) ? undefined : ms;
};

const CLOCK = /^([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/**
 * `--since` as a trader types it: a clock time (`10:50`, `9:15:30`) is today at that time in India; a date
 * (`2026-11-24`) is its start in India; anything else goes to the API as written (an ISO time), which says what it
 * takes.
 */
export const sinceOf = (text: string, now: Date = new Date()): string => {
  const trimmed = text.trim();
  const clock = CLOCK.exec(trimmed);
  if (clock) {
    const today = new Date(now.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
    const [hh, mm, ss] = [clock[1]!.padStart(2, '0'), clock[2]!, clock[3] ?? '00'];
    return `${today}T${hh}:${mm}:${ss}${IST_OFFSET}`;
  }
  if (/^\d{4}-\d\d-\d\d$/.test(trimmed)) return `${trimmed}T00:00:00${IST_OFFSET}`;
  return trimmed;
};
