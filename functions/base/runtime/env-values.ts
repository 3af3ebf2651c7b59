/**
 * The shapes of the catalogue's values (env.ts): an http(s) URL, a comma-separated list, a flag, a limit with a
 * default and `off`, decimals and Telegram chats, and the guardrails' defaults.
 */
import * as z from 'zod';

export const httpUrl = () => z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

export const list = <T extends readonly string[]>(name: string, allowed?: T) =>
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

export const flag = () =>
  z
    .enum(['true', 'false', '1', '0', ''], { error: 'must be true or false' })
    .transform((v) => v === 'true' || v === '1')
    .default(false);

export const DECIMAL = /^\d{1,14}(\.\d{1,8})?$/;
/** A Telegram chat: a numeric chat id (a group's is negative) or a public channel's `@name`. */
export const TELEGRAM_CHAT = /^-?\d{1,20}$|^@[A-Za-z0-9_]{5,32}$/;

/**
 * The limits in force when a deployment sets none: they catch a fat-fingered order (an extra zero or three), not a
 * trader's sizing. 10,000 is more than a retail account's usual equity order or a few dozen F&O lots; ₹25 lakh
 * holds one futures lot (SEBI's minimum contract value is ₹15 lakh) and any ordinary cash order, and refuses the
 * ₹150 crore of `--qty 1000000 --price 1500`. A deployment sets its own, or `off` (docs/explanation/order-safety.md).
 */
export const GUARDRAIL_DEFAULTS = { maxQty: '10000', maxOrderValue: '2500000' } as const;
/** The value that turns a default limit off (GUARDRAIL_MAX_QTY=off). */
export const LIMIT_OFF = 'off';

/** A limit with a default: unset or empty is `fallback`, `off` is no limit (undefined), else it must match. */
export const limitSetting = (fallback: string, pattern: RegExp, error: string) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? fallback : v.trim()))
    .refine((v) => v === LIMIT_OFF || pattern.test(v), { error: `${error} (or ${LIMIT_OFF} for no limit)` })
    .transform((v) => (v === LIMIT_OFF ? undefined : v));
