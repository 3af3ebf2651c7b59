/**
 * A webhook body read by its source's rule into alerts (docs/reference/signals.md):
 *
 * - `tradingview`: one JSON object `{"action": "buy", "ticker": "INFY", "exchange": "NSE", "price": 1500, "qty"?, "id"?}`
 *   (`action` buy or sell in any case, `price` a number or a decimal string), sent as application/json or text/plain;
 * - `chartink`: `{"stocks": "SBIN,ITC", "trigger_prices": "800.5,410", "triggered_at", "scan_name", ...}`, one alert
 *   per stock at its trigger price (ChartInk's alerts carry no side: the strategy's `order.trantype` gives it);
 * - `amibroker`, `generic`: one object or an array of up to 20, each `{"action" | "side", "symbol" | "ticker",
 *   "exchange"?, "price"?, "qty"?, "id"?}` (`side` B or S, or buy/sell as `action`).
 *
 * Fields a source sends beyond these are ignored (templates carry their own); the ones read are checked, and each
 * problem is named with the shape expected. What the strategy's action needs (a symbol unless it fixes one, a side
 * unless it fixes one) must be in every alert.
 */
import type { FieldProblem } from '../base/contract/errors.js';
import { MAX_PAYLOAD_DEPTH, nestedDeeperThan } from '../base/contract/gateway-request.js';
import type { Alert, SignalSource, Strategy } from '../base/schemas/signals.js';
import { isRecord } from '../base/schemas/values.js';

export const EXPECTED: Record<SignalSource, string> = {
  tradingview:
    '{"action": "buy" | "sell", "ticker": "INFY", "exchange"?: "NSE", "price"?: 1500, "qty"?: 1, "id"?: "..."}',
  chartink: '{"stocks": "SBIN,ITC", "trigger_prices": "800.5,410", ...} (ChartInk\'s webhook body)',
  amibroker:
    '{"action": "buy" | "sell", "symbol": "SBIN", "exchange"?: "NSE", "price"?: 800.5, "qty"?: 1, "id"?: "..."} or an array of them',
  generic:
    '{"action": "buy" | "sell", "symbol": "SBIN", "exchange"?: "NSE", "price"?: 800.5, "qty"?: 1, "id"?: "..."} or an array of them',
};

const MAX_ALERTS = 20;
const TICKER = /^[A-Za-z0-9&_.:!-]{1,40}$/;
const EXCHANGE = /^[A-Za-z]{2,5}$/;
const PRICE = /^\d{1,9}(?:\.\d{1,8})?$/;
const ID = /^[\w.:#@/-]{1,128}$/;

export type AlertsRead = { alerts: Alert[] } | { problems: FieldProblem[]; expected: string };

type Problems = FieldProblem[];

const sideOf = (value: unknown, field: string, problems: Problems): Alert['side'] => {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (text === 'buy' || text === 'b') return 'B';
  if (text === 'sell' || text === 's') return 'S';
  problems.push({ field, message: 'must be buy or sell (any case), or B or S' });
  return undefined;
};

const priceOf = (value: unknown, field: string, problems: Problems): string | undefined => {
  if (value === undefined || value === null || value === '') return undefined;
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text === 'string' && PRICE.test(text.trim()) && Number(text) > 0) return text.trim();
  problems.push({ field, message: 'must be a positive price, a number or a decimal string such as "1500.5"' });
  return undefined;
};

const qtyOf = (value: unknown, field: string, problems: Problems): number | undefined => {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'string' && /^\d{1,9}$/.test(value.trim()) ? Number(value) : value;
  if (typeof n === 'number' && Number.isInteger(n) && n > 0 && n < 1e9) return n;
  problems.push({ field, message: 'must be a whole number above 0' });
  return undefined;
};

const textOf = (value: unknown, pattern: RegExp, field: string, message: string, problems: Problems) => {
  if (value === undefined || value === null || value === '') return undefined;
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text === 'string' && pattern.test(text.trim())) return text.trim();
  problems.push({ field, message });
  return undefined;
};

const compact = (alert: Alert): Alert =>
  Object.fromEntries(Object.entries(alert).filter(([, v]) => v !== undefined)) as Alert;

