/**
 * The system model's assistants over the real remote MCP route (`POST /mcp`, JSON-RPC `tools/call` with an
 * assistant's bearer token from `POST /assistants`): three assistants per sequence (capped per order and per day, one
 * order a day, no limits), previews of places (GTT, OCO) and of changes that raise the quantity (change_gtt,
 * change_oco, modify_gtt), confirms plain, twice at once, again after the first, refused for a wrong `requestHash` and
 * then sent plainly, bursts of previews confirmed in turn, the other write tools (cancels, plans, the kill switch);
 * the read tools and the assistants' own routes are in system-mcp-reads.ts.
 *
 * Every order an assistant places carries its tag prefix; invariants 8 and 9 (system-invariants-ways.ts) count them at the
 * broker: never more than its orders per day, never one over its quantity or value per order.
 */
import fc from 'fast-check';

import { gttBody } from './system-orders.js';
import { Command, keyOf, nextId, type Sys } from './system-state.js';
import { request } from './system-world.js';

export interface Limits {
  maxQtyPerOrder?: number;
  maxValuePerOrder?: number;
  maxOrdersPerDay?: number;
  exchanges?: string[];
}

export interface McpAssistant {
  name: string;
  assistantId: string;
  token: string;
  limits: Limits;
  /** Every order it places is tagged `<tag>:<n>`. */
  tag: string;
  /** The orders its confirms answered (a change may name one the tag does not). */
  alIds: Set<string>;
  /** Tokens rotated away: they must answer 401. */
  deadTokens: string[];
  /** The plans its confirms created: their GTTs are its orders too. */
  planIds: Set<string>;
}

export interface McpPreview {
  label: string;
  who: McpAssistant;
  confirmationId: string;
  requestHash: string;
}

export interface McpState {
  assistants: McpAssistant[];
  previews: McpPreview[];
}

export const PROFILES: { name: string; limits: Limits }[] = [
  { name: 'capped', limits: { maxQtyPerOrder: 5, maxValuePerOrder: 10_000, maxOrdersPerDay: 3, exchanges: ['NSE'] } },
  { name: 'one-a-day', limits: { maxOrdersPerDay: 1, maxQtyPerOrder: 10 } },
  { name: 'free', limits: {} },
];

/** The sequence's assistants, created on first use (a new day's counter each: new assistants). */
export const assistants = async (s: Sys): Promise<McpState> => {
  if (s.mcp) return s.mcp;
  const list: McpAssistant[] = [];
  for (const { name, limits } of PROFILES) {
    const body = { name: `system-${name}`, scopes: ['read', 'trade'], limits };
    const a = await request(s.w, 'POST', '/assistants', body, { 'Idempotency-Key': keyOf(nextId()) });
    if (a.status !== 201) throw new Error(`POST /assistants: ${a.status} ${JSON.stringify(a.body)}`);
    list.push({
      name,
      assistantId: String(a.body.assistantId),
      token: String(a.body.token),
      limits,
      tag: `mc${String(nextId()).padStart(7, '0')}`,
      alIds: new Set(),
      deadTokens: [],
      planIds: new Set(),
    });
  }
  return (s.mcp = { assistants: list, previews: [] });
};

export interface ToolAnswer {
  status: number;
  content: Record<string, unknown>;
  isError: boolean;
}

