/**
 * How the console reaches the API, chosen by `config.json` beside the page (console/src/config.ts): `local` (npm
 * start: same-origin calls, nothing to sign) or `cognito` (deployed: the Cognito sign-in and SigV4-signed calls,
 * cognito.ts). The rest of the app sees only a `Session`: a `fetch` to call the API with, who is signed in, and how
 * to sign out.
 */
import { type ConsoleConfig, consoleConfigSchema } from '../config.js';
import { startCognitoSession } from './cognito.js';

export type { ConsoleConfig };

/** The page's address (read through a narrow cast: this file also compiles, for its tests, without the DOM types). */
const page = (): { origin: string; href: string } =>
  (globalThis as unknown as { location: { origin: string; href: string } }).location;

export interface Session {
  /** Fetch for the API: a path (`/gtt-orders`) is the API's; deployed, every call is signed. */
  fetch: typeof fetch;
  /** Who is signed in (deployed). */
  user?: string;
  /** Ends the session (deployed): clears this tab's tokens and signs out of the managed login. */
  signOut?: () => void;
}

/** The API's base URL for this config: the deployed API's, or the page's own origin (npm start serves both). */
export const apiBaseUrl = (config: ConsoleConfig): string =>
  (config.mode === 'cognito' ? config.apiUrl : page().origin).replace(/\/+$/, '');

/** Starts the session `config` asks for (local: no sign-in; cognito: the managed login when not signed in). */
export const startSession = async (config: ConsoleConfig): Promise<Session> =>
  config.mode === 'local' ? { fetch: (input, init) => globalThis.fetch(input, init) } : startCognitoSession(config);

/** Reads `config.json` next to the page, checked whole: a bad one is an error naming what is wrong. */
export const loadConfig = async (): Promise<ConsoleConfig> => {
  const res = await globalThis.fetch(new URL('config.json', page().href), { cache: 'no-store' } as RequestInit);
  if (!res.ok) throw new Error(`config.json: HTTP ${res.status}`);
  const parsed = consoleConfigSchema.safeParse(await res.json());
  if (!parsed.success)
    throw new Error(`config.json: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
};
