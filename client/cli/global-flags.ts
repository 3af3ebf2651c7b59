/** The flags every command takes: where the API is, how to call it, how to print. */
import type { FlagSpec } from './command.js';

export const DEFAULT_URL = 'http://127.0.0.1:3000';

export interface GlobalFlag extends FlagSpec {
  /** What it does, for the usage. */
  summary: string;
}

export const GLOBAL_FLAGS: readonly GlobalFlag[] = [
  { name: 'url', value: 'URL', summary: `the API (default: the profile's, else $GTT_API_URL, else ${DEFAULT_URL})` },
  {
    name: 'profile',
    value: 'NAME',
    summary:
      'a deployment named in $GTT_PROFILES or ~/.config/gtt-gateway/profiles.json (docs/how-to/several-accounts.md)',
  },
  { name: 'sign', summary: 'SigV4-sign with the AWS default credentials (default: on unless the URL is loopback)' },
  { name: 'no-sign', summary: 'do not sign (npm start checks no signature)' },
  { name: 'region', value: 'R', summary: 'signing region (default: from an execute-api URL, else AWS_REGION)' },
  { name: 'json', summary: `machine output: the API's JSON on stdout; errors as {"error":{...}} on stderr` },
  {
    name: 'dry-run',
    summary: 'the commands that show [--dry-run]: the exact broker request is shown; nothing is sent',
  },
  { name: 'timeout', value: 'MS', summary: 'per attempt (default 10000)' },
  { name: 'attempts', value: 'N', summary: 'of a retry-safe call (default 4)' },
  { name: 'verbose', summary: 'print retries on stderr' },
  { name: 'help', summary: 'every command and flag (after a command: that command only)' },
  { name: 'version', summary: 'the version' },
];
