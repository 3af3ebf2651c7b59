/**
 * Where the command line calls and with which client: the API's address and region from --url/--region, the
 * profile, $GTT_API_URL or npm start's address (client/profiles.ts), and the client the global flags make.
 */
import { createGttClient, type GttClient } from '../client.js';
import { loadProfile } from '../profiles.js';
import type { Io } from './command.js';
import type { Flags, Values } from './flags.js';
import { DEFAULT_URL } from './global-flags.js';

export interface Target {
  baseUrl: string;
  region: string | undefined;
}

/** --url/--region win, then the profile, then $GTT_API_URL, then npm start's address; a bad profile is a problem. */
export const resolveTarget = (f: Flags, env: NodeJS.ProcessEnv): Target => {
  const profileName = f.str('profile');
  const loaded = profileName === undefined ? undefined : loadProfile(profileName, env);
  if (typeof loaded === 'string') f.problem(loaded);
  const profile = typeof loaded === 'object' ? loaded : undefined;
  return {
    baseUrl: (f.str('url') || profile?.url || env.GTT_API_URL || DEFAULT_URL).replace(/\/+$/, ''),
    region: f.str('region') || profile?.region,
  };
};

/** The client of `target` and the global flags: signing, per-attempt timeout, attempts, retries printed. */
export const clientFor = (
  target: Target,
  values: Values,
  limits: { timeoutMs: number | undefined; maxAttempts: number | undefined },
  io: Io,
): GttClient =>
  createGttClient({
    baseUrl: target.baseUrl,
    sign: values.sign ? true : values['no-sign'] ? false : 'auto',
    ...(target.region ? { region: target.region } : {}),
    ...(limits.timeoutMs ? { timeoutMs: limits.timeoutMs } : {}),
    ...(limits.maxAttempts ? { maxAttempts: limits.maxAttempts } : {}),
    ...(values.verbose
      ? {
          onRetry: (e) =>
            io.err(
              `retry: attempt ${e.attempt} failed with ${e.error.code}${e.error.status ? ` (HTTP ${e.error.status})` : ''}; again in ${e.delayMs} ms`,
            ),
        }
      : {}),
  });
