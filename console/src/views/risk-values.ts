/**
 * The day's limits as the console reads and writes them, without the page (so the unit tests need no DOM): whether
 * any limit is set, the form's fields and the `PUT /risk` body they make (an amount as a trader types it, `₹5,000`
 * or `5,00,000`; what is not a number sent as typed, for the gateway to name), what the form's question says, and
 * how far a P&L is from each limit.
 */
import type { operations } from '../../../client/generated/openapi.js';
import type { RiskResult } from '../../../functions/base/schemas/risk.js';
import { rupees } from '../format.js';

export type RiskInput = operations['SetRiskLimits']['requestBody']['content']['application/json'];
export type Settings = NonNullable<RiskResult['settings']>;
export type Mode = Settings['mode'];
export type RiskToday = RiskResult['today'];

/** Whether any limit is set (`PUT /risk {}` stores settings with neither). */
export const limitsSet = (s: Settings | undefined): s is Settings =>
  s !== undefined && (s.dayLossLimit !== undefined || s.dayProfitTarget !== undefined);

export interface Fields {
  loss: string;
  target: string;
  mode: Mode;
  squareOff: boolean;
}

export const fieldsOf = (s: Settings | undefined): Fields => ({
  loss: s?.dayLossLimit === undefined ? '' : String(s.dayLossLimit),
  target: s?.dayProfitTarget === undefined ? '' : String(s.dayProfitTarget),
  mode: s?.mode ?? 'keep-exits',
  squareOff: s?.squareOff ?? false,
});

/** An amount as typed: empty is left out; `₹5,000` is 5000; what is not a number goes as typed, for the API to name. */
const amountOf = (text: string): number | string | undefined => {
  const plain = text.replace(/[₹,\s]/g, '');
  if (plain === '') return undefined;
  const n = Number(plain);
  return Number.isFinite(n) ? n : text.trim();
};

/** The body of `PUT /risk` from the form. */
export const riskBodyOf = (f: Fields): RiskInput => {
  const loss = amountOf(f.loss);
  const target = amountOf(f.target);
  // An amount the API must judge is sent as typed (it names the field); the type says number.
  return {
    ...(loss === undefined ? {} : { dayLossLimit: loss as number }),
    ...(target === undefined ? {} : { dayProfitTarget: target as number }),
    mode: f.mode,
    squareOff: f.squareOff,
  };
};

/** What the question says will happen: each limit that reads as one, the mode, square-off. */
export const askDetail = (body: RiskInput, lastTotal: number | undefined): string => {
  const stops = [
    typeof body.dayLossLimit === 'number' && body.dayLossLimit > 0
      ? `at or below ${rupees(-body.dayLossLimit)}`
      : undefined,
    typeof body.dayProfitTarget === 'number' && body.dayProfitTarget > 0
      ? `at or above ${rupees(body.dayProfitTarget)}`
      : undefined,
  ].filter(Boolean);
  const past =
    lastTotal !== undefined &&
    ((typeof body.dayLossLimit === 'number' && body.dayLossLimit > 0 && lastTotal <= -body.dayLossLimit) ||
      (typeof body.dayProfitTarget === 'number' && body.dayProfitTarget > 0 && lastTotal >= body.dayProfitTarget));
  return [
    stops.length ? `Trading stops once the day's P&L is ${stops.join(' or ')}:` : 'Once a limit is crossed,',
    body.mode === 'cancel-all'
      ? 'the kill switch goes on and cancels every pending order.'
      : 'the kill switch goes on and cancels the entries, keeping the exits.',
    body.squareOff ? 'Then each open position is closed by a protected limit order.' : 'Open positions stay open.',
    past ? `The last P&L seen (${rupees(lastTotal)}) is past it already: the next watcher run stops trading.` : '',
  ]
    .filter(Boolean)
    .join(' ');
};

/**
 * How far a P&L is from each limit: `₹280 above the loss limit (-₹400)`, `₹9,880 short of the profit target
 * (₹10,000)`; one already past says so (the watcher's next run stops trading).
 */
export const roomLeft = (total: number, s: Settings): string[] => {
  const lines: string[] = [];
  if (s.dayLossLimit !== undefined) {
    const room = total + s.dayLossLimit;
    const limit = rupees(-s.dayLossLimit);
    lines.push(room > 0 ? `${rupees(room)} above the loss limit (${limit})` : `at or past the loss limit (${limit})`);
  }
  if (s.dayProfitTarget !== undefined) {
    const room = s.dayProfitTarget - total;
    const target = rupees(s.dayProfitTarget);
    lines.push(
      room > 0 ? `${rupees(room)} short of the profit target (${target})` : `at or past the profit target (${target})`,
    );
  }
  return lines;
};
