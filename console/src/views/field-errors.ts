/**
 * The API's validation `details` (`[{field, message}]`, the field a dotted path of the body) sorted onto a form's
 * fields: pure, no page code, so the root's unit tests import it without the browser's types (form-kit.ts uses it).
 */

/** The messages per form field. */
export type FieldErrors = Record<string, string[]>;

/**
 * Sorts the API's `details` onto the form's fields: `fieldOf(apiField)` names the form's field (or undefined: not
 * one of the form's). Answers the messages per field and the ones left over, written with their API field.
 */
export const sortDetails = (
  details: unknown,
  fieldOf: (apiField: string) => string | undefined,
): { errors: FieldErrors; rest: string[] } => {
  const errors: FieldErrors = {};
  const rest: string[] = [];
  for (const item of Array.isArray(details) ? (details as unknown[]) : []) {
    const { field, message } = (item ?? {}) as { field?: unknown; message?: unknown };
    if (typeof message !== 'string') continue;
    const name = typeof field === 'string' ? fieldOf(field) : undefined;
    if (name) (errors[name] ??= []).push(message);
    else rest.push(typeof field === 'string' ? `${field}: ${message}` : message);
  }
  return { errors, rest };
};

/** A form field of a dotted API path: the longest prefix `table` names (`target.order.prc` → `target.order`). */
export const byPrefix =
  (table: Record<string, string>) =>
  (apiField: string): string | undefined => {
    for (let path = apiField; path; path = path.slice(0, Math.max(0, path.lastIndexOf('.')))) {
      if (table[path]) return table[path];
      if (!path.includes('.')) break;
    }
    return undefined;
  };
