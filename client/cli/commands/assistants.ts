/**
 * The assistant commands (docs/reference/assistants.md, "Assistant tokens"): create an assistant for the MCP server (its token
 * shown once), list them, one, rotate its token, delete one.
 */
import type { AssistantCreated, AssistantInput, AssistantRecord, AssistantToken } from '../../types.js';
import { command, may, needs } from '../command.js';
import type { Flags } from '../flags.js';
import { istTime } from '../render.js';

const rupees = (n: number): string => `₹${n.toLocaleString('en-IN')}`;

/** An assistant on one line: id, name, scopes, each limit it has, when its token was set. */
const assistantLine = (a: AssistantRecord): string =>
  [
    a.assistantId,
    a.name,
    a.scopes.join(','),
    a.limits.maxQtyPerOrder === undefined ? '' : `max qty ${a.limits.maxQtyPerOrder}`,
    a.limits.maxValuePerOrder === undefined ? '' : `max value ${rupees(a.limits.maxValuePerOrder)}`,
    a.limits.maxOrdersPerDay === undefined ? '' : `${a.limits.maxOrdersPerDay} orders/day`,
    a.limits.exchanges ? `on ${a.limits.exchanges.join(',')}` : '',
    `token set ${istTime(a.tokenSetAt)}`,
  ]
    .filter(Boolean)
    .join('  ');

/** The token, said once and loudly: it is the assistant's secret, and never shown again. */
const withToken = (r: AssistantCreated | AssistantToken, what: string): string =>
  [
    `${what} ${assistantLine(r)}`,
    "token (shown once: store it now, in the assistant's configuration or a secret store; whoever holds it acts as this assistant):",
    `  ${r.token}`,
  ].join('\n');

/** A comma-separated flag as a list (empty pieces dropped). */
const listOf = (value: string, map: (piece: string) => string): string[] =>
  value
    .split(',')
    .map((piece) => map(piece.trim()))
    .filter(Boolean);

const limitsOf = (f: Flags): AssistantInput['limits'] => {
  const limits: NonNullable<AssistantInput['limits']> = {};
  const qty = f.positiveInt('max-qty');
  if (qty !== undefined) limits.maxQtyPerOrder = qty;
  const value = f.positiveInt('max-value');
  if (value !== undefined) limits.maxValuePerOrder = value;
  const perDay = f.positiveInt('max-orders-per-day');
  if (perDay !== undefined) limits.maxOrdersPerDay = perDay;
  const exchanges = f.str('exchanges');
  if (exchanges !== undefined)
    limits.exchanges = listOf(exchanges, (e) => e.toUpperCase()) as NonNullable<typeof limits.exchanges>;
  return limits;
};

const idOf = (args: readonly string[]): string => args[0] ?? '';

export const assistantCreate = command({
  name: 'assistant-create',
  flags: [
    needs('name', 'NAME'),
    needs('scopes', 'read|read,trade|read,exit'),
    may('max-qty', 'N'),
    may('max-value', 'RUPEES'),
    may('max-orders-per-day', 'N'),
    may('exchanges', 'NSE,BSE'),
    may('key', 'K'),
  ],
  summary:
    'create an assistant for the MCP server: its --scopes (read, read,trade, or read,exit: exit-only, orders that reduce an open position) and limits (--max-qty and --max-value per order, --max-orders-per-day, --exchanges); prints its token, once',
  input: (f) => ({
    assistant: {
      name: f.need('name'),
      scopes: listOf(f.need('scopes'), (s) => s.toLowerCase()) as AssistantInput['scopes'],
      limits: limitsOf(f),
    } satisfies AssistantInput,
    key: f.str('key'),
  }),
  run: ({ client, callOptions }, { assistant, key }) =>
    client.assistants.create(assistant, { ...callOptions, ...(key ? { idempotencyKey: key } : {}) }),
  render: (r) => withToken(r, r.idempotency?.replayed ? 'assistant already created, new token:' : 'created'),
});

export const assistants = command({
  name: 'assistants',
  flags: [],
  summary: 'the assistants of this deployment, one line each (no tokens)',
  run: ({ client, callOptions }) => client.assistants.list(callOptions),
  render: (r) => (r.assistants.length ? r.assistants.map(assistantLine).join('\n') : 'no assistants'),
});

export const assistant = command({
  name: 'assistant',
  args: ['assistantId'],
  flags: [],
  summary: 'one assistant: its scopes and limits (its token is never shown again)',
  input: (_f, args) => idOf(args),
  run: ({ client, callOptions }, assistantId) => client.assistants.get(assistantId, callOptions),
  render: assistantLine,
});

export const assistantRotate = command({
  name: 'assistant-rotate',
  args: ['assistantId'],
  flags: [],
  summary: 'a new token for an assistant (shown once); the old one stops working at once',
  input: (_f, args) => idOf(args),
  run: ({ client, callOptions }, assistantId) => client.assistants.rotate(assistantId, callOptions),
  render: (r) => withToken(r, 'new token for'),
});

export const assistantDelete = command({
  name: 'assistant-delete',
  args: ['assistantId'],
  flags: [],
  summary: 'delete an assistant: its token stops working at once',
  input: (_f, args) => idOf(args),
  run: ({ client, callOptions }, assistantId) => client.assistants.delete(assistantId, callOptions),
  render: (r) => `deleted ${r.assistantId}`,
});
