/**
 * The strategy commands (docs/reference/signals.md): define one (its webhook URL shown once), list them, one, change one (its
 * URL kept), delete one, rotate its token, and post a sample alert to its webhook URL (`signal-test`).
 */
import { readFileSync } from 'node:fs';

import { EXIT_CODES } from '../../exit-codes.js';
import { sampleAlert, sendSignal } from '../../signals.js';
import type { StrategyChanges, StrategyCreated, StrategyInput, StrategyRecord } from '../../types.js';
import { command, may, needs } from '../command.js';
import { type Flags, UsageError } from '../flags.js';
import { istTime } from '../render.js';

const strategyLine = (s: StrategyRecord): string =>
  [
    s.strategyId,
    s.name,
    s.source,
    String((s.action as { kind?: unknown }).kind ?? ''),
    s.mode,
    s.maxQty === undefined ? '' : `max ${s.maxQty}`,
    `${s.ratePerMinute}/min`,
    s.tag ? `tag ${s.tag}` : '',
    s.allowIps ? `allow ${Array.isArray(s.allowIps) ? s.allowIps.join(',') : s.allowIps}` : '',
    `token set ${istTime(s.tokenSetAt)}`,
  ]
    .filter(Boolean)
    .join('  ');

/** The URL, said once and loudly: it is the strategy's secret, and never shown again. */
const withUrl = (r: StrategyCreated, what: string): string =>
  [
    `${what} ${strategyLine(r)}`,
    `webhook URL (shown once; keep it secret: whoever holds it can post alerts):`,
    `  ${r.webhookUrl}`,
  ].join('\n');

const idOf = (args: readonly string[]): string => args[0] ?? '';

export const strategyCreate = command({
  name: 'strategy-create',
  flags: [
    may('file', 'strategy.json'),
    may('body', "'<JSON of POST /strategies>'"),
    may('name', 'NAME'),
    may('source', 'tradingview'),
    may('mode', 'paper'),
    may('key', 'K'),
  ],
  summary:
    'define a strategy from --file or --body (the JSON of POST /strategies; --name, --source, --mode override its fields); prints its webhook URL, once',
  input: (f) => {
    const file = f.str('file');
    const text = file === undefined ? f.str('body') : readText(file, (m) => f.standalone(m, 'strategy-create'));
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text ?? '') as Record<string, unknown>;
    } catch {
      f.standalone(
        'strategy-create needs the JSON of POST /strategies: its file, or the JSON itself (see the usage below)',
        'strategy-create',
      );
    }
    for (const name of ['name', 'source', 'mode'] as const) {
      const value = f.str(name);
      if (value !== undefined) body[name] = value;
    }
    return { strategy: body as StrategyInput, key: f.str('key') };
  },
  run: ({ client, callOptions }, { strategy, key }) =>
    client.createStrategy(strategy, { ...callOptions, ...(key ? { idempotencyKey: key } : {}) }),
  render: (r) => withUrl(r, r.idempotency?.replayed ? 'strategy already created, new token:' : 'created'),
});

const readText = (file: string, problem: (message: string) => void): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    problem(`strategy-create cannot read --file ${file}: ${(error as Error).message}`);
    return undefined;
  }
};

export const strategies = command({
  name: 'strategies',
  flags: [],
  summary: 'the strategies of this deployment, one line each (no tokens)',
  run: ({ client, callOptions }) => client.strategies(callOptions),
  render: (r) => (r.strategies.length ? r.strategies.map(strategyLine).join('\n') : 'no strategies'),
});

export const strategy = command({
  name: 'strategy',
  args: ['strategyId'],
  flags: [],
  summary: 'one strategy: what its alerts do (its token is never shown again)',
  input: (_f, args) => idOf(args),
  run: ({ client, callOptions }, strategyId) => client.getStrategy(strategyId, callOptions),
  render: (r) => [strategyLine(r), `  action ${JSON.stringify(r.action)}`].join('\n'),
});

const SIDES: Record<string, 'B' | 'S'> = { b: 'B', buy: 'B', s: 'S', sell: 'S' };

/** --side as a trader types it (B, buy, s, SELL): B or S, or a problem named. */
const sideFlag = (f: Flags): 'B' | 'S' | undefined => {
  const value = f.str('side');
  if (value === undefined) return undefined;
  const side = SIDES[value.trim().toLowerCase()];
  if (!side) f.problem(`--side must be buy or sell (B or S), got ${JSON.stringify(value)}`);
  return side;
};

/** A flag whose `none` (or `any`, for --allow-ips) removes the field. */
const cleared = (value: string | undefined, word: string) => value?.trim().toLowerCase() === word;