/** One object of TradingView, Amibroker or generic JSON. */
const oneAlert = (value: unknown, at: string, problems: Problems): Alert | undefined => {
  if (!isRecord(value)) {
    problems.push({ field: at || '(body)', message: 'must be a JSON object' });
    return undefined;
  }
  const f = (name: string) => (at ? `${at}.${name}` : name);
  const sideField = value.action !== undefined ? 'action' : 'side';
  const tickerField = value.ticker !== undefined ? 'ticker' : 'symbol';
  return compact({
    side: sideOf(value[sideField], f(sideField), problems),
    ticker: textOf(value[tickerField], TICKER, f(tickerField), 'must be a symbol such as INFY or NSE:INFY', problems),
    exchange: textOf(
      value.exchange,
      EXCHANGE,
      f('exchange'),
      'must be an exchange such as NSE',
      problems,
    )?.toUpperCase(),
    price: priceOf(value.price, f('price'), problems),
    qty: qtyOf(value.qty, f('qty'), problems),
    id: textOf(value.id, ID, f('id'), 'must be up to 128 letters, digits or _.:#@/-', problems),
  });
};

const chartink = (value: unknown, problems: Problems): Alert[] => {
  if (!isRecord(value)) {
    problems.push({ field: '(body)', message: 'must be a JSON object' });
    return [];
  }
  if (typeof value.stocks !== 'string' || !value.stocks.trim()) {
    problems.push({ field: 'stocks', message: 'must be the comma-separated symbols ("SBIN,ITC")' });
    return [];
  }
  const stocks = value.stocks.split(',').map((s) => s.trim());
  const prices = typeof value.trigger_prices === 'string' ? value.trigger_prices.split(',').map((p) => p.trim()) : [];
  if (prices.length && prices.length !== stocks.length)
    problems.push({ field: 'trigger_prices', message: `must hold one price per stock (${stocks.length})` });
  if (stocks.length > MAX_ALERTS) problems.push({ field: 'stocks', message: `at most ${MAX_ALERTS} stocks` });
  return stocks.map((stock, i) =>
    compact({
      ticker: textOf(stock, TICKER, `stocks[${i}]`, 'must be a symbol such as SBIN', problems),
      price: priceOf(prices[i], `trigger_prices[${i}]`, problems),
    }),
  );
};

/** What every alert must carry for this strategy's action. */
const needs = (strategy: Pick<Strategy, 'action' | 'source'>, alerts: Alert[], problems: Problems) => {
  const action = strategy.action;
  if (action.kind === 'kill-switch' || action.kind === 'cancel') return;
  const many = alerts.length > 1;
  alerts.forEach((alert, i) => {
    const at = (name: string) => (many ? `[${i}].${name}` : name);
    if (!alert.ticker && !action.order.tsym)
      problems.push({ field: at(strategy.source === 'chartink' ? 'stocks' : 'ticker'), message: 'is required' });
    if (!alert.side && !action.order.trantype)
      problems.push({
        field: at('action'),
        message:
          strategy.source === 'chartink'
            ? "is not in ChartInk's body: set the strategy's action.order.trantype (B or S)"
            : 'is required (buy or sell)',
      });
  });
};

/** The alerts of a body (already UTF-8 text), or what is wrong with it. */
export const readAlerts = (strategy: Pick<Strategy, 'action' | 'source'>, text: string): AlertsRead => {
  const expected = EXPECTED[strategy.source];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problems: [{ field: '(body)', message: 'is not JSON' }], expected };
  }
  if (nestedDeeperThan(value))
    return { problems: [{ field: '(body)', message: `is nested deeper than ${MAX_PAYLOAD_DEPTH} levels` }], expected };
  const problems: Problems = [];
  let alerts: Alert[];
  if (strategy.source === 'chartink') alerts = chartink(value, problems);
  else if (strategy.source !== 'tradingview' && Array.isArray(value)) {
    if (!value.length || value.length > MAX_ALERTS)
      problems.push({ field: '(body)', message: `an array must hold 1 to ${MAX_ALERTS} alerts` });
    alerts = value
      .slice(0, MAX_ALERTS)
      .map((v, i) => oneAlert(v, `[${i}]`, problems))
      .filter((a): a is Alert => a !== undefined);
  } else {
    const alert = oneAlert(value, '', problems);
    alerts = alert ? [alert] : [];
  }
  if (!problems.length) needs(strategy, alerts, problems);
  return problems.length ? { problems, expected } : { alerts };
};
