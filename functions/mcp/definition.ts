/** The definition of the remote MCP function (docs/reference/assistants.md, "The remote server"); the manifest lists it. */
import { TOOL_OPERATIONS } from '../../mcp/operations.js';
import type { FunctionDefinition } from '../base/definition/types.js';
import { createMcpFunction } from './function.js';
import { MCP_ROUTES } from './routes.js';

export const MCP_SERVER: FunctionDefinition = {
  ...MCP_ROUTES,
  id: 'mcp-server',
  summary: "The MCP server for assistants: an assistant's bearer token, its tools, previews confirmed once",
  env: { keys: ['eventsTableName', 'eventBusName'], deploymentSettings: false },
  grants: ['eventsTable:mcp', 'api:invoke', 'bus:publish'],
  invokes: TOOL_OPERATIONS,
  notes: {
    home: 'stack',
    roleDescription:
      "gtt-gateway McpServer: its log group, assistants' token items, day counters and previews in the events table, execute-api:Invoke on exactly its tools' signed routes, publish its Assistant Action events on the gateway bus",
  },
  alarms: {
    errors: {
      description: 'McpServer: function errors (the events table or the API could not be reached)',
      threshold: 3,
    },
  },
  // A confirm waits on an order route of the API (its broker call, 8 s at most, and its retry), within API
  // Gateway's 30 s for the /mcp request itself.
  bundle: { memory: 'standard', timeoutSeconds: 25, handler: { kind: 'factory', from: '../mcp/function.js' } },
  create: createMcpFunction,
};
