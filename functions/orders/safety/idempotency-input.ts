/**
 * What an idempotency key stands for: the validated input with every numeric field in its canonical spelling, so a
 * retry that spells a price `100.0` after `100` is the same request (the journal's same-body check, plans' keys).
 */

/** The input's numeric fields (prices, triggers, quantities; a plan's leg prices and trail), whose spelling does not change the order. */
const NUMERIC_FIELDS = new Set(['prc', 'd', 'qty', 'trgprc', 'trigger', 'ltp', 'price', 'trailBy', 'step']);

/** `100.50`, `100.5` and `0100.5` are one price: the canonical spelling, for the same-body check of a key. */
const canonicalDecimal = (text: string): string => {
  const match = /^0*(\d*?)(?:\.(\d*?)0*)?$/.exec(text);
  if (!match) return text;
  const whole = match[1] === '' ? '0' : match[1]!;
  return match[2] ? `${whole}.${match[2]}` : whole;
};

/**
 * The validated input with every numeric field in its canonical spelling, at any depth (OCO legs): what the
 * idempotency record hashes, so a retry that spells `prc` as `100.0` after `100` is the same request.
 */
export const canonicalNumbers = (value: unknown, field?: string): unknown => {
  if (typeof value === 'string')
    return field !== undefined && NUMERIC_FIELDS.has(field) ? canonicalDecimal(value) : value;
  if (Array.isArray(value)) return value.map((item) => canonicalNumbers(item));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, canonicalNumbers(item, key)]));
  }
  return value;
};

/**
 * The input as one text, its numbers canonical (canonicalNumbers) and the keys of every object sorted: what a key's
 * same-body check hashes (plans, strategies, assistants).
 */
export const canonicalInput = (value: unknown): string =>
  JSON.stringify(canonicalNumbers(value), (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
