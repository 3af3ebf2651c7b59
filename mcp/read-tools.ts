/**
 * The read tools: what the gateway and the broker hold, never changing anything. Each answers the gateway's reply as
 * structured data.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';

import { DETAIL_TYPES } from '../functions/base/schemas/event-types.js';
import { EXCHANGES } from '../functions/base/schemas/fields.js';
import { assistantPendingPage } from './order-records.js';
import type { GatewayPort, GatewayRequest } from './port.js';
import { attempt, DATA_NOTE, outputSchema } from './results.js';
import { closed, open } from './schema-forms.js';
import { coverageSummary, riskSummary, withSummary } from './settings.js';

const page = {
  limit: z.number().int().min(1).max(1000).optional().describe('how many per page (default 100)'),
  cursor: z.string().optional().describe("the previous page's nextCursor"),
};
const listOf = (key: string, what: string) =>
  outputSchema({
    [key]: z.array(open({})).describe(what),
    nextCursor: z.string().describe('there while more remain: pass it as cursor'),
  });
const anyObject = (what: string) => outputSchema({}, what);

const compact = (values: Record<string, unknown>): Record<string, string | number | boolean> =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Record<
    string,
    string | number | boolean
  >;

interface ReadTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodRawShape;
  output: ReturnType<typeof outputSchema>;
  /** Reads the broker (or its copy) rather than only the gateway's own tables. */
  broker: boolean;
  request: (args: Record<string, unknown>) => GatewayRequest;
  /** The gateway's answer as the tool gives it (default: as it is). */
  answer?: (reply: unknown) => unknown;
}

