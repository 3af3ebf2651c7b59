/**
 * The operations of the HTTP API the tools call: the remote MCP function may invoke exactly these signed routes
 * (its `api:invoke` grant), and nothing else (never `/assistants`: an assistant cannot change its own limits).
 * test/unit/mcp-preview.test.ts fails when a tool calls an operation missing here.
 */
import type { OperationId } from '../client/types.js';

export const TOOL_OPERATIONS = [
  'GetPendingGTTOrder',
  'GetGTTOrder',
  'GetTriggeredGTTOrders',
  'GetOrderBook',
  'GetPositions',
  'GetRiskLimits',
  'GetCoverage',
  'ListPlans',
  'GetPlan',
  'ListStrategies',
  'ListSignals',
  'ListEvents',
  'GetSession',
  'GetKillSwitch',
  'GetQuote',
  'ClientDetails',
  'PlaceGTTOrder',
  'ModifyGTTOrder',
  'PatchGTTOrder',
  'PlaceOCOOrder',
  'ModifyOCOOrder',
  'PatchOCOOrder',
  'CancelGTTOrder',
  'CreatePlan',
  'CancelPlan',
  'ActivateKillSwitch',
  'ReleaseKillSwitch',
  'SetRiskLimits',
  'PutCoverageSettings',
  'ClosePosition',
] as const satisfies readonly OperationId[];
