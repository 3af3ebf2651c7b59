/**
 * The account's settings an assistant reads and sets: the day's limits (`GET`/`PUT /risk`) and coverage (`GET`/`PUT
 * /positions/coverage`). Each read answers the gateway's reply with a `summary` a person can read; a write's input is
 * checked whole by the gateway's own schema before anything is read or sent (`settingsInput`), and its preview reads
 * the settings now and says in words what will change (`settingsPreview`). Rupees the Indian way (`₹1,00,000`).
 *
 * Who may set them: the `trade` scope only. An exit-only assistant is refused (mcp/exit-only.ts): a day's limit or
 * autoCover is the trader's, and loosening one (a higher loss limit, coverage off) raises the risk the key exists to
 * keep down; a limit's square-off and autoCover also place orders the assistant never previewed one by one.
 */
import type * as z from 'zod';

import { istTime } from '../client/cli/render.js';
import { rupees } from '../functions/base/schemas/assistant-limits.js';
import { coverageSettingsInput } from '../functions/base/schemas/coverage.js';
import { riskInput } from '../functions/base/schemas/risk.js';
import type { GatewayPort, GatewayRequest } from './port.js';

type Fields = Record<string, unknown>;
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const money = (v: unknown): string => (typeof v === 'number' ? rupees(v) : 'none');
const signed = (v: unknown): string => (typeof v === 'number' && v < 0 ? `-${rupees(-v)}` : money(v));

/** The operations of the settings writes, and the read that says what each one would change. */
export const SETTINGS_READ: Readonly<Record<string, 'GetRiskLimits' | 'GetCoverage'>> = {
  SetRiskLimits: 'GetRiskLimits',
  PutCoverageSettings: 'GetCoverage',
};

const NOTHING_SENT = ' Nothing was sent.';

/**
 * The write's arguments checked whole as the gateway checks them (its schema: functions/base/schemas/risk.ts,
 * coverage.ts), before anything is read or sent: each problem named, in its words.
 */
export const riskArgs = (args: Fields, ctx: z.RefinementCtx): void => {
  const { off, ...body } = args;
  const given = Object.values(body).some((v) => v !== undefined);
  if (off === true && given)
    ctx.addIssue({
      code: 'custom',
      path: ['off'],
      message: `off turns the limits off: give it alone, or the limits without it.${NOTHING_SENT}`,
    });
  else if (off !== true && body.dayLossLimit === undefined && body.dayProfitTarget === undefined)
    ctx.addIssue({
      code: 'custom',
      message: `give dayLossLimit, dayProfitTarget or both (mode and squareOff say what happens once one is crossed), or off: true to turn the limits off.${NOTHING_SENT}`,
    });
  else checkedBy(riskInput, off === true ? {} : body, ctx);
};

export const coverageArgs = (args: Fields, ctx: z.RefinementCtx): void => checkedBy(coverageSettingsInput, args, ctx);

const checkedBy = (schema: z.ZodType, body: Fields, ctx: z.RefinementCtx): void => {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)));
  if (!parsed.success)
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: 'custom', path: issue.path as PropertyKey[], message: `${issue.message}.${NOTHING_SENT}` });
};

// The day's limits in words.
interface RiskSettings {
  dayLossLimit?: number;
  dayProfitTarget?: number;
  mode?: string;
  squareOff?: boolean;
}
const riskParts = (s: RiskSettings | undefined) => ({
  loss: money(s?.dayLossLimit),
  target: money(s?.dayProfitTarget),
  mode: s?.mode ?? 'keep-exits',
  squareOff: s?.squareOff ? 'on' : 'off',
});
const was = (now: string, before: string | undefined): string =>
  before === undefined ? `${now} (was: not read)` : now === before ? now : `${now} (was ${before})`;

/** `Day loss limit ₹5,000 (was none), profit target none; when crossed: kill switch keep-exits, square-off off.` */
const riskChange = (body: Fields, before: RiskSettings | undefined, read: boolean): string => {
  const now = riskParts(body);
  const old = read ? riskParts(before) : undefined;
  if (now.loss === 'none' && now.target === 'none')
    return `Turn the day's limits off: loss limit ${was('none', old?.loss)}, profit target ${was('none', old?.target)}; no limit stops trading today.`;
  return `Day loss limit ${was(now.loss, old?.loss)}, profit target ${was(now.target, old?.target)}; when crossed: kill switch ${was(now.mode, old?.mode)}, square-off ${was(now.squareOff, old?.squareOff)}.`;
};

