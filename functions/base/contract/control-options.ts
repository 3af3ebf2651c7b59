/**
 * The request rules for the control functions (kill switch, plans), which take no dry run: a query parameter (HTTP)
 * or a field (direct invocation) they do not read is refused, never ignored, and `dryRun` by name, because these
 * functions would otherwise act for real on a caller who asked to see only what would be done (docs/reference/request-rules.md).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

import type { FieldProblem } from './errors.js';
import { isHttpApiEvent } from './gateway-request.js';
import { validationFailed } from './validate-input.js';

const problemOf = (name: string, what: string, where: 'query parameter' | 'field'): FieldProblem =>
  name === 'dryRun'
    ? {
        field: 'dryRun',
        message: `dryRun is not offered by ${what}: it would act for real, so nothing was done`,
      }
    : { field: name, message: `${name} is not a ${where} of ${what}; nothing was done` };

/**
 * Refuses what `what` (e.g. `POST /kill-switch`) does not read: HTTP query parameters outside `query`, or direct
 * invocation fields outside `fields`.
 */
export const refuseUnread = (
  event: unknown,
  what: string,
  allowed: { query?: readonly string[]; fields?: readonly string[] },
): void => {
  const http = isHttpApiEvent(event);
  const present = http
    ? Object.keys((event as APIGatewayProxyEventV2).queryStringParameters ?? {})
    : typeof event === 'object' && event !== null
      ? Object.keys(event)
      : [];
  const known = (http ? allowed.query : allowed.fields) ?? [];
  const problems = present
    .filter((name) => !known.includes(name))
    .map((name) => problemOf(name, what, http ? 'query parameter' : 'field'));
  if (problems.length) throw validationFailed(problems);
};
