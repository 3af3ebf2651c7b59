/** The `{field, message}` problems a schema reports for a payload (the test fails if the payload is accepted). */
import { expect } from 'vitest';

import { ValidationFailedError } from '../../functions/base/contract/errors.js';
import { validateInput } from '../../functions/base/contract/validate-input.js';

export const problemsOf = (schema: Parameters<typeof validateInput>[0], payload: unknown) => {
  try {
    validateInput(schema, payload);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailedError);
    return (error as ValidationFailedError).details as { field: string; message: string }[];
  }
  throw new Error('expected a validation failure');
};
