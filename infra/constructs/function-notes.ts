/**
 * The construct ids of a function's route integrations, from its definition (functions/manifest/): part of the logical
 * ids of the route's integration and permission, so they stay those the deployed stacks already have. What the stack
 * says of a function (where it is built, its descriptions, its alarms) is in its definition's `notes` and `alarms`.
 */
import type { FunctionDefinition, Route } from '../../functions/manifest/index.js';

/**
 * An operation's is `<name>Integration` (a route beside it `<name><operationId>Integration`), a session function's names the path's last segment
 * (`OAuthCallbackcallbackIntegration`), any other's the method and, with a path parameter, `One`
 * (`PlansGETOneIntegration`).
 */
export const integrationIdOf = (entry: FunctionDefinition, route: Route): string => {
  // A route served beside the operation (the quote function's GET /options) is named after its own operationId.
  if (entry.operation)
    return route.operationId === entry.operation.name
      ? `${entry.name}Integration`
      : `${entry.name}${route.operationId}Integration`;
  if (entry.notes.home === 'session') return `${entry.name}${route.path.split('/').pop()}Integration`;
  return `${entry.name}${route.method}${Object.keys(route.pathParams).length ? 'One' : ''}Integration`;
};
