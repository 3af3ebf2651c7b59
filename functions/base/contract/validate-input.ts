/**
 * Input validation: one zod parse, and a VALIDATION_FAILED error that names every failing field and rule. What it
 * echoes of the caller's input is capped: a field name, a message or a list of unknown keys never carries a huge
 * value back (see bounded.ts).
 */
import type { z } from 'zod';

import { capText } from './bounded.js';
import { type FieldProblem, ValidationFailedError } from './errors.js';
import { knownFieldsAt, meantField } from './field-hints.js';

export type { FieldProblem };

/** Longest field name (or path) and message of one problem, and how many problems and unknown keys are listed. */
const MAX_FIELD = 128;
const MAX_MESSAGE = 300;
/** A refused choice's message (`type must be one of ...`): the list of choices is never cut off. */
const MAX_CHOICES_MESSAGE = 1_000;
const MAX_PROBLEMS = 20;
const MAX_UNKNOWN_KEYS = 10;

const pathOf = (path: readonly PropertyKey[]): string =>
  capText(path.map((part) => capText(String(part), 64)).join('.'), MAX_FIELD);

/**
 * Each issue as a field problem. An unknown key the caller plainly meant as another (`price` for `prc`, `qyt` for
 * `qty`, as `schema` has it at that place) is its own problem naming the field to use; the rest are listed together.
 */
/** The value at `path` of the caller's payload (undefined: absent). */
const valueAt = (payload: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (value, part) =>
      value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[part] : undefined,
    payload,
  );

export const describeIssues = (
  issues: readonly z.core.$ZodIssue[],
  schema?: z.ZodType,
  payload?: unknown,
): FieldProblem[] => {
  const meantFields = new Set<string>();
  const problems = issues.flatMap((issue): FieldProblem[] => {
    if (issue.code === 'unrecognized_keys') {
      // Nested objects (an OCO leg) name the unknown key with its path: `target.d`.
      const prefix = issue.path.length ? `${pathOf(issue.path)}.` : '';
      const known = schema ? knownFieldsAt(schema, issue.path) : [];
      const keys = issue.keys.slice(0, MAX_UNKNOWN_KEYS);
      const hinted = keys.flatMap((key) => {
        const meant = meantField(key, known);
        // Sent under another name: what the meant field's own rules say of its absence is no news.
        if (meant !== undefined && valueAt(payload, [...issue.path, meant]) === undefined)
          meantFields.add(prefix + meant);
        return meant === undefined
          ? []
          : [{ field: prefix + capText(key, 64), message: `unknown field: did you mean ${prefix}${meant}?` }];
      });
      const rest = keys.filter((key) => meantField(key, known) === undefined).map((key) => prefix + capText(key, 64));
      const more = issue.keys.length - keys.length;
      const unhinted = rest.length + more;
      return [
        ...hinted,
        ...(unhinted > 0
          ? [
              {
                field: rest.join(', ') + (more > 0 ? `${rest.length ? ', ' : ''}… (${more} more)` : ''),
                message: `unknown field${unhinted > 1 ? 's' : ''}: not part of this operation`,
              },
            ]
          : []),
      ];
    }
    const field = pathOf(issue.path) || '(body)';
    // A refused choice lists the choices: the schema's own words, kept whole (still bounded).
    const max = issue.code === 'invalid_value' ? MAX_CHOICES_MESSAGE : MAX_MESSAGE;
    return [{ field, message: capText(issue.message, max) }];
  });
  // `d is required` (or a rule of d's value) says nothing more when `trigger: did you mean d?` is there.
  return problems.filter((p) => !meantFields.has(p.field));
};

/** The VALIDATION_FAILED error for a list of problems: every place that refuses input builds it this one way. */
export const validationFailed = (
  problems: readonly FieldProblem[],
  summary = 'Invalid request',
): ValidationFailedError => {
  const listed = problems.slice(0, MAX_PROBLEMS);
  const more = problems.length - listed.length;
  const text = listed.map((p) => (p.message.startsWith(p.field) ? p.message : `${p.field}: ${p.message}`)).join('; ');
  return new ValidationFailedError(`${summary}: ${text}${more > 0 ? `; … (${more} more problems)` : ''}`, {
    details: listed,
  });
};

export const validateInput = <T>(schema: z.ZodType<T>, payload: unknown): T => {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  throw validationFailed(describeIssues(parsed.error.issues, schema, payload));
};
