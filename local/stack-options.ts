/** What `startLocalStack` (run-local.ts) takes: the broker, the emulator, settings, and the tests' hooks. */
import type { Logger } from '@aws-lambda-powertools/logger';

import type { MarketOptions } from '../emulator/server.js';
import type { EmulatorDialect } from '../emulator/wire/dialect.js';
import type { FunctionDefinition } from '../functions/base/definition/types.js';
import type { GatewaySettings } from '../functions/base/runtime/config.js';
import type { ForwarderOptions } from '../functions/events/forwarder/function.js';
import type { WatcherOptions } from '../functions/events/watcher/function.js';
import type { StackPermissions } from '../infra/scripts/stack-permissions.js';
import type { DeadLetter, DeliveredEvent, LocalEventBridgeOptions } from './eventbridge.js';
import type { LocalSignalOptions } from './sqs.js';

export interface LocalStackOptions {
  /**
   * Hold every function's AWS calls to the deployed permissions (local/permissions/). Default on, unless
   * `GTT_LOCAL_PERMISSIONS=off`; false turns it off.
   */
  permissions?: boolean;
  /** Keep every evaluated call in `permissions.checked` (which grant each call needs). */
  recordPermissions?: boolean;
  /** Tests: the synthesized permissions changed before they are enforced (a grant taken away). */
  adjustPermissions?: (permissions: StackPermissions) => StackPermissions;
  /** The signal worker here: an actor of its own (tests), the wait before a failed message is delivered again. */
  signals?: LocalSignalOptions;
  /** A broker preset (functions/base/broker/presets.ts) on the emulator's address; default `emulator`. */
  broker?: string;
  /** Classic deployment: the scheduled TOTP login (QuickAuth), jKey sessions. */
  sessionRenewal?: boolean;
  /** The emulator's login pages pass `state` through (default: `code` only, as the live brokers). */
  echoOAuthState?: boolean;
  /** The emulator takes orders for any symbol (default: only its shipped list, emulator/state/symbols.ts). */
  acceptAnySymbol?: boolean;
  /** The emulator's market: prices at start, a seeded walk (default: no prices, still; `npm start` sets them). */
  market?: MarketOptions;
  /**
   * `/mcp` answers token-less callers over loopback, as an assistant with every scope and no limits (the MCP
   * conformance suite sends no headers; a first try without an assistant). Never possible deployed.
   */
  mcpOpen?: boolean;
  /** The dialect the emulator's GTT replies are in (emulator/wire/dialect.ts); default `noren`. */
  dialect?: EmulatorDialect;
  apiPort?: number;
  emulatorPort?: number;
  /** The emulator's clock (tests: price moves in minutes apart); the machine's by default. */
  emulatorNow?: () => Date;
  token?: string;
  /** Broker request timeout for the handlers (ms). */
  brokerTimeoutMs?: number;
  secretMaxAgeSeconds?: number;
  /** Extra settings by environment name (guardrails, the idempotency key rule, ...). */
  settings?: GatewaySettings;
  /** Tests: variables by name for one function of the manifest only (`{CancelGTTOrder: {...}}`). */
  overrides?: Readonly<Record<string, GatewaySettings>>;
  /**
   * false: no trading controls table for the functions (no order-rate governor, no kill switch): the benchmark of
   * the gateway's own overhead, which sends far more than 8 orders a second. Default on, as every deployment.
   */
  governor?: boolean;
  /** Tests: the logger every function writes to (`{ logger }`), to read what they log. */
  gateway?: { logger?: Logger };
  /**
   * The function set, every function from its definition; default the manifest's (functions/manifest/index.ts).
   * A test adds a definition of its own here without touching the manifest.
   */
  functions?: readonly FunctionDefinition[];
  /** POST every event to this URL as the stack's API destination would (NOTIFY_WEBHOOK_URL of npm start). */
  webhookUrl?: string;
  /** What the webhook gets (npm start's webhook format and NOTIFY_ON); default every event as the envelope. */
  notify?: LocalEventBridgeOptions['notify'];
  onEvent?: (event: DeliveredEvent) => void;
  onDeliveryProblem?: (message: string) => void;
  /** The webhook's local dead-letter file (one JSON line per event it never took), and who hears of each. */
  deadLetterFile?: string;
  onDeadLetter?: (letter: DeadLetter, file?: string) => void;
  /** Run the watcher every this many ms (npm start --watch-interval); absent: only when `watch()` is called. */
  watchIntervalMs?: number;
  onWatcherError?: (error: unknown) => void;
  /** Run the SignalWorker's sweep every this many ms (npm start: its schedule's minute); absent: on request only. */
  sweepIntervalMs?: number;
  onSweepError?: (error: unknown) => void;
  /** Test hooks of the watcher (e.g. a publisher that refuses events). */
  watcher?: Omit<WatcherOptions, 'env' | 'logger'>;
  /** Test hooks of the EventForwarder (e.g. a publisher that refuses events), and its deliveries per record. */
  forwarder?: Omit<ForwarderOptions, 'env' | 'logger'> & { maxAttempts?: number };
}