/** One `tools/call` over POST /mcp. */
export const callTool = async (s: Sys, token: string, name: string, args: Record<string, unknown>) => {
  const res = await fetch(`${s.w.stack.api.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId(), method: 'tools/call', params: { name, arguments: args } }),
  });
  const json = (await res.json()) as { result?: { structuredContent?: Record<string, unknown>; isError?: boolean } };
  return {
    status: res.status,
    content: json.result?.structuredContent ?? (json as Record<string, unknown>),
    isError: json.result?.isError === true,
  } satisfies ToolAnswer;
};

const said = (a: ToolAnswer): string => {
  const c = a.content;
  if (c.refused) return `refused: ${String(c.reason).slice(0, 70)}`;
  const error = c.error as { code?: string } | undefined;
  if (error) return `error ${error.code}`;
  if (c.confirmed)
    return `confirmed${c.replayed ? ' (replayed)' : ''} ${String((c.result as { al_id?: string }).al_id ?? '')}`;
  if (c.confirmationId) return 'preview';
  return `${a.status}`;
};

/** A GTT's tool arguments: the model's order body (system-orders.ts). */
const gttArgs = (tag: string, qty: number) => gttBody(tag, qty, '1490');
const ocoLeg = (trigger: string, qty: number) => ({
  trigger,
  order: { trantype: 'S', prctyp: 'LMT', qty, prc: trigger, prd: 'C' },
});
const ocoArgs = (tag: string, qty: number) => ({
  exch: 'NSE',
  tsym: 'M&M-EQ',
  tag,
  target: ocoLeg('1600', qty),
  stopLoss: ocoLeg('1400', qty),
});

/** A preview of `tool`; kept for later confirms when it answered a confirmationId. */
const preview = async (s: Sys, who: McpAssistant, tool: string, args: Record<string, unknown>, label: string) => {
  const a = await callTool(s, who.token, tool, args);
  s.log.push(`  ${who.name} ${label}: ${said(a)}`);
  if (typeof a.content.confirmationId !== 'string') return undefined;
  const p: McpPreview = {
    label,
    who,
    confirmationId: a.content.confirmationId,
    requestHash: String(a.content.requestHash),
  };
  s.mcp!.previews.push(p);
  return p;
};

export const CONFIRM_MODES = ['plain', 'wrong hash, then plain', 'twice at once', 'plain, then again'] as const;
type Mode = (typeof CONFIRM_MODES)[number];

const confirmOnce = async (s: Sys, p: McpPreview, hash?: string, what = 'confirm') => {
  const a = await callTool(s, p.who.token, 'confirm', {
    confirmationId: p.confirmationId,
    ...(hash ? { requestHash: hash } : {}),
  });
  const result = a.content.result as { al_id?: unknown; planId?: unknown } | undefined;
  if (typeof result?.al_id === 'string') p.who.alIds.add(result.al_id);
  if (typeof result?.planId === 'string') p.who.planIds.add(result.planId);
  s.log.push(`  ${p.who.name} ${what} ${p.label}: ${said(a)}`);
  return a;
};

const confirm = async (s: Sys, p: McpPreview, mode: Mode): Promise<void> => {
  switch (mode) {
    case 'plain':
      await confirmOnce(s, p);
      return;
    case 'wrong hash, then plain':
      await confirmOnce(
        s,
        p,
        p.requestHash.replace(/^./, (c) => (c === '0' ? '1' : '0')),
        'confirm (wrong hash)',
      );
      await confirmOnce(s, p);
      return;
    case 'twice at once':
      await Promise.all([confirmOnce(s, p, undefined, 'confirm (1)'), confirmOnce(s, p, undefined, 'confirm (2)')]);
      return;
    case 'plain, then again':
      await confirmOnce(s, p);
      await confirmOnce(s, p, p.requestHash, 'confirm again');
  }
};

export const who = fc.nat({ max: PROFILES.length - 1 });
/** The assistants with limits (0 capped, 1 one-a-day), the one-a-day most for bursts: its day ends at once. */
const limited = fc.constantFrom(0, 1);
const daily = fc.constantFrom(1, 1, 1, 0);
const mode = fc.constantFrom<Mode>(...CONFIRM_MODES);
const small = fc.integer({ min: 1, max: 6 });
const pick = <T>(list: T[], i: number): T | undefined => (list.length ? list[i % list.length] : undefined);

const placePreview = async (s: Sys, w: McpAssistant, kind: 'gtt' | 'oco', qty: number) => {
  const tag = `${w.tag}:${nextId()}`;
  return preview(
    s,
    w,
    `place_${kind}`,
    kind === 'gtt' ? gttArgs(tag, qty) : ocoArgs(tag, qty),
    `${kind} ${tag} x${qty}`,
  );
};

/** An assistant previews a place (GTT or OCO), confirmed one way or left unconfirmed. */
const mcpPlace = fc
  .record({ who, kind: fc.constantFrom<'gtt' | 'oco'>('gtt', 'gtt', 'oco'), qty: small, confirm: fc.option(mode) })
  .map(
    ({ who: i, kind, qty, confirm: how }) =>
      new Command(
        'mcp place',
        `mcp ${PROFILES[i]!.name} place_${kind} x${qty}, ${how ?? 'not confirmed'}`,
        async (s) => {
          const w = (await assistants(s)).assistants[i]!;
          const p = await placePreview(s, w, kind, qty);
          if (p && how) await confirm(s, p, how);
        },
      ),
  );

/** A preview of the sequence confirmed (again) one way. */
const mcpConfirm = fc.record({ i: fc.nat(), how: mode }).map(
  ({ i, how }) =>
    new Command('mcp confirm', `mcp confirm preview #${i} (${how})`, async (s) => {
      const p = pick((await assistants(s)).previews, i);
      if (p) await confirm(s, p, how);
    }),
);

/** Several previews first (each within the day's count as it stands), then each confirmed in its own way. */
const mcpBurst = fc.record({ who: daily, modes: fc.array(mode, { minLength: 2, maxLength: 4 }) }).map(
  ({ who: i, modes }) =>
    new Command(
      'mcp previews then confirms',
      `mcp ${PROFILES[i]!.name}: ${modes.length} previews, then ${modes.join(' / ')}`,
      async (s) => {
        const w = (await assistants(s)).assistants[i]!;
        const previews = [];
        for (const _ of modes) previews.push(await placePreview(s, w, 'gtt', 2));
        for (const [n, p] of previews.entries()) if (p) await confirm(s, p, modes[n]!);
      },
    ),
);

