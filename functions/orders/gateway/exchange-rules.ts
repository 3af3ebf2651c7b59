/**
 * The exchange's rules on an order's instrument, checked after the session is loaded and before anything is sent,
 * dry runs included, on every place and modify of a single GTT or an OCO (plans place through the same operations):
 * tick, lot and price precision (functions/orders/safety/exchange-rule-checks.ts), today's price band and the freeze quantity
 * (functions/orders/safety/market-rules.ts). They are today's rules from this container, the account's copy (one GetItem)
 * or, when the copy has none for today, the broker (SearchScrip, GetQuotes, GetSecurityInfo), written back to the
 * copy: functions/orders/instruments/rules.ts. What was checked, and where it came from, is kept for the dry run's reply.
 * When neither gives today's rules, the order is refused with the read's own retryable error (BROKER_TIMEOUT,
 * BROKER_UNAVAILABLE, ...) and `outcome: not_executed`: an order is never sent unchecked.
 *
 * The read is one promise (`todaysRules`) that depends only on the session and the order's symbol: it could start
 * beside the order core's first round trip (the journal's claim) if the core wants to overlap them.
 */
import { type BrokerCallDeps } from '../../base/broker/call-broker.js';
import { closestSymbols } from '../../base/broker/instruments.js';
import { GatewayError } from '../../base/contract/errors.js';
import type { AnyOperation } from '../../base/contract/operation.js';
import type { GatewayConfig } from '../../base/runtime/config.js';
import type { Converted } from '../../base/schemas/conversion.js';
import type { InstrumentCopy } from '../instruments/copy.js';
import { todaysRules } from '../instruments/rules.js';
import { checkExchangeRules, ruledOrders } from '../safety/exchange-rule-checks.js';
import { checkGuardrails } from '../safety/guardrails.js';
import { type CheckedRules, checkedRules } from '../safety/market-rules.js';
import { priceInput } from '../safety/priced-orders.js';
import type { CheckedOrder } from './order-checks.js';

/**
 * The order once the exchange's rules passed: the order sent (a market order priced: `requested` as asked,
 * `converted` what was done), and what was checked, with where it came from (the dry run's reply).
 */
export interface RuledOrder {
  input: unknown;
  requested?: unknown;
  converted?: Converted;
  exchangeRules?: CheckedRules;
}

export interface RulesReader {
  settings: GatewayConfig;
  deps: BrokerCallDeps;
  copy?: InstrumentCopy | undefined;
  onCopyError?: (error: unknown, what: 'read' | 'write') => void;
}

/** `priced` is told a market order priced on the instrument's tick, before the guardrails judge it. */
export const exchangeRules = async (
  operation: AnyOperation,
  checked: CheckedOrder,
  reader: RulesReader,
  priced: (order: RuledOrder) => void = () => undefined,
): Promise<RuledOrder> => {
  if (operation.instrument) return { input: await instrumentRead(operation, checked.input, reader) };
  if (!operation.guardedOrders) return { input: checked.input };
  const orders = ruledOrders(checked.input);
  const { exch, tsym } = orders[0]!;
  const rules = await todaysRules(exch, tsym, reader.deps, {
    copy: reader.copy,
    onCopyError: reader.onCopyError ?? (() => undefined),
  });
  let order: RuledOrder = { input: checked.input };
  if (checked.market) {
    // A market order is priced once, on the instrument's tick (inward: inside the band); the guardrails judge the
    // price that is sent.
    const market = priceInput(operation, checked.input, reader.settings, rules.tick);
    order = {
      input: market.input,
      requested: checked.input,
      ...(market.converted ? { converted: market.converted } : {}),
    };
    priced(order);
    for (const leg of operation.guardedOrders(order.input)) checkGuardrails(operation.name, leg, reader.settings);
  }
  checkExchangeRules(checked.market ? ruledOrders(order.input) : orders, rules);
  return { ...order, exchangeRules: checkedRules(exch, tsym, rules, rules.source) };
};

/** A read of one instrument (a quote): its input with today's rules of the instrument, read as an order's are. */
const instrumentRead = async (operation: AnyOperation, input: unknown, reader: RulesReader): Promise<unknown> => {
  const { exch, tsym } = operation.instrument!.of(input);
  const rules = await todaysRules(exch, tsym, reader.deps, {
    copy: reader.copy,
    onCopyError: reader.onCopyError ?? (() => undefined),
  });
  const { token, tick, lot, precision, band } = rules;
  return operation.instrument!.withRules(input, { token, tick, lot, precision, band });
};

/**
 * A symbol SearchScrip lists but the broker still refuses (`Invalid Trading Symbol`): the closest listed ones are
 * added to the error's message. Any other failure is left as it is.
 */
export const suggestSymbols = async (
  operation: AnyOperation,
  input: unknown,
  error: unknown,
  deps: BrokerCallDeps,
): Promise<void> => {
  if (
    !operation.guardedOrders ||
    !(error instanceof GatewayError) ||
    error.code !== 'BROKER_REJECTED' ||
    !/Invalid Trading Symbol/i.test(error.brokerMessage ?? '')
  )
    return;
  const { exch, tsym } = ruledOrders(input)[0]!;
  const suggestions = await closestSymbols(exch, tsym, deps).catch(() => []);
  if (suggestions.length > 0) error.message = `${error.message} Did you mean ${suggestions.join(', ')}?`;
};
