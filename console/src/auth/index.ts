/**
 * How the console reaches the API: `startSession(config)` from `config.json`. Locally (`npm start`) plain fetch
 * (nothing checks a signature there); deployed, the Cognito sign-in and SigV4-signed calls (cognito.ts).
 */
import type { ConsoleConfig } from '../config.js';
import { startCognitoSession } from './cognito.js';

export interface Session {
  /** Fetch for the API: a path (`/gtt-orders`) is the API's; deployed, every call is signed. */
  fetch: typeof fetch;
  /** Who is signed in (deployed). */
  user?: string;
  /** Ends the session (deployed): clears this tab's tokens and signs out of the managed login. */
  signOut?: () => void;
}

export const startSession = async (config: ConsoleConfig): Promise<Session> =>
  config.mode === 'local' ? { fetch: (input, init) => globalThis.fetch(input, init) } : startCognitoSession(config);
