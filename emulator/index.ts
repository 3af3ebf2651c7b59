export { type LoginCredentials, type OAuthApp, sha256Hex } from './login/session-login.js';
export { type RunningEmulator, startEmulator, type StartOptions } from './server.js';
export {
  OPERATIONS as BROKER_OPERATIONS,
  BrokerEmulator,
  type EmulatorOptions,
  type EmulatorReply,
  type EmulatorRequest,
  type FiredOrder,
  type LoggedRequest,
  type Switches,
} from './service.js';
export { DEMO_ACTID, DEMO_BROKER, DEMO_UID, EXCHANGES } from './state/state.js';
export { EMULATOR_DIALECTS, type EmulatorDialect } from './wire/dialect.js';