const CHANGES = ['change_gtt', 'modify_gtt', 'change_oco', 'modify_oco'] as const;
/**
 * An assistant with limits changes one of its own orders (placed and confirmed first when it has none), the quantity
 * raised as often as not (a PATCH's preview is held to the limits as a place's is).
 */
const mcpChange = fc
  .record({
    who: limited,
    tool: fc.constantFrom(...CHANGES, 'change_gtt', 'change_oco'),
    qty: fc.oneof(small, fc.constantFrom(40, 400, 500)),
  })
  .map(
    ({ who: i, tool, qty }) =>
      new Command('mcp change', `mcp ${PROFILES[i]!.name} ${tool} to x${qty}`, async (s) => {
        const w = (await assistants(s)).assistants[i]!;
        const kind = tool.endsWith('_oco') ? 'oco' : 'gtt';
        const mine = () =>
          [...s.w.stack.emulator.emulator.state.orders.values()].filter(
            (g) => g.kind === kind && g.state === 'pending' && (g.remarks.startsWith(w.tag) || w.alIds.has(g.al_id)),
          );
        if (!mine().length) {
          const p = await placePreview(s, w, kind, 1);
          if (p) await confirm(s, p, 'plain');
        }
        const order = mine()[0];
        if (!order) return;
        const tag = order.remarks.split(' ')[0]!;
        const args =
          tool === 'change_gtt'
            ? { alId: order.al_id, qty }
            : tool === 'modify_gtt'
              ? { alId: order.al_id, ...gttArgs(tag, qty) }
              : tool === 'modify_oco'
                ? { alId: order.al_id, ...ocoArgs(tag, qty) }
                : { alId: order.al_id, target: { order: { qty } }, stopLoss: { order: { qty } } };
        const p = await preview(s, w, tool, args, `${tool} ${order.al_id} x${qty}`);
        if (p) await confirm(s, p, 'plain');
      }),
  );

const OTHER = ['cancel_gtt', 'create_plan', 'cancel_plan', 'kill_switch_on', 'kill_switch_off'] as const;
/**
 * The other write tools: a cancel of one of its orders, a bracket plan created or one of its plans cancelled, the kill
 * switch turned on (at once, no preview) or off (previewed, confirmed).
 */
const mcpOther = fc.record({ who, tool: fc.constantFrom(...OTHER) }).map(
  ({ who: i, tool }) =>
    new Command('mcp other write', `mcp ${PROFILES[i]!.name} ${tool}`, async (s) => {
      const w = (await assistants(s)).assistants[i]!;
      if (tool === 'kill_switch_on') {
        const a = await callTool(s, w.token, tool, {});
        s.log.push(`  ${tool}: ${said(a)}`);
        // Whatever it answered, the switch may be on and its sweep may have cancelled anything pending.
        for (const o of s.orders) o.mayBeGone = true;
        // Its sweep (in the switch's default mode) may take exits a keep-exits switch kept (invariant 6).
        for (const kept of s.kept.values()) kept.released = true;
        s.halt = 'unclean';
        return;
      }
      const pending = [...s.w.stack.emulator.emulator.state.orders.values()].find(
        (g) => g.state === 'pending' && (g.remarks.startsWith(`${w.tag}:`) || w.alIds.has(g.al_id)),
      );
      const plan = [...w.planIds].at(-1);
      const args: Record<string, unknown> | undefined =
        tool === 'kill_switch_off'
          ? {}
          : tool === 'cancel_gtt'
            ? pending && { alId: pending.al_id }
            : tool === 'cancel_plan'
              ? plan === undefined
                ? undefined
                : { planId: plan }
              : {
                  kind: 'bracket',
                  entry: { ...gttArgs(`${w.tag}:${nextId()}`, 2), tsym: 'SBIN-EQ' },
                  target: { trigger: '1600', price: '1600' },
                  stopLoss: { trigger: '1400', price: '1400' },
                };
      if (!args) return;
      // The assistant's cancel of its plan or order may take an exit a keep-exits switch kept (invariant 6).
      if (tool === 'cancel_plan' || tool === 'cancel_gtt')
        for (const [alId, kept] of s.kept) {
          const g = s.w.stack.emulator.emulator.state.orders.get(alId);
          if (alId === args.alId || (typeof args.planId === 'string' && g?.remarks.startsWith(`${args.planId}.`)))
            kept.released = true;
        }
      const p = await preview(s, w, tool, args, tool);
      if (!p) return;
      const a = await confirmOnce(s, p);
      if (tool === 'kill_switch_off' && a.content.confirmed === true) s.halt = 'off';
    }),
);

export const mcpCommands = { mcpPlace, mcpConfirm, mcpBurst, mcpChange, mcpOther };