const READS: ReadTool[] = [
  {
    name: 'pending_gtts',
    title: 'Pending GTTs and OCOs',
    description:
      'The GTT and OCO orders waiting at the broker for their trigger, a page at a time, optionally of one symbol or exchange.',
    input: {
      tsym: z.string().optional().describe('trading symbol, e.g. INFY-EQ'),
      exch: z.enum(EXCHANGES).optional(),
      ...page,
    },
    output: listOf(
      'orders',
      'the pending orders in the fields the write tools take: al_id, type (single, oco), exch, tsym, then trantype, qty, prctyp, prc, prd, ai_t and the trigger d (single) or target and stopLoss {trigger, order} (oco), validity, tag',
    ),
    broker: true,
    answer: assistantPendingPage,
    request: ({ tsym, exch, limit, cursor }) => ({
      operation: 'GetPendingGTTOrder',
      query: compact({ tsym, exch, limit, cursor }),
    }),
  },
  {
    name: 'get_gtt',
    title: 'One GTT or OCO',
    description:
      "One pending GTT or OCO by its al_id, and whose word it is (the broker now, or the watcher's recent copy).",
    input: {
      alId: z.string().describe("the order's al_id"),
      fresh: z.boolean().optional().describe("true: ask the broker, not the watcher's copy"),
    },
    output: anyObject('the order'),
    broker: true,
    request: ({ alId, fresh }) => ({
      operation: 'GetGTTOrder',
      path: { alId: String(alId) },
      ...(fresh === undefined ? {} : { query: { fresh: Boolean(fresh) } }),
    }),
  },
  {
    name: 'triggered_gtts',
    title: 'Triggered history',
    description:
      'The GTTs that fired today and what became of each (placed, filled, rejected and why), a page at a time.',
    input: page,
    output: listOf('orders', 'the triggered orders with their fates'),
    broker: true,
    request: ({ limit, cursor }) => ({ operation: 'GetTriggeredGTTOrders', query: compact({ limit, cursor }) }),
  },
  {
    name: 'order_book',
    title: 'Order book',
    description: "Today's orders at the broker (what fired GTTs became): status, fills, rejection reasons.",
    input: {},
    output: anyObject('the order book'),
    broker: true,
    request: () => ({ operation: 'GetOrderBook' }),
  },
  {
    name: 'get_positions',
    title: 'Positions',
    description:
      "Today's positions at the broker, open first: net quantity (below 0 short), average and last price, realised and unrealised P&L, the day's totals.",
    input: {},
    output: anyObject('positions and totals (rupees)'),
    broker: true,
    request: () => ({ operation: 'GetPositions' }),
  },
  {
    name: 'risk_limits',
    title: "The day's limits",
    description:
      "The day's loss limit and profit target, what happens once crossed, today's state (clear, hit, unchecked) and the last P&L the watcher saw.",
    input: {},
    output: anyObject('settings, today (rupees) and a summary'),
    broker: false,
    answer: withSummary(riskSummary),
    request: () => ({ operation: 'GetRiskLimits' }),
  },
  {
    name: 'coverage',
    title: 'Coverage',
    description:
      'Each open position with the resting exits covering it (covered, partly, target-only, uncovered), totals, settings.',
    input: {},
    output: anyObject('positions, totals, settings and a summary'),
    broker: true,
    answer: withSummary(coverageSummary),
    request: () => ({ operation: 'GetCoverage' }),
  },
  {
    name: 'plans',
    title: 'Plans',
    description:
      'The bracket and trailing-stop plans (ended ones for 30 days): state, their GTTs, last actions. With planId, one plan.',
    input: { planId: z.string().optional().describe('one plan by id'), ...page },
    output: anyObject('a page of plans, or one plan'),
    broker: false,
    request: ({ planId, limit, cursor }) =>
      planId
        ? { operation: 'GetPlan', path: { planId: String(planId) } }
        : { operation: 'ListPlans', query: compact({ limit, cursor }) },
  },
  {
    name: 'strategies',
    title: 'Strategies',
    description: 'The signal strategies (webhooks that place orders from alerts), without their tokens.',
    input: {},
    output: anyObject('the strategies'),
    broker: false,
    request: () => ({ operation: 'ListStrategies' }),
  },
  {
    name: 'signals',
    title: 'Signals',
    description:
      'The alerts received by the strategies in the last 30 days, newest first, each with its fate (orders placed, or why refused).',
    input: {
      strategyId: z.string().optional(),
      state: z.enum(['received', 'acted', 'refused']).optional(),
      ...page,
    },
    output: listOf('signals', 'the signals'),
    broker: false,
    request: ({ strategyId, state, limit, cursor }) => ({
      operation: 'ListSignals',
      query: compact({ strategyId, state, limit, cursor }),
    }),
  },
  {
    name: 'events',
    title: 'Events',
    description:
      "The account's lifecycle events (GTT placed, triggered, filled, rejected; plans; signals; kill switch), oldest first.",
    input: {
      since: z
        .string()
        .optional()
        .describe('ISO time or India time of day such as 09:15 (default: the start of today)'),
      type: z.enum(DETAIL_TYPES).optional(),
      ...page,
    },
    output: listOf('events', 'the events'),
    broker: false,
    request: ({ since, type, limit, cursor }) => ({
      operation: 'ListEvents',
      query: compact({ since, type, limit, cursor }),
    }),
  },
  {
    name: 'session',
    title: 'Broker session',
    description: 'Whose broker session the gateway trades with, since when, and whether it is alive.',
    input: {},
    output: anyObject('the session'),
    broker: true,
    request: () => ({ operation: 'GetSession' }),
  },
  {
    name: 'kill_switch_status',
    title: 'Kill switch state',
    description: 'Whether the kill switch is on (places and modifies refused), its mode, and its last sweep.',
    input: {},
    output: outputSchema({ halted: z.boolean() }),
    broker: false,
    request: () => ({ operation: 'GetKillSwitch' }),
  },
  {
    name: 'quote',
    title: 'Quote',
    description: "An instrument's last traded price, today's price band, tick and lot.",
    input: { exch: z.enum(EXCHANGES).default('NSE'), tsym: z.string().describe('trading symbol, e.g. SBIN-EQ') },
    output: anyObject('the quote'),
    broker: true,
    request: ({ exch, tsym }) => ({ operation: 'GetQuote', query: compact({ exch, tsym }) }),
  },
  {
    name: 'client_details',
    title: 'Client details',
    description: "The broker account's details (name, exchanges, products).",
    input: {},
    output: anyObject('the account'),
    broker: true,
    request: () => ({ operation: 'ClientDetails' }),
  },
];

export const READ_TOOL_NAMES = READS.map((t) => t.name);

export const registerReadTools = (server: McpServer, port: GatewayPort): void => {
  for (const tool of READS)
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: `${tool.description}${DATA_NOTE}`,
        inputSchema: closed(tool.input, tool.name),
        outputSchema: tool.output,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: tool.broker },
      },
      (args: Record<string, unknown>) =>
        attempt(async () => {
          const reply = await port.call(tool.request(args));
          return tool.answer ? tool.answer(reply) : reply;
        }),
    );
};
