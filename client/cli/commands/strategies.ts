/**
 * The strategy commands (docs/signals.md): define one (its webhook URL shown once), list them, one, delete one,
 * rotate its token, and post a sample alert to its webhook URL (`signal-test`).
 */
import { readFileSync } from 'node:fs';

import { EXIT_CODES } from '../../exit-codes.js';
import { sampleAlert, sendSignal } from '../../signals.js';
import type { StrategyCreated, StrategyInput, StrategyRecord } from '../../types.js';
import { command, may, needs } from '../command.js';

const strategyLine = (s: StrategyRecord): string =>
  [
    s.strategyId,
    s.name,
    s.source,
    String((s.action as { kind?: unknown }).kind ?? ''),
    s.mode,
    `${s.ratePerMinute}/min`,
    s.allowIps ? `allow ${Array.isArray(s.allowIps) ? s.allowIps.join(',') : s.allowIps}` : '',
    `token set ${s.tokenSetAt}`,
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

/** The exit code of the webhook's answer, as the same error gets from any command (docs/client.md). */
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
  flags: [needs('webhook-url', 'URL'), may('price', '1500')],
  summary:
    "post a sample alert in the strategy's source's shape to its --webhook-url (the URL strategy-create or strategy-rotate printed: tokens are never shown again); it is acted on like any alert",
  input: (f, args) => ({ strategyId: idOf(args), url: f.need('webhook-url'), price: f.decimal('price', false) }),
  run: async ({ client, callOptions, signal }, { strategyId, url, price }) => {
    const found = await client.getStrategy(strategyId, callOptions);
    const alert = sampleAlert(found, price);
    return { alert, reply: await sendSignal(url, alert, signal) };
  },
  render: (r) => `sent ${JSON.stringify(r.alert)}\nHTTP ${r.reply.status} ${JSON.stringify(r.reply.body)}`,
  exitCode: (r) => signalTestExit(r.reply.status),
});
