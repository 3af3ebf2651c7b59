/**
 * The system model's assistants setting the day's limits and coverage over the real remote MCP route (`POST /mcp`;
 * the reads `risk_limits` and `coverage` are in system-mcp-reads.ts): the unlimited trade assistant previews
 * `set_risk_limits` (a loss limit far past any P&L the model makes, in either mode, square-off or not) or `set_coverage`
 * (the settings system-protect.ts uses), and an exit-only assistant asks the same.
 *
 * What it holds, each step: a preview changes nothing (`GET /risk`, `GET /positions/coverage` as before it); the
 * confirm writes exactly what was previewed, and a second confirm of the id replays it and writes nothing (the
 * settings' `updatedAt` / `changedAt` unchanged); an exit-only assistant is refused (`EXIT_ONLY`) with no
 * confirmationId and the settings unchanged. The limits are turned off again (`off: true`, previewed and confirmed),
 * so no later watcher run halts trading behind the model's back (system-risk.ts drives the limits being crossed);
 * coverage is left as set, as system-protect.ts leaves it.
 */
import fc from 'fast-check';

import { assistants, callTool, PROFILES, type ToolAnswer } from './system-mcp.js';
import { Command, keyOf, nextId, type Sys } from './system-state.js';
import { request } from './system-world.js';

const EXIT = new WeakMap<Sys, string>();

/** The sequence's exit-only assistant's token, created on first use. */
const exitToken = async (s: Sys): Promise<string> => {
  const known = EXIT.get(s);
  if (known) return known;
  const body = { name: 'system-settings-exit', scopes: ['read', 'exit'] };
  const a = await request(s.w, 'POST', '/assistants', body, { 'Idempotency-Key': keyOf(nextId()) });
  if (a.status !== 201) throw new Error(`POST /assistants (exit): ${a.status} ${JSON.stringify(a.body)}`);
  EXIT.set(s, String(a.body.token));
  return String(a.body.token);
};

const FREE = PROFILES.findIndex((p) => p.name === 'free');

const SETTINGS = {
  risk: { tool: 'set_risk_limits', path: '/risk', stamp: 'updatedAt' },
  coverage: { tool: 'set_coverage', path: '/positions/coverage', stamp: 'changedAt' },
} as const;

const COVERAGE = [{ watch: true, autoCover: { target: 20, stop: '1%' } }, { watch: true }, { watch: false }] as const;

/** Coverage's read needs the broker's positions: logged out or faulted, it cannot say the settings. */
const UNREAD = Symbol('not read');
type Read = Record<string, unknown> | undefined | typeof UNREAD;

/** The settings as the gateway answers them now (UNREAD when coverage's read meets the broker down). */
const settingsOf = async (s: Sys, path: string): Promise<Read> => {
  const a = await request(s.w, 'GET', path);
  if (a.status !== 200 && path === SETTINGS.coverage.path && a.status >= 500) {
    s.log.push(`  GET ${path}: ${a.status} ${a.code ?? ''} (not compared)`);
    return UNREAD;
  }
  if (a.status !== 200) throw new Error(`GET ${path} answered ${a.status} ${JSON.stringify(a.body)}`);
  return a.body.settings as Record<string, unknown> | undefined;
};

/** The same settings, or one side not read (nothing to compare). */
const same = (a: Read, b: Read) =>
  a === UNREAD || b === UNREAD || JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

const ok = (a: ToolAnswer, what: string): Record<string, unknown> => {
  if (a.status !== 200 || a.isError) throw new Error(`${what} answered ${a.status} ${JSON.stringify(a.content)}`);
  return a.content;
};

/** Previewed (nothing changes), confirmed (it is what was asked), confirmed again (replayed, nothing written). */
const previewAndConfirm = async (s: Sys, kind: keyof typeof SETTINGS, args: Record<string, unknown>) => {
  const { tool, path, stamp } = SETTINGS[kind];
  const token = (await assistants(s)).assistants[FREE]!.token;
  const before = await settingsOf(s, path);
  const preview = ok(await callTool(s, token, tool, args), `${tool} preview`);
  if (!same(await settingsOf(s, path), before)) throw new Error(`${tool}'s preview changed ${path}`);
  const first = ok(await callTool(s, token, 'confirm', { confirmationId: preview.confirmationId }), 'confirm');
  const set = await settingsOf(s, path);
  const again = ok(await callTool(s, token, 'confirm', { confirmationId: preview.confirmationId }), 'confirm again');
  const after = await settingsOf(s, path);
  s.log.push(`  ${String(preview.summary).slice(0, 120)} -> ${first.confirmed === true ? 'set' : 'not set'}`);
  if (again.replayed !== true || (set !== UNREAD && set?.[stamp] === undefined) || !same(after, set))
    throw new Error(`${tool}: a second confirm wrote again (${JSON.stringify(set)} then ${JSON.stringify(after)})`);
  return set;
};

/** The exit-only assistant asks the same: refused, no confirmationId, the settings as they were. */
const exitRefused = async (s: Sys, kind: keyof typeof SETTINGS, args: Record<string, unknown>) => {
  const { tool, path } = SETTINGS[kind];
  const before = await settingsOf(s, path);
  const a = await callTool(s, await exitToken(s), tool, args);
  const reason = String(a.content.reason ?? '');
  if (a.status !== 200 || a.content.refused !== true || !reason.startsWith('EXIT_ONLY:') || a.content.confirmationId)
    throw new Error(`an exit-only assistant's ${tool} was not refused: ${JSON.stringify(a.content)}`);
  if (!same(await settingsOf(s, path), before)) throw new Error(`an exit-only assistant's ${tool} changed ${path}`);
};

const mcpSettings = fc
  .record({
    kind: fc.constantFrom<keyof typeof SETTINGS>('risk', 'coverage'),
    mode: fc.constantFrom('keep-exits', 'cancel-all'),
    squareOff: fc.boolean(),
    coverage: fc.constantFrom(...COVERAGE),
  })
  .map(
    ({ kind, mode, squareOff, coverage }) =>
      new Command('mcp settings', `mcp ${SETTINGS[kind].tool}`, async (s) => {
        // Far past any P&L of the model's orders: set, read back, then off again.
        const limits = { dayLossLimit: 50_000_000, dayProfitTarget: 50_000_000, mode, squareOff };
        const args: Record<string, unknown> = kind === 'risk' ? limits : { ...coverage };
        await exitRefused(s, kind, kind === 'risk' ? { dayLossLimit: 1 } : { watch: false });
        const set = await previewAndConfirm(s, kind, args);
        if (set === UNREAD) return;
        const asked = kind === 'risk' ? limits : { ...coverage, autoCover: undefined };
        for (const [field, value] of Object.entries(asked))
          if (value !== undefined && JSON.stringify(set?.[field]) !== JSON.stringify(value))
            throw new Error(
              `${SETTINGS[kind].tool} asked ${field} ${JSON.stringify(value)}, set ${JSON.stringify(set)}`,
            );
        if (kind === 'risk') {
          const off = await previewAndConfirm(s, 'risk', { off: true });
          if (off !== UNREAD && (off?.dayLossLimit !== undefined || off?.dayProfitTarget !== undefined))
            throw new Error(`set_risk_limits off left limits: ${JSON.stringify(off)}`);
        }
      }),
  );

export const mcpRiskCommands = { mcpSettings };
