// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// The MCP server for assistants: an assistant's bearer token, its tools, previews confirmed once
import { logger } from '../base/runtime/logger.js';
import { createMcpFunction } from '../mcp/function.js';

export const handler = createMcpFunction({ logger });
