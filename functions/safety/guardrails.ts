/**
 * Per-deployment order guardrails: limits a trader sets so that a plainly wrong order (a fat-fingered quantity,
 * a price typed in paise, an exchange nobody trades) is refused before it reaches the broker.
 */
import * as z from 'zod';

import { GuardrailRejectedError } from '../contract/errors.js';
import type { GuardedOrder } from '../contract/operation.js';
import { EXCHANGES, MARKET_PRICE_TYPES, PRICE_TYPES, PRODUCTS } from '../schemas/input.js';

const list = <T extends readonly string[]>(name: string, allowed?: T) =>
  z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .refine((items) => items.length > 0, { error: `${name} must list at least one value (comma-separated)` })
    .refine((items) => !allowed || items.every((item) => allowed.includes(item)), {
      error: `${name} may only contain ${allowed?.join(', ')}`,
    })
    .optional();

const flag = z
  .enum(['true', 'false', '1', '0', ''], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1')
  .default(false);

const DECIMAL = /^\d{1,14}(\.\d{1,8})?$/;

export const guardrailEnvSchema = z.object({
  /** Turns placing and modifying off altogether (cancel and reads stay available). */
  GUARDRAIL_READ_ONLY: flag,
  GUARDRAIL_MAX_QTY: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, { error: 'must be a positive whole number' })
    .optional(),
  /** qty × prc, or qty × d for market price types, in the instrument's currency. */
  GUARDRAIL_MAX_ORDER_VALUE: z.string().regex(DECIMAL, { error: 'must be a positive decimal number' }).optional(),
  GUARDRAIL_EXCHANGES: list('GUARDRAIL_EXCHANGES', EXCHANGES),
  GUARDRAIL_PRODUCTS: list('GUARDRAIL_PRODUCTS', PRODUCTS),
  GUARDRAIL_PRICE_TYPES: list('GUARDRAIL_PRICE_TYPES', PRICE_TYPES),
  GUARDRAIL_SYMBOLS_ALLOW: list('GUARDRAIL_SYMBOLS_ALLOW'),
  GUARDRAIL_SYMBOLS_DENY: list('GUARDRAIL_SYMBOLS_DENY'),
});

export type GuardrailConfig = z.output<typeof guardrailEnvSchema>;

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

export const checkGuardrails = (operation: string, order: GuardedOrder, config: GuardrailConfig): void => {
  if (config.GUARDRAIL_READ_ONLY) {
    throw reject('readOnly', `This deployment is read-only: ${operation} is turned off (GUARDRAIL_READ_ONLY).`, {});
  }
  if (config.GUARDRAIL_EXCHANGES && !config.GUARDRAIL_EXCHANGES.includes(order.exch)) {
    throw reject(
      'exchanges',
      `Exchange ${order.exch} is not allowed here (allowed: ${config.GUARDRAIL_EXCHANGES.join(', ')}).`,
      {
        allowed: config.GUARDRAIL_EXCHANGES,
        actual: order.exch,
      },
    );
  }
  if (config.GUARDRAIL_PRODUCTS && !config.GUARDRAIL_PRODUCTS.includes(order.prd)) {
    throw reject(
      'products',
      `Product ${order.prd} is not allowed here (allowed: ${config.GUARDRAIL_PRODUCTS.join(', ')}).`,
      {
        allowed: config.GUARDRAIL_PRODUCTS,
        actual: order.prd,
      },
    );
  }
  if (config.GUARDRAIL_PRICE_TYPES && !config.GUARDRAIL_PRICE_TYPES.includes(order.prctyp)) {
    throw reject(
      'priceTypes',
      `Price type ${order.prctyp} is not allowed here (allowed: ${config.GUARDRAIL_PRICE_TYPES.join(', ')}).`,
      {
        allowed: config.GUARDRAIL_PRICE_TYPES,
        actual: order.prctyp,
      },
    );
  }
  const symbol = symbolKey(order.tsym);
  if (
    config.GUARDRAIL_SYMBOLS_ALLOW &&
    !config.GUARDRAIL_SYMBOLS_ALLOW.some((allowed) => symbolKey(allowed) === symbol)
  ) {
    throw reject('symbolsAllow', `Symbol ${order.tsym} is not on this deployment's allow list.`, {
      actual: order.tsym,
    });
  }
  if (config.GUARDRAIL_SYMBOLS_DENY?.some((denied) => symbolKey(denied) === symbol)) {
    throw reject('symbolsDeny', `Symbol ${order.tsym} is on this deployment's deny list.`, { actual: order.tsym });
  }
  if (config.GUARDRAIL_MAX_QTY && BigInt(order.qty) > BigInt(config.GUARDRAIL_MAX_QTY)) {
    throw reject('maxQty', `Quantity ${order.qty} is above this deployment's maximum of ${config.GUARDRAIL_MAX_QTY}.`, {
      limit: config.GUARDRAIL_MAX_QTY,
      actual: order.qty,
    });
  }
  if (config.GUARDRAIL_MAX_ORDER_VALUE) {
    const market = MARKET_PRICE_TYPES.includes(order.prctyp);
    const unitPrice = market ? order.d : order.prc;
    const value = BigInt(order.qty) * scaled(unitPrice);
    if (value > scaled(config.GUARDRAIL_MAX_ORDER_VALUE)) {
      const actual = formatScaled(value, SCALE);
      throw reject(
        'maxOrderValue',
        `Order value ${actual} (qty × ${market ? 'trigger d, market price type' : 'prc'}) is above this deployment's maximum of ${config.GUARDRAIL_MAX_ORDER_VALUE}.`,
        { limit: config.GUARDRAIL_MAX_ORDER_VALUE, actual },
      );
    }
  }
};
