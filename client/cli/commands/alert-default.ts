/**
 * The alert of a GTT placed without --alert: the one that fits its trigger against the instrument's last price
 * (GET /quotes). A trigger below the price fires when the price falls to it (LTP_B_O), one above when it rises to it
 * (LTP_A_O): a buy at 1610 with the price at 1500 is a breakout, and LTP_B_O would fire it at once. Without a price
 * to compare (no quote, no trade today, the trigger at the price itself), the usual alert of its side. Said in the
 * output either way. A quote that cannot be trusted (the broker answered for another instrument: the gateway checks
 * every quote and says so in `priceUnavailable`) is refused instead: a side picked from another instrument's
 * price could fire the order at once, so nothing is sent and the trader is asked for --alert.
 */
import type { GttOrderInput } from '../../types.js';
import type { Context } from '../command.js';
import { UsageError } from '../flags.js';
import { alertWords, defaultAlert } from '../trader-values.js';

type Alert = 'LTP_A_O' | 'LTP_B_O';

/** The refusal of a default from a quote that names, or may name, another instrument. */
const untrusted = (order: GttOrderInput, why: string): UsageError =>
  new UsageError(
    `--alert left out, and the quote of ${order.exch}:${order.tsym} cannot be trusted (${why}): no alert is chosen ` +
      "from another instrument's price, and nothing was sent. Give --alert below or --alert above, or try again.",
    'place',
  );

/** The last traded price of the order's instrument, or undefined when the gateway cannot say. */
const lastPrice = async (ctx: Context, order: GttOrderInput): Promise<number | undefined> => {
  let quote;
  try {
    quote = await ctx.client.quote(order.exch, order.tsym, ctx.callOptions);
  } catch {
    // The order itself will say what is wrong with the instrument; the default falls back to the side's.
    return undefined;
  }
  if (quote.priceUnavailable !== undefined) throw untrusted(order, quote.priceUnavailable);
  const lp = Number(quote.lp);
  return quote.lp === undefined || !Number.isFinite(lp) || lp <= 0 ? undefined : lp;
};

/** The order with the alert that fits it, and the line that says why. */
export const fitAlert = async (ctx: Context, order: GttOrderInput): Promise<{ order: GttOrderInput; line: string }> => {
  const trigger = String(order.d ?? '');
  const lp = await lastPrice(ctx, order);
  const side = order.trantype === 'S' ? 'sell' : 'buy';
  const other = (alert: Alert) => `--alert ${alert === 'LTP_A_O' ? 'below' : 'above'} for the other way`;
  if (lp !== undefined && Number(trigger) !== lp) {
    const alert: Alert = Number(trigger) > lp ? 'LTP_A_O' : 'LTP_B_O';
    const where = alert === 'LTP_A_O' ? 'above' : 'below';
    return {
      order: { ...order, ai_t: alert },
      line: `alert ${alert} (the trigger ${trigger} is ${where} the last price ${lp}: ${alertWords(alert, trigger)}; ${other(alert)})`,
    };
  }
  const alert = defaultAlert(order.trantype);
  return {
    order: { ...order, ai_t: alert },
    line: `alert ${alert} (no last price to compare, the default for a ${side}: ${alertWords(alert, trigger)}; ${other(alert)})`,
  };
};
