/** Input validation: one zod parse, and a VALIDATION_FAILED error that names every failing field and rule. */
import type { z } from 'zod';
import { ValidationFailedError } from './errors.js';

export interface FieldProblem {
  field: string;
  message: string;
}

export const describeIssues = (issues: readonly z.core.$ZodIssue[]): FieldProblem[] =>
  issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return { field: issue.keys.join(', '), message: `unknown field${issue.keys.length > 1 ? 's' : ''}: not part of this operation` };
    }
    const field = issue.path.map(String).join('.') || '(body)';
    return { field, message: issue.message };
  });

export const validateInput = <T>(schema: z.ZodType<T>, payload: unknown): T => {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const problems = describeIssues(parsed.error.issues);
  throw new ValidationFailedError(
    `Invalid request: ${problems.map((p) => (p.message.startsWith(p.field) ? p.message : `${p.field}: ${p.message}`)).join('; ')}`,
    { details: problems },
  );
};
