/**
 * Bounded views of caller input, for log records and error messages. Input is untrusted and may be huge (a 500 KB
 * string) or deep (thousands of nested arrays): whatever the gateway echoes or logs of it is capped, so a reply
 * or a log line stays small and serialising it can never throw.
 */

/** The longest piece of caller text the gateway echoes or logs as is. */
export const MAX_ECHOED_TEXT = 256;

export interface ViewLimits {
  /** Longest string kept whole (UTF-16 code units). */
  maxString: number;
  /** Levels of objects/arrays shown; deeper values become a short marker. */
  maxDepth: number;
  /** Keys of an object, items of an array shown; the rest is counted. */
  maxKeys: number;
}

export const LOG_VIEW: ViewLimits = { maxString: MAX_ECHOED_TEXT, maxDepth: 4, maxKeys: 20 };

/** `text` itself when short, else its start and how much was cut (never splitting a surrogate pair). */
export const capText = (text: string, max = MAX_ECHOED_TEXT): string => {
  if (text.length <= max) return text;
  let cut = max;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return `${text.slice(0, cut)}…(${text.length - cut} more characters)`;
};

/**
 * A JSON-safe copy of `value` within `limits`: strings capped, depth, keys and items limited, non-finite numbers
 * and bigints as strings, functions and symbols as markers. Own enumerable keys only; `__proto__` stays a key.
 */
export const boundedView = (value: unknown, limits: ViewLimits = LOG_VIEW, depth = 0): unknown => {
  switch (typeof value) {
    case 'string':
      return capText(value, limits.maxString);
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'boolean':
    case 'undefined':
      return value;
    case 'bigint':
      return capText(value.toString(), limits.maxString);
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        if (depth >= limits.maxDepth) return `[array of ${value.length}]`;
        const items = value.slice(0, limits.maxKeys).map((item) => boundedView(item, limits, depth + 1));
        if (value.length > limits.maxKeys) items.push(`…(${value.length - limits.maxKeys} more items)`);
        return items;
      }
      const keys = Object.keys(value);
      if (depth >= limits.maxDepth) return `[object with ${keys.length} keys]`;
      const entries: [string, unknown][] = keys
        .slice(0, limits.maxKeys)
        .map((key) => [capText(key, 64), boundedView((value as Record<string, unknown>)[key], limits, depth + 1)]);
      if (keys.length > limits.maxKeys) entries.push(['…', `${keys.length - limits.maxKeys} more keys`]);
      // fromEntries defines own properties: a `__proto__` key stays a key, never a prototype.
      return Object.fromEntries(entries);
    }
    default:
      return `[${typeof value}]`;
  }
};

/** A short JSON rendering of a caller's value for an error message (`"abc"`, `{"a":[…]}`), at most `max` characters. */
export const preview = (value: unknown, max = 64): string =>
  capText(JSON.stringify(boundedView(value, { maxString: max, maxDepth: 2, maxKeys: 4 })) ?? String(value), max);
