/**
 * Input validation: one zod parse, and a VALIDATION_FAILED error that names every failing field and rule. What it
 * echoes of the caller's input is capped: a field name, a message or a list of unknown keys never carries a huge
 * value back (see bounded.ts).
 */
import type { z } from 'zod';

import { capText } from './bounded.js';
import { type FieldProblem, ValidationFailedError } from './errors.js';

export type { FieldProblem };

/** Longest field name (or path) and message of one problem, and how many problems and unknown keys are listed. */
const MAX_FIELD = 128;
const MAX_MESSAGE = 300;
const MAX_PROBLEMS = 20;
const MAX_UNKNOWN_KEYS = 10;

const pathOf = (path: readonly PropertyKey[]): string =>
  capText(path.map((part) => capText(String(part), 64)).join('.'), MAX_FIELD);

export const describeIssues = (issues: readonly z.core.$ZodIssue[]): FieldProblem[] =>
  issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      // Nested objects (an OCO leg) name the unknown key with its path: `target.d`.
      const prefix = issue.path.length ? `${pathOf(issue.path)}.` : '';
      const listed = issue.keys.slice(0, MAX_UNKNOWN_KEYS).map((key) => prefix + capText(key, 64));
      const more = issue.keys.length - listed.length;
      return {
        field: listed.join(', ') + (more > 0 ? `, … (${more} more)` : ''),
        message: `unknown field${issue.keys.length > 1 ? 's' : ''}: not part of this operation`,
      };
    }
    const field = pathOf(issue.path) || '(body)';
    return { field, message: capText(issue.message, MAX_MESSAGE) };
  });

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
  throw validationFailed(describeIssues(parsed.error.issues));
};