/** The day's limits and today's state as `GET /risk` answers them, in one or two sentences. */
export const riskSummary = (reply: Fields): string => {
  const s = reply.settings as RiskSettings | undefined;
  const parts = riskParts(s);
  const settings =
    parts.loss === 'none' && parts.target === 'none'
      ? 'No day limits are set.'
      : `Day loss limit ${parts.loss}, profit target ${parts.target}; when crossed: kill switch ${parts.mode}, square-off ${parts.squareOff}.`;
  const t = (reply.today ?? {}) as Fields;
  const hit = t.hit as { at?: string; limit?: string; threshold?: number; pnl?: { total?: number } } | undefined;
  const last = t.lastCheck as { at?: string; pnl?: { total?: number } } | undefined;
  const state =
    t.state === 'hit' && hit
      ? `HIT at ${istTime(hit.at)}: ${hit.limit === 'dayLossLimit' ? 'loss limit' : 'profit target'} (${signed(hit.threshold)}) crossed at P&L ${signed(hit.pnl?.total)}; trading stopped for the day`
      : t.state === 'unchecked'
        ? 'unchecked: the last check could not read the positions (today.reason says why)'
        : 'clear';
  const pnl = last?.pnl ? `; last check ${istTime(last.at)}, P&L ${signed(last.pnl.total)}` : '';
  return `${settings} Today (${str(t.day)}): ${state}${pnl}.`;
};

// Coverage in words.
interface CoverageSettings {
  watch?: boolean;
  autoCover?: { target?: unknown; stop?: unknown };
}
const distance = (v: unknown): string => {
  const text = str(v).trim();
  return text.endsWith('%') ? `${text} of the average price` : `${text} points`;
};
const coverParts = (s: CoverageSettings | undefined) => ({
  watch: s?.watch ? 'on' : 'off',
  autoCover: s?.autoCover
    ? `an OCO at target ${distance(s.autoCover.target)}, stop ${distance(s.autoCover.stop)}`
    : 'off',
});

/** `Coverage watch on (was off); autoCover an OCO at target 2% of the average price, stop 10 points (was off).` */
const coverageChange = (body: Fields, before: CoverageSettings | undefined, read: boolean): string => {
  const now = coverParts(body);
  const old = read ? coverParts(before) : undefined;
  const idle = body.watch !== true && body.autoCover ? ' (autoCover acts only while watch is on)' : '';
  return `Coverage watch ${was(now.watch, old?.watch)}: ${body.watch === true ? 'each watcher run checks every open position and raises Position Unprotected once for an uncovered one' : 'no position is checked'}; autoCover ${was(now.autoCover, old?.autoCover)}${idle}.`;
};

/** The positions' coverage as `GET /positions/coverage` answers it, in one or two sentences. */
export const coverageSummary = (reply: Fields): string => {
  const t = (reply.totals ?? {}) as Record<string, number | undefined>;
  const open = (reply.positions ?? []) as { exch?: string; tsym?: string; status?: string; uncoveredQty?: number }[];
  const bare = open.filter((p) => p.status !== 'covered');
  const named = bare
    .slice(0, 5)
    .map((p) => `${str(p.exch)}:${str(p.tsym)} ${str(p.status)}, ${str(p.uncoveredQty)} uncovered`)
    .join('; ');
  const positions = t.open
    ? `${t.open} open position${t.open === 1 ? '' : 's'}: ${t.covered ?? 0} covered, ${t.partly ?? 0} partly, ${t.targetOnly ?? 0} target-only, ${t.uncovered ?? 0} uncovered${named ? ` (${named}${bare.length > 5 ? `; ${bare.length - 5} more` : ''})` : ''}.`
    : 'No open positions.';
  const s = coverParts(reply.settings as CoverageSettings | undefined);
  return `${positions} Watch ${s.watch}; autoCover ${s.autoCover}.`;
};

/** A read's answer with its summary beside the gateway's reply. */
export const withSummary =
  (summary: (reply: Fields) => string) =>
  (reply: unknown): unknown =>
    reply !== null && typeof reply === 'object' ? { summary: summary(reply as Fields), ...reply } : reply;

/**
 * A settings write's preview: the settings read now (a read that fails is said, never taken for "none") and what
 * the request changes, in words. Undefined for any other request.
 */
export const settingsPreview = async (
  port: GatewayPort,
  request: GatewayRequest,
): Promise<{ summary: string; rule: string } | undefined> => {
  const read = SETTINGS_READ[request.operation];
  if (!read) return undefined;
  let before: Fields | undefined;
  let rule = `current settings read now (${read})`;
  try {
    before = ((await port.call({ operation: read })) as Fields | undefined)?.settings as Fields | undefined;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    rule = `current settings: not read (${typeof code === 'string' ? code : 'error'}); what they were is not said`;
  }
  const ok = !rule.includes('not read');
  const body = request.body ?? {};
  const summary =
    request.operation === 'SetRiskLimits'
      ? riskChange(body, before as RiskSettings | undefined, ok)
      : coverageChange(body, before as CoverageSettings | undefined, ok);
  return { summary, rule };
};