export const strategyEdit = command({
  name: 'strategy-edit',
  args: ['strategyId'],
  flags: [
    may('mode', 'paper|live'),
    may('qty', 'N'),
    may('max-qty', 'N|none'),
    may('rate', 'N'),
    may('allow-ips', 'tradingview|IP,IP|any'),
    may('tag', 'TAG|none'),
    may('side', 'buy|sell'),
    may('name', 'NAME'),
    may('body', "'<JSON of PATCH /strategies/{id}>'"),
  ],
  summary:
    'change a strategy and keep its webhook URL: --mode, --qty (the order quantity), --max-qty, --rate (alerts a minute), --allow-ips, --tag, --side (the side it fixes), --name, or --body; none/any removes a limit',
  input: (f, args) => {
    let changes: Record<string, unknown> = {};
    const text = f.str('body');
    if (text !== undefined) {
      try {
        changes = JSON.parse(text) as Record<string, unknown>;
      } catch {
        f.standalone('strategy-edit --body must be the JSON of PATCH /strategies/{strategyId}', 'strategy-edit');
      }
    }
    const mode = f.str('mode');
    if (mode !== undefined) changes.mode = mode.trim().toLowerCase();
    if (f.str('qty') !== undefined) changes.qty = f.positiveInt('qty');
    const maxQty = f.str('max-qty');
    if (maxQty !== undefined) changes.maxQty = cleared(maxQty, 'none') ? null : f.positiveInt('max-qty');
    if (f.str('rate') !== undefined) changes.ratePerMinute = f.positiveInt('rate');
    const ips = f.str('allow-ips');
    if (ips !== undefined)
      changes.allowIps = cleared(ips, 'any')
        ? null
        : ips === 'tradingview'
          ? ips
          : ips
              .split(',')
              .map((ip) => ip.trim())
              .filter(Boolean);
    const tag = f.str('tag');
    if (tag !== undefined) changes.tag = cleared(tag, 'none') ? null : tag;
    const side = sideFlag(f);
    if (side) changes.trantype = side;
    const name = f.str('name');
    if (name !== undefined) changes.name = name;
    if (text === undefined && Object.keys(changes).length === 0)
      f.standalone('strategy-edit needs at least one change (see the usage below)', 'strategy-edit');
    return { strategyId: idOf(args), changes: changes as StrategyChanges };
  },
  run: ({ client, callOptions }, { strategyId, changes }) => client.updateStrategy(strategyId, changes, callOptions),
  render: (r) =>
    [`changed ${strategyLine(r)}`, `  action ${JSON.stringify(r.action)}`, '  webhook URL unchanged'].join('\n'),
});

export const strategyDelete = command({
  name: 'strategy-delete',
  args: ['strategyId'],
  flags: [],
  summary: 'delete a strategy: its webhook URL stops working at once',
  input: (_f, args) => idOf(args),
  run: ({ client, callOptions }, strategyId) => client.deleteStrategy(strategyId, callOptions),
  render: (r) => `deleted ${r.strategyId}`,
});

export const strategyRotate = command({
  name: 'strategy-rotate',
  args: ['strategyId'],
  flags: [],
  summary: 'a new webhook URL for a strategy (shown once); the old one stops working at once',
  input: (_f, args) => idOf(args),
  run: ({ client, callOptions }, strategyId) => client.rotateStrategyToken(strategyId, callOptions),
  render: (r) => withUrl(r, 'new token for'),
});

/** The exit code of the webhook's answer, as the same error gets from any command (docs/reference/client.md). */
const signalTestExit = (status: number): number => {
  if (status < 300) return EXIT_CODES.OK;
  if (status >= 500) return EXIT_CODES.OUTCOME_UNKNOWN;
  if (status === 401 || status === 404) return EXIT_CODES.NOT_FOUND;
  // 403 REQUEST_FORBIDDEN (the strategy's allowIps refused this machine): configuration.
  if (status === 403) return EXIT_CODES.CONFIGURATION;
  return EXIT_CODES.REJECTED;
};

export const signalTest = command({
  name: 'signal-test',
  args: ['strategyId'],
  flags: [needs('webhook-url', 'URL'), may('price', '1500'), may('side', 'buy|sell')],
  summary:
    "post a sample alert in the strategy's source's shape (a buy, or --side sell) to its --webhook-url (the URL strategy-create or strategy-rotate printed: tokens are never shown again); it is acted on like any alert",
  input: (f, args) => ({
    strategyId: idOf(args),
    url: f.need('webhook-url'),
    price: f.decimal('price', false),
    side: sideFlag(f),
  }),
  run: async ({ client, callOptions, signal }, { strategyId, url, price, side }) => {
    const found = await client.getStrategy(strategyId, callOptions);
    if (side && found.source === 'chartink')
      throw new UsageError(
        `ChartInk's alerts carry no side: strategy ${strategyId} fixes it (action.order.trantype); change it with strategy-edit ${strategyId} --side ${side === 'B' ? 'buy' : 'sell'}. Nothing was sent.`,
        'signal-test',
      );
    const alert = sampleAlert(found, price, side);
    return { alert, reply: await sendSignal(url, alert, signal) };
  },
  render: (r) => `sent ${JSON.stringify(r.alert)}\nHTTP ${r.reply.status} ${JSON.stringify(r.reply.body)}`,
  exitCode: (r) => signalTestExit(r.reply.status),
});
