/**
 * The system model's assistants reading (system-mcp.ts has their writes): every read tool over POST /mcp, answered as
 * data or as a gateway error in data, never a protocol failure; and the assistants' own routes: list and read (never
 * a token), a token rotated, a throwaway assistant deleted; a token rotated away or of a deleted assistant answers
 * 401 at /mcp before any tool runs.
 */
import fc from 'fast-check';

import { assistants, callTool, PROFILES, who } from './system-mcp.js';
import { Command, keyOf, nextId } from './system-state.js';
import { request } from './system-world.js';

const READS: [string, Record<string, unknown>][] = [
  ['get_gtt', {}],
  ['pending_gtts', {}],
  ['triggered_gtts', {}],
  ['order_book', {}],
  ['get_positions', {}],
  ['risk_limits', {}],
  ['coverage', {}],
  ['plans', {}],
  ['strategies', {}],
  ['signals', {}],
  ['events', {}],
  ['session', {}],
  ['kill_switch_status', {}],
  ['quote', { exch: 'NSE', tsym: 'M&M-EQ' }],
  ['client_details', {}],
];
/** An assistant's read tool: it answers data or a gateway error as data, never a protocol failure. */
const mcpRead = fc.record({ who, read: fc.constantFrom(...READS) }).map(
  ({ who: i, read: [tool, args] }) =>
    new Command('mcp read', `mcp ${PROFILES[i]!.name} ${tool}`, async (s) => {
      const w = (await assistants(s)).assistants[i]!;
      const last = [...s.w.stack.emulator.emulator.state.orders.keys()].at(-1);
      if (tool === 'get_gtt' && !last) return;
      const a = await callTool(s, w.token, tool, tool === 'get_gtt' ? { alId: last } : args);
      s.log.push(`  ${tool}: ${a.status}${a.isError ? ` ${JSON.stringify(a.content).slice(0, 80)}` : ''}`);
      if (a.status !== 200 || (a.isError && !a.content.error))
        throw new Error(`mcp ${tool} answered ${a.status} ${JSON.stringify(a.content).slice(0, 200)}`);
    }),
);

/**
 * The assistants' routes: list and read (never a token), a token rotated, a throwaway assistant deleted; a token
 * rotated away or of a deleted assistant answers 401 at /mcp.
 */
const assistantAdmin = fc.constantFrom('list', 'read', 'rotate', 'delete').map(
  (what) =>
    new Command('assistants admin', `assistants ${what}`, async (s) => {
      const st = await assistants(s);
      const w = st.assistants[nextId() % st.assistants.length]!;
      let dead: string | undefined;
      if (what === 'delete') {
        const body = { name: 'system-throwaway', scopes: ['read'] };
        const made = await request(s.w, 'POST', '/assistants', body, { 'Idempotency-Key': keyOf(nextId()) });
        const gone = await request(s.w, 'DELETE', `/assistants/${String(made.body.assistantId)}`);
        s.log.push(`  create ${made.status}, delete ${gone.status}`);
        if (gone.status !== 200)
          throw new Error(`DELETE /assistants answered ${gone.status} ${JSON.stringify(gone.body)}`);
        dead = String(made.body.token);
      } else {
        const path =
          what === 'list' ? '/assistants' : `/assistants/${w.assistantId}${what === 'rotate' ? '/token' : ''}`;
        const a = await request(s.w, what === 'rotate' ? 'POST' : 'GET', path);
        s.log.push(`  ${what} ${w.name}: ${a.status}`);
        if (a.status !== 200) throw new Error(`${what} assistants answered ${a.status} ${JSON.stringify(a.body)}`);
        if (what !== 'rotate') {
          if (JSON.stringify(a.body).includes(w.token)) throw new Error(`GET ${path} shows the assistant's token`);
          return;
        }
        dead = w.token;
        w.deadTokens.push(w.token);
        w.token = String(a.body.token);
      }
      const old = await callTool(s, dead, 'pending_gtts', {});
      if (old.status !== 401) throw new Error(`a ${what}d assistant's token answered ${old.status} at /mcp, not 401`);
    }),
);

export const mcpReadCommands = { mcpRead, assistantAdmin };
