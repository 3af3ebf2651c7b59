/**
 * How the console reaches the API, chosen by `config.json` beside the page: `local` (npm start: same-origin calls,
 * nothing to sign) or a deployment's mode. The rest of the app sees only a `Session`: a `fetch` to call the API with,
 * who is signed in, and how to sign out.
 */

/** `config.json`: `{ "mode": "local" }` under npm start; a deployment writes its own mode and settings. */
export interface ConsoleConfig {
  mode: 'local' | 'cognito';
  /** The API's origin; absent: the page's own (npm start serves both). */
  apiUrl?: string;
  /** Whatever else a mode needs (the deployment's sign-in settings). */
  [setting: string]: unknown;
}

export interface Session {
  /** Calls the API: `fetch`, with whatever the mode adds (a signature). */
  fetch: typeof fetch;
  /** Who is signed in, when the mode signs anyone in. */
  user?: string;
  signOut?: () => void;
}

/** The API's base URL for this config: its `apiUrl`, or the page's origin. */
export const apiBaseUrl = (config: ConsoleConfig): string =>
  (config.apiUrl ?? window.location.origin).replace(/\/+$/, '');

/** A `fetch` for the API under `config`. Local: the browser's own, same-origin (the local API refuses other origins). */
export const apiFetch = (config: ConsoleConfig): typeof fetch => {
  if (config.mode === 'local') return (input, init) => window.fetch(input, init);
  throw new Error(`The console has no sign-in for mode ${JSON.stringify(config.mode)} in this build.`);
};

/** Starts the session `config` asks for (local: no sign-in). */
export const startSession = async (config: ConsoleConfig): Promise<Session> => {
  if (config.mode === 'local') return Promise.resolve({ fetch: apiFetch(config) });
  throw new Error(`The console has no sign-in for mode ${JSON.stringify(config.mode)} in this build.`);
};

/** Reads `config.json` next to the page. */
export const loadConfig = async (): Promise<ConsoleConfig> => {
  const res = await window.fetch(new URL('config.json', window.location.href), { cache: 'no-store' });
  if (!res.ok) throw new Error(`config.json: HTTP ${res.status}`);
  const config = (await res.json()) as ConsoleConfig;
  if (config.mode !== 'local' && config.mode !== 'cognito')
    throw new Error(`config.json: unknown mode ${JSON.stringify(config.mode)}`);
  return config;
};
