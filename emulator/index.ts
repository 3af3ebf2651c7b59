export {
  BrokerEmulator,
  OPERATIONS as BROKER_OPERATIONS,
  type EmulatorOptions,
  type EmulatorReply,
  type EmulatorRequest,
  type FiredOrder,
  type LoggedRequest,
  type Switches,
} from './service.js';
export { startEmulator, type RunningEmulator, type StartOptions } from './server.js';
export { DEMO_ACTID, DEMO_BROKER, DEMO_UID, EXCHANGES } from './state.js';
export { sha256Hex, type LoginCredentials, type OAuthApp } from './session-login.js';
