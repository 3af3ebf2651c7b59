/**
 * Per-deployment order guardrails: limits a trader sets so that a plainly wrong order (a fat-fingered quantity,
 * a price typed in paise, an exchange nobody trades) is refused before it reaches the broker.
 */
import { GuardrailRejectedError } from '../../base/contract/errors.js';
import type { GuardedOrder } from '../../base/contract/operation.js';
import { MARKET_PRICE_TYPES } from '../../base/schemas/input.js';

/** The guardrails of a deployment: its GUARDRAIL_* settings as base/runtime/config.ts `guardrailEnv` reads them. */
export interface GuardrailConfig {
  /** Turns placing and modifying off altogether (cancel and reads stay available). */
  guardrailReadOnly: boolean;
  guardrailMaxQty?: string | undefined;
  /** qty × prc, or qty × d for market price types, in the instrument's currency. */
  guardrailMaxOrderValue?: string | undefined;
  guardrailExchanges?: string[] | undefined;
  guardrailProducts?: string[] | undefined;
  guardrailPriceTypes?: string[] | undefined;
  guardrailSymbolsAllow?: string[] | undefined;
  guardrailSymbolsDeny?: string[] | undefined;
}

/** The order fields the guardrails look at (place and modify input). */
export type { GuardedOrder };

// Exact decimal arithmetic: prices carry up to 8 decimals, so compare integers scaled by 10^8.
const SCALE = 8;
const scaled = (decimal: string): bigint => {
  const [whole = '0', fraction = ''] = decimal.split('.');
  return BigInt(whole) * 10n ** BigInt(SCALE) + BigInt((fraction + '0'.repeat(SCALE)).slice(0, SCALE));
};
const formatScaled = (value: bigint, scale: number): string => {
  const text = value.toString().padStart(scale + 1, '0');
  const whole = text.slice(0, -scale);
  const fraction = text.slice(-scale).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
};

const reject = (rule: string, message: string, details: Record<string, unknown>) =>
  new GuardrailRejectedError(message, { details: { rule, ...details }, outcome: 'not_executed' });

/**
 * How the symbol lists compare symbols: compatibility-normalised (NFKC, so fullwidth `Ｍ` is `M` and composed and
 * decomposed letters agree), without format characters (zero-width spaces and joiners, bidi controls, BOM), with
 * runs of whitespace as one space, trimmed, upper case. `m&m-eq` and `M&M-EQ\u200b` are both `M&M-EQ`, so neither
 * slips past `GUARDRAIL_SYMBOLS_DENY=M&M-EQ`. The order itself is sent as the caller spelt it.
 */
export const symbolKey = (symbol: string): string =>
  symbol
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .replace(/\s+/gu, ' ')
    .trim()
    .toUpperCase();

/** The guardrails a deployment runs with, as a trader reads them (`GET /session`, `npm start`'s banner). */
export interface GuardrailsInForce {
  readOnly: boolean;
  /** The limit, or `off` when the deployment turned the default off. */
  maxQty: string;
  maxOrderValue: string;
  exchanges?: string[];
  products?: string[];
  priceTypes?: string[];
  symbolsAllow?: string[];
  symbolsDeny?: string[];
}

export const guardrailsInForce = (config: GuardrailConfig): GuardrailsInForce => ({
  readOnly: config.guardrailReadOnly,
  maxQty: config.guardrailMaxQty ?? 'off',
  maxOrderValue: config.guardrailMaxOrderValue ?? 'off',
  ...(config.guardrailExchanges ? { exchanges: config.guardrailExchanges } : {}),
  ...(config.guardrailProducts ? { products: config.guardrailProducts } : {}),
  ...(config.guardrailPriceTypes ? { priceTypes: config.guardrailPriceTypes } : {}),
  ...(config.guardrailSymbolsAllow ? { symbolsAllow: config.guardrailSymbolsAllow } : {}),
  ...(config.guardrailSymbolsDeny ? { symbolsDeny: config.guardrailSymbolsDeny } : {}),
});

/** One line of the guardrails in force (`npm start`'s banner). */
export const describeGuardrails = (g: GuardrailsInForce): string =>
  [
    g.readOnly ? 'READ-ONLY (place and modify off)' : '',
    `max qty ${g.maxQty}`,
    `max order value ${g.maxOrderValue}`,
    g.exchanges ? `exchanges ${g.exchanges.join(',')}` : '',
    g.products ? `products ${g.products.join(',')}` : '',
    g.priceTypes ? `price types ${g.priceTypes.join(',')}` : '',
    g.symbolsAllow ? `symbols only ${g.symbolsAllow.join(',')}` : '',
    g.symbolsDeny ? `symbols never ${g.symbolsDeny.join(',')}` : '',
  ]
    .filter(Boolean)
    .join('; ');

export const checkGuardrails = (operation: string, order: GuardedOrder, config: GuardrailConfig): void => {
  if (config.guardrailReadOnly) {
    throw reject('readOnly', `This deployment is read-only: ${operation} is turned off (GUARDRAIL_READ_ONLY).`, {});
  }
  if (config.guardrailExchanges && !config.guardrailExchanges.includes(order.exch)) {
    throw reject(
      'exchanges',
      `Exchange ${order.exch} is not allowed here (allowed: ${config.guardrailExchanges.join(', ')}).`,
      {
        allowed: config.guardrailExchanges,
        actual: order.exch,
      },
    );
  }
  if (config.guardrailProducts && !config.guardrailProducts.includes(order.prd)) {
    throw reject(
      'products',
      `Product ${order.prd} is not allowed here (allowed: ${config.guardrailProducts.join(', ')}).`,
      {
        allowed: config.guardrailProducts,
        actual: order.prd,
      },
    );
  }
  if (config.guardrailPriceTypes && !config.guardrailPriceTypes.includes(order.prctyp)) {
    throw reject(
      'priceTypes',
      `Price type ${order.prctyp} is not allowed here (allowed: ${config.guardrailPriceTypes.join(', ')}).`,
      {
        allowed: config.guardrailPriceTypes,
        actual: order.prctyp,
      },
    );
  }
  const symbol = symbolKey(order.tsym);
  if (config.guardrailSymbolsAllow && !config.guardrailSymbolsAllow.some((allowed) => symbolKey(allowed) === symbol)) {
    throw reject('symbolsAllow', `Symbol ${order.tsym} is not on this deployment's allow list.`, {
      actual: order.tsym,
    });
  }
  if (config.guardrailSymbolsDeny?.some((denied) => symbolKey(denied) === symbol)) {
    throw reject('symbolsDeny', `Symbol ${order.tsym} is on this deployment's deny list.`, { actual: order.tsym });
  }
  if (config.guardrailMaxQty && BigInt(order.qty) > BigInt(config.guardrailMaxQty)) {
    throw reject('maxQty', `Quantity ${order.qty} is above this deployment's maximum of ${config.guardrailMaxQty}.`, {
      limit: config.guardrailMaxQty,
      actual: order.qty,
    });
  }
  if (config.guardrailMaxOrderValue) {
    const market = MARKET_PRICE_TYPES.includes(order.prctyp);
    const unitPrice = market ? order.d : order.prc;
    const value = BigInt(order.qty) * scaled(unitPrice);
    if (value > scaled(config.guardrailMaxOrderValue)) {
      const actual = formatScaled(value, SCALE);
      throw reject(
        'maxOrderValue',
        `Order value ${actual} (qty × ${market ? 'trigger d, market price type' : 'prc'}) is above this deployment's maximum of ${config.guardrailMaxOrderValue}.`,
        { limit: config.guardrailMaxOrderValue, actual },
      );
    }
  }
};
