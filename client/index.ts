/**
 * The package's `./client` entry: the typed client of the gtt-gateway HTTP API (docs/reference/client.md).
 *
 *   import { createGttClient } from 'gtt-gateway/client';
 */
export { createGttClient, GttClient } from './client.js';
export {
  CLIENT_ERROR_CODES,
  type ClientErrorCode,
  type ContractErrorCode,
  type GttErrorCode,
  GttGatewayError,
  isGttGatewayError,
  type Outcome,
} from './errors.js';
export { EXIT_CODES, exitCodeFor } from './exit-codes.js';
export type { components, operations, paths } from './generated/openapi.js';
export { OPERATION_INFO, type OperationInfo } from './generated/operations.js';
export { loadProfile, type Profile, profilesFile } from './profiles.js';
export { sampleAlert, sendSignal, type SignalReply } from './signals.js';
export {
  type AwsCredentials,
  type CredentialsProvider,
  defaultCredentials,
  isLoopbackUrl,
  regionFromUrl,
} from './signing.js';
export {
  type AssistantCreated,
  type AssistantDeleted,
  type AssistantInput,
  type AssistantList,
  type AssistantRecord,
  type AssistantToken,
  type CallInput,
  type CallOptions,
  type CancelResult,
  type ClientDetails,
  type DryRunResult,
  type EnabledGtts,
  type GttClientOptions,
  type GttOrder,
  type GttOrderChanges,
  type GttOrderInput,
  type GttOrderRead,
  type ListFilters,
  type LogoutResult,
  type ModifyOcoResult,
  type ModifyResult,
  type OcoOrderChanges,
  type OcoOrderInput,
  type OperationBody,
  type OperationId,
  type OperationPathParams,
  type OperationQuery,
  type OperationResult,
  type OrderList,
  type OrderOptions,
  type PatchOcoResult,
  type PatchResult,
  type PlaceOcoResult,
  type PlaceResult,
  type Quote,
  type QuoteQuery,
  type RetryEvent,
  type SignalAccepted,
  type StrategyCreated,
  type StrategyDeleted,
  type StrategyInput,
  type StrategyList,
  type StrategyRecord,
  type TriggeredList,
  type TriggeredPage,
} from './types.js';
