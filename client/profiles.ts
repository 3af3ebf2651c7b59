/**
 * Profiles: one name per deployment (a broker account, docs/how-to/several-accounts.md), so the CLI and scripts need not repeat
 * URLs. A small JSON file, `$GTT_PROFILES` or else `~/.config/gtt-gateway/profiles.json`:
 *
 *   { "alice": { "url": "https://abc123.execute-api.ap-south-1.amazonaws.com", "region": "ap-south-1" },
 *     "bob":   { "url": "https://def456.execute-api.ap-south-1.amazonaws.com" } }
 *
 * Which wins: `--url`/`--region` given on the command line, then the profile, then `$GTT_API_URL`, then the
 * default (npm start's address). A profile named but not found is an error, never a silent fallback to another
 * deployment.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import { isLoopbackUrl } from './signing.js';

export interface Profile {
  url: string;
  region?: string;
}

export const profilesFile = (env: Record<string, string | undefined> = process.env): string =>
  env.GTT_PROFILES || join(env.HOME || homedir(), '.config', 'gtt-gateway', 'profiles.json');

/** The profile `name`, or a sentence saying why there is none (file missing, unreadable, no such name, bad url). */
export const loadProfile = (name: string, env: Record<string, string | undefined> = process.env): Profile | string => {
  const file = profilesFile(env);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return `--profile ${name}: no profiles file at ${file} (set GTT_PROFILES, or write it: docs/how-to/several-accounts.md)`;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `--profile ${name}: ${file} is not JSON`;
  }
  const profiles = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const entry = profiles[name] as { url?: unknown; region?: unknown } | undefined;
  if (!Object.hasOwn(profiles, name) || typeof entry !== 'object' || entry === null) {
    const known = Object.keys(profiles);
    return `--profile ${name}: not in ${file}${known.length ? ` (it has ${known.join(', ')})` : ''}`;
  }
  if (typeof entry.url !== 'string' || !/^https?:\/\/\S+$/.test(entry.url) || !URL.canParse(entry.url))
    return `--profile ${name}: its "url" must be the API's http(s) address, in ${file}`;
  // A deployment is reached over https; plain http only on this machine (npm start).
  if (new URL(entry.url).protocol === 'http:' && !isLoopbackUrl(entry.url))
    return `--profile ${name}: its "url" ${entry.url} is plain http:// to another host, which the client will not sign for: use https:// (API Gateway's address), in ${file}`;
  if (entry.region !== undefined && (typeof entry.region !== 'string' || !/^[a-z]{2}(-[a-z]+)+-\d$/.test(entry.region)))
    return `--profile ${name}: its "region" must be an AWS region such as ap-south-1, in ${file}`;
  return { url: entry.url, ...(typeof entry.region === 'string' ? { region: entry.region } : {}) };
};
