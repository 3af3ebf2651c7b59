export { BrokerEmulator, OPERATIONS as BROKER_OPERATIONS, type EmulatorReply, type EmulatorRequest, type LoggedRequest, type Switches } from './service.js';
export { startEmulator, type RunningEmulator, type StartOptions } from './server.js';
export { DEMO_ACTID, DEMO_BROKER, DEMO_UID } from './state.js';
