/**
 * Posting an alert to a strategy's webhook URL, as TradingView or ChartInk would: unsigned (the URL's token is the
 * secret), JSON. Used by `gtt signal-test`; the URL comes from the reply that created or rotated the strategy (the
 * gateway never shows a token again, and the client does not store it: docs/reference/client.md).
 */
import type { StrategyRecord } from './types.js';

export interface SignalReply {
  status: number;
  body: unknown;
}

/** A URL of the form `<base>/signals/<43-character token>`, or why not. */
const checkWebhookUrl = (url: string): string | undefined => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (!/^https?:$/.test(parsed.protocol)) return 'must be http(s)';
  if (!/\/signals\/[A-Za-z0-9_-]{43}$/.test(parsed.pathname))
    return "must be a strategy's webhookUrl (…/signals/<token>), as POST /strategies or its token rotation answered";
  return undefined;
};

/** A sample alert in the strategy's source's shape, for its symbol (or INFY): a buy unless `side` is S. */
export const sampleAlert = (
  strategy: Pick<StrategyRecord, 'source' | 'action'>,
  price = '1500',
  side: 'B' | 'S' = 'B',
): unknown => {
  const action = side === 'S' ? 'sell' : 'buy';
  const order = (strategy.action as { order?: { tsym?: string; exch?: string } }).order ?? {};
  const ticker = (order.tsym ?? 'INFY-EQ').replace(/-EQ$/, '');
  const id = `signal-test-${Date.now()}`;
  switch (strategy.source) {
    case 'chartink':
      return {
        stocks: ticker,
        trigger_prices: price,
        triggered_at: '10:15 am',
        scan_name: 'signal-test',
        scan_url: 'signal-test',
        alert_name: 'signal-test',
      };
    case 'tradingview':
      return { action, ticker, exchange: order.exch ?? 'NSE', price: Number(price), id };
    default:
      return { action, symbol: ticker, exchange: order.exch ?? 'NSE', price, id };
  }
};

/** POSTs `body` to the webhook URL (unsigned, application/json); the gateway's reply as it came. */
export const sendSignal = async (webhookUrl: string, body: unknown, signal?: AbortSignal): Promise<SignalReply> => {
  const problem = checkWebhookUrl(webhookUrl);
  if (problem) throw new Error(`The webhook URL ${problem}.`);
  const res = await fetch(webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // an answer that is not JSON is shown as it came
  }
  return { status: res.status, body: parsed };
};
