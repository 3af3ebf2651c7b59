/**
 * `npm run mcp`: the MCP server over stdio, calling the gateway through the typed client: `--url` (default: the
 * profile's, else $GTT_API_URL, else npm start's address) or `--profile NAME` (SigV4-signed, as the CLI does).
 *
 *   npm run mcp -- --url http://127.0.0.1:3000 [--scope trade|exit|read] [--max-qty N] [--max-value N] [--exchanges NSE,BSE]
 *
 * `--scope` (else $GTT_MCP_SCOPE, else trade) is what an assistant token's scopes are to the remote server: `exit`
 * holds every write to the exit-only rule (mcp/exit-only.ts), `read` lists the reads only (`--read-only` says the
 * same). stdout carries the protocol only; messages go to stderr.
 */
import { parseArgs } from 'node:util';

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { DEFAULT_URL } from '../client/cli/global-flags.js';
import { createGttClient } from '../client/client.js';
import { loadProfile } from '../client/profiles.js';
import { assistantLimits } from '../functions/base/schemas/assistants.js';
import { MemoryConfirmationStore } from './confirmations.js';
import { clientPort } from './port.js';
import { createMcpServer, type Scope } from './server.js';

const USAGE =
  'usage: gtt-mcp [--url URL | --profile NAME] [--region R] [--scope trade|exit|read | --read-only] [--max-qty N] [--max-value N] [--exchanges NSE,BSE] [--assistant NAME]\n' +
  '       (in the repository: npm run mcp -- ...)';

const fail = (message: string): never => {
  process.stderr.write(`gtt-mcp: ${message}\n${USAGE}\n`);
  process.exit(2);
};

const positive = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fail(`--${name} must be a positive number, got ${value}`);
};

/** A scope as an assistant token carries it (functions/base/schemas/assistants.ts): read is always given. */
const SCOPES = { trade: ['read', 'trade'], exit: ['read', 'exit'], read: ['read'] } as const satisfies Record<
  string,
  readonly Scope[]
>;
type ScopeName = keyof typeof SCOPES;
const SAID: Record<ScopeName, string> = {
  trade: 'read and trade (every write previewed, then confirmed)',
  exit: 'read and exit-only (writes that only reduce a position, previewed, then confirmed)',
  read: 'read only',
};

/** `--scope` (or $GTT_MCP_SCOPE), checked: a word it does not know, or one at odds with --read-only, stops it. */
const scopeOf = (given: string | undefined, readOnly: boolean): ScopeName => {
  const scope = given?.trim().toLowerCase() || (readOnly ? 'read' : 'trade');
  if (!Object.hasOwn(SCOPES, scope))
    fail(`--scope (or GTT_MCP_SCOPE) must be trade, exit or read, got ${JSON.stringify(given)}`);
  if (readOnly && scope !== 'read') fail(`--read-only is the read scope; it cannot be given with scope ${scope}`);
  return scope as ScopeName;
};

const main = async () => {
  const { values } = (() => {
    try {
      return parseArgs({
        options: {
          url: { type: 'string' },
          profile: { type: 'string' },
          region: { type: 'string' },
          'read-only': { type: 'boolean' },
          scope: { type: 'string' },
          'max-qty': { type: 'string' },
          'max-value': { type: 'string' },
          exchanges: { type: 'string' },
          assistant: { type: 'string' },
          help: { type: 'boolean', short: 'h' },
          // How long a preview may be confirmed (ms): for tests; default two minutes.
          'confirmation-ttl-ms': { type: 'string' },
        },
        strict: true,
      });
    } catch (error) {
      return fail((error as Error).message);
    }
  })();
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const scope = scopeOf(values.scope ?? process.env.GTT_MCP_SCOPE, values['read-only'] === true);
  const profile = values.profile === undefined ? undefined : loadProfile(values.profile);
  if (typeof profile === 'string') fail(profile);
  const baseUrl = (
    values.url ||
    (typeof profile === 'object' ? profile.url : undefined) ||
    process.env.GTT_API_URL ||
    DEFAULT_URL
  ).replace(/\/+$/, '');
  const region = values.region || (typeof profile === 'object' ? profile.region : undefined);
  const client = createGttClient({ baseUrl, ...(region ? { region } : {}) });
  // The limits an assistant token carries (POST /assistants), checked by the same schema.
  const parsed = assistantLimits.safeParse({
    ...(values['max-qty'] ? { maxQtyPerOrder: positive('max-qty', values['max-qty']) } : {}),
    ...(values['max-value'] ? { maxValuePerOrder: positive('max-value', values['max-value']) } : {}),
    ...(values.exchanges ? { exchanges: values.exchanges.split(',').map((e) => e.trim().toUpperCase()) } : {}),
  });
  const limits = parsed.success ? parsed.data : fail(parsed.error.issues.map((i) => i.message).join('; '));
  const ttl = positive('confirmation-ttl-ms', values['confirmation-ttl-ms']);
  const server = createMcpServer(clientPort(client), {
    scopes: SCOPES[scope],
    limits,
    confirmations: new MemoryConfirmationStore(),
    ...(values.assistant ? { assistant: values.assistant } : {}),
    ...(ttl ? { confirmationTtlMs: ttl } : {}),
  });
  await server.connect(new StdioServerTransport());
  process.stderr.write(`gtt-mcp: serving ${baseUrl}${client.signing ? ' (SigV4)' : ''}, ${SAID[scope]}\n`);
};

await main();
