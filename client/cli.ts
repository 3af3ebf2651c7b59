/**
 * `npm run gtt -- <command> [flags]`: the command line of the typed client (docs/client.md). Human output by
 * default (a table for lists), `--json` for scripts; exit codes by error class (client/exit-codes.ts).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { createGttClient, type GttClient } from './client.js';
import { GttGatewayError } from './errors.js';
import { EXIT_CODES, exitCodeFor } from './exit-codes.js';
import { OPERATION_INFO, type OperationInfo } from './generated/operations.js';
import { loadProfile } from './profiles.js';
import {
  type DryRunResult,
  type EventsPage,
  type GttOrder,
  type GttOrderInput,
  type KillSwitchState,
  type OcoOrderInput,
  type OperationId,
  type OperationResult,
  type OrderList,
  type PlanRecord,
  type SessionStatus,
  type TriggeredList,
} from './types.js';

export const DEFAULT_URL = 'http://127.0.0.1:3000';

const ORDER_FLAGS = 'exch tsym qty price product side price-type retention alert trigger tag validity key';
const OCO_FLAGS =
  'exch tsym side qty product retention target-trigger target-price target-price-type stop-trigger stop-price stop-price-type stop-trigger-price ltp tag validity key';

/** Each command: its positional argument (if any), the flags it takes, whether it takes --dry-run. */
const COMMANDS: Record<string, { args?: string[]; flags: string; dryRun?: boolean; summary: string }> = {
  place: { flags: ORDER_FLAGS, dryRun: true, summary: 'place a GTT order' },
  'place-oco': { flags: OCO_FLAGS, dryRun: true, summary: 'place a two-leg OCO order (target and stop-loss)' },
  list: {
    flags: 'tsym exch limit cursor all',
    summary: 'list pending GTT orders (table: al_id, type, exch, tsym, side, qty, price, trigger(s), tag)',
  },
  get: { args: ['alId'], flags: '', summary: 'one pending order' },
  modify: {
    args: ['alId'],
    flags: ORDER_FLAGS,
    dryRun: true,
    summary: 'replace a pending order (the place flags, all of them)',
  },
  'modify-oco': {
    args: ['alId'],
    flags: OCO_FLAGS,
    dryRun: true,
    summary: 'replace a pending OCO order (the place-oco flags)',
  },
  cancel: { args: ['alId'], flags: 'key', dryRun: true, summary: 'cancel a pending order' },
  triggered: { flags: 'limit cursor all', summary: 'the orders that fired, with the order each placed and its status' },
  orders: { flags: '', summary: "the day's orders at the broker: status, fill, why refused" },
  events: {
    flags: 'since type limit cursor all',
    summary: "the account's lifecycle events since a time (default: today), oldest first",
  },
  enabled: { flags: '', summary: 'the alert types enabled for the account' },
  client: { flags: '', summary: "the account's client record" },
  logout: { flags: '', summary: 'end the broker session (never retried)' },
  login: {
    flags: 'wait',
    summary: "start a browser login: print the broker's login page, then wait for the new session",
  },
  session: { flags: '', summary: 'the session the gateway trades with: account, since when, alive or not' },
  'kill-switch': {
    args: ['on|off|status'],
    flags: '',
    summary: 'on: cancel every pending order and refuse places and modifies; off: accept them again',
  },
  'plan-create': {
    flags: 'body key',
    summary: 'create a bracket or trailing-stop plan (--body: the JSON of POST /plans, docs/plans.md)',
  },
  plans: { flags: '', summary: "the account's plans: state and GTTs" },
  plan: { args: ['planId'], flags: '', summary: 'one plan, with its history of actions' },
  'plan-cancel': { args: ['planId'], flags: '', summary: "cancel a plan: its live GTT and the plan's next steps" },
  operations: { flags: '', summary: 'the operations of the OpenAPI document (for call)' },
  call: {
    args: ['OperationId'],
    flags: 'path query body key',
    dryRun: true,
    summary: 'any operation of the OpenAPI document by its operationId',
  },
  ltp: {
    args: ['tsym', 'price'],
    flags: 'exch',
    summary: 'the local sandbox only: set a last traded price; pending GTTs it meets fire',
  },
};

/** How often `login` asks whether the new session has arrived. */
export const LOGIN_POLL_MS = 2_000;

const GLOBAL_FLAGS = [
  'url',
  'profile',
  'sign',
  'no-sign',
  'region',
  'json',
  'dry-run',
  'timeout',
  'attempts',
  'verbose',
  'help',
  'version',
];

export const USAGE = `usage: npm run gtt -- <command> [flags]

commands:
  place        --exch NSE --tsym 'M&M-EQ' --qty 1 --price 1500 --product C --side B --price-type LMT
               --retention DAY --alert LTP_B_O --trigger 1490 [--tag T] [--validity GTT] [--key K]
  place-oco    --exch NSE --tsym 'M&M-EQ' --side S --qty 1 --product C [--retention DAY]
               --target-trigger 1600 --target-price 1600 [--target-price-type LMT]
               --stop-trigger 1400 [--stop-price 1400] [--stop-price-type LMT] [--stop-trigger-price P]
               [--ltp 1500] [--tag T] [--key K]
  list         [--tsym 'M&M-EQ'] [--exch NSE] [--limit N] [--cursor C | --all]
               one page (100 orders unless --limit, at most 1000); --all follows every page
  get          <alId>
  modify       <alId> + every place flag (a full replacement) [--key K]
  modify-oco   <alId> + every place-oco flag [--key K]
  cancel       <alId> [--key K]
  triggered    the orders that fired, with the order each placed and its status [--limit N] [--cursor C | --all]
  orders       the day's orders at the broker: status, fill, why refused
  events       [--since ISO-TIME] [--type 'GTT Triggered'] [--limit N] [--cursor C | --all]
               the account's lifecycle events (kept 30 days) since --since (default: today, India time)
  enabled      the alert types enabled for the account
  client       the account's client record
  logout       end the broker session (never retried)
  login        [--wait SECONDS]  print the broker's login page to open in a browser, then wait (default 600 s,
               0: do not wait) until the gateway holds the new session
  session      the session the gateway trades with: account, since when, alive or not (exit 5 when not)
  kill-switch  on|off|status  on: refuse places and modifies (423 TRADING_HALTED) and cancel every pending
               GTT and OCO (exit 4 if any is left); off: accept them again; status: which it is
  plan-create  --body '<JSON of POST /plans>' [--key K]  a bracket or trailing-stop plan (docs/plans.md)
  plans        the account's plans;  plan <planId>  one, with its history;  plan-cancel <planId> (says what is left open)
  operations   the operations of the OpenAPI document
  call         <OperationId> [--path name=value]... [--query name=value]... [--body JSON] [--key K]
  ltp          <tsym> <price> [--exch NSE]  the local sandbox (npm start) only: set the last traded price;
               pending GTTs whose trigger it meets fire

global flags:
  --url URL        the API (default: the profile's, else $GTT_API_URL, else ${DEFAULT_URL})
  --profile NAME   a deployment named in $GTT_PROFILES or ~/.config/gtt-gateway/profiles.json (docs/accounts.md)
  --sign, --no-sign  SigV4-sign with the AWS default credentials (default: on unless the URL is loopback)
  --region R       signing region (default: from an execute-api URL, else AWS_REGION)
  --dry-run        place/modify/cancel: show the exact broker request; nothing is sent
  --json           machine output: the API's JSON on stdout; errors as {"error":{...}} on stderr
  --timeout MS     per attempt (default 10000)    --attempts N   of a retry-safe call (default 4)
  --verbose        print retries on stderr        --help    --version

exit codes: 0 ok, 2 usage/validation/guardrail, 3 not found, 4 broker rejected or rate limited,
  5 session expired, 6 outcome unknown or unavailable (check \`list\` before acting again),
  7 configuration/internal, 8 idempotency key conflict, 130 interrupted`;

/** Order fields as the API names them -> the flag that sets them (for messages). */
const FLAG_OF_FIELD: Record<string, string> = {
  exch: '--exch',
  tsym: '--tsym',
  qty: '--qty',
  prc: '--price',
  prd: '--product',
  trantype: '--side',
  prctyp: '--price-type',
  ret: '--retention',
  ai_t: '--alert',
  d: '--trigger',
  tag: '--tag',
  validity: '--validity',
  ltp: '--ltp',
  'target.trigger': '--target-trigger',
  'target.order.prc': '--target-price',
  'target.order.prctyp': '--target-price-type',
  'stopLoss.trigger': '--stop-trigger',
  'stopLoss.order.prc': '--stop-price',
  'stopLoss.order.prctyp': '--stop-price-type',
  'stopLoss.order.trgprc': '--stop-trigger-price',
  'Idempotency-Key': '--key',
};

class UsageError extends Error {
  constructor(
    message: string,
    /** The command the hint is about, if known. */
    readonly command?: string,
  ) {
    super(message);
  }
}

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

const str = (values: Values, name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};

// The gateway's own rules for numbers (functions/schemas/input.ts), checked here so that every bad flag is named at
// once before anything is sent; test/unit/cli-args.test.ts holds the two to the same answers.
const PLAIN_DECIMAL = /^(0|[1-9]\d{0,11})(\.\d{1,8})?$/;
const POSITIVE_INTEGER = /^[1-9]\d{0,9}$/;

/** For tests: whether the CLI takes `value` as a quantity or a decimal (the gateway's rules, checked beside them). */
export const cliAccepts = (rule: 'quantity' | 'decimal', value: string): boolean => {
  const f = new Flags({ x: value });
  if (rule === 'quantity') f.quantity('x');
  else f.decimal('x');
  try {
    f.check();
    return true;
  } catch {
    return false;
  }
};

/** Reads flags and collects what is wrong with them: every missing flag and every bad value, named together. */
class Flags {
  private readonly missing: string[] = [];
  private readonly bad: string[] = [];
  constructor(readonly values: Values) {}

  str(name: string): string | undefined {
    return str(this.values, name);
  }

  need(name: string): string {
    const value = this.str(name);
    if (value === undefined || value === '') this.missing.push(`--${name}`);
    return value ?? '';
  }

  /** A positive whole number, as the gateway takes `qty`. */
  quantity(name: string): string {
    const value = this.need(name);
    if (value !== '' && !POSITIVE_INTEGER.test(value.trim()))
      this.bad.push(`--${name} must be a positive whole number, got ${JSON.stringify(value)}`);
    return value;
  }

  /** A plain non-negative decimal, as the gateway takes prices and triggers; `required` false: may be absent. */
  decimal(name: string, required = true): string | undefined {
    const value = required ? this.need(name) : this.str(name);
    if (value !== undefined && value !== '' && !PLAIN_DECIMAL.test(value.trim())) {
      this.bad.push(
        `--${name} must be a plain non-negative decimal number (no sign, exponent or more than 8 decimals), got ${JSON.stringify(value)}`,
      );
    }
    return value;
  }

  positiveInt(name: string): number | undefined {
    const value = this.str(name);
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!POSITIVE_INTEGER.test(value)) {
      this.bad.push(`--${name} must be a positive whole number, got ${JSON.stringify(value)}`);
      return undefined;
    }
    return n;
  }

  problem(message: string): void {
    this.bad.push(message);
  }

  /** Throws one usage error naming everything found so far. */
  check(command?: string): void {
    const parts = [...(this.missing.length ? [`missing ${this.missing.join(', ')}`] : []), ...this.bad];
    if (parts.length) throw new UsageError(parts.join('; '), command);
  }
}

/** `name=value` pairs of a repeatable flag. */
const pairs = (flags: Flags, name: string): Record<string, string> => {
  const list = flags.values[name];
  const entries = (Array.isArray(list) ? list : []).map(String).flatMap((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) {
      flags.problem(`--${name} takes name=value, got ${JSON.stringify(pair)}`);
      return [];
    }
    return [[pair.slice(0, at), pair.slice(at + 1)] as const];
  });
  return Object.fromEntries(entries);
};

// Numbers are checked as the gateway checks them; the rest is passed as typed and validated by the gateway
// (VALIDATION_FAILED names the field, shown as its flag).
const orderFromFlags = (f: Flags): GttOrderInput =>
  ({
    exch: f.need('exch'),
    tsym: f.need('tsym'),
    qty: f.quantity('qty'),
    prc: f.decimal('price'),
    prd: f.need('product'),
    trantype: f.need('side'),
    prctyp: f.need('price-type'),
    ret: f.need('retention'),
    ai_t: f.need('alert'),
    d: f.decimal('trigger'),
    ...(f.str('validity') === undefined ? {} : { validity: f.str('validity') }),
    ...(f.str('tag') === undefined ? {} : { tag: f.str('tag') }),
  }) as GttOrderInput;

const ocoFromFlags = (f: Flags): OcoOrderInput => {
  const exch = f.need('exch');
  const tsym = f.need('tsym');
  const side = f.need('side');
  const qty = f.quantity('qty');
  const product = f.need('product');
  const leg = (prefix: 'target' | 'stop') => {
    const trigger = f.decimal(`${prefix}-trigger`);
    const price = f.decimal(`${prefix}-price`, false);
    const triggerPrice = prefix === 'stop' ? f.decimal('stop-trigger-price', false) : undefined;
    return {
      trigger,
      order: {
        trantype: side,
        prctyp: f.str(`${prefix}-price-type`) ?? 'LMT',
        qty,
        prd: product,
        ret: f.str('retention') ?? 'DAY',
        ...(price === undefined ? {} : { prc: price }),
        ...(triggerPrice === undefined ? {} : { trgprc: triggerPrice }),
      },
    };
  };
  const ltp = f.decimal('ltp', false);
  return {
    exch,
    tsym,
    ...(f.str('validity') === undefined ? {} : { validity: f.str('validity') }),
    ...(f.str('tag') === undefined ? {} : { tag: f.str('tag') }),
    ...(ltp === undefined ? {} : { ltp }),
    target: leg('target'),
    stopLoss: leg('stop'),
  } as OcoOrderInput;
};

// ---- human output ----------------------------------------------------------------------------------------------

const table = (header: string[], rows: string[][]): string => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
};

type OrderBookList = OperationResult<'GetOrderBook'>;
type BookOrder = OrderBookList['orders'][number];

const ORDER_COLUMNS = ['al_id', 'type', 'exch', 'tsym', 'side', 'qty', 'price', 'trigger(s)', 'tag'];

/** A pending or triggered order (their `stat` differs). */
const orderRow = (o: Omit<GttOrder, 'stat'>): string[] => {
  const price = (prctyp: string | undefined, prc: string | undefined) =>
    prctyp === 'MKT' || prctyp === 'SL-MKT' ? prctyp : (prc ?? '');
  if (o.type === 'oco' && o.target && o.stopLoss) {
    return [
      o.al_id,
      'oco',
      o.exch,
      o.tsym,
      o.target.order.trantype ?? o.trantype,
      String(o.target.order.qty ?? o.qty),
      `${price(o.target.order.prctyp, o.target.order.prc)}/${price(o.stopLoss.order.prctyp, o.stopLoss.order.prc)}`,
      `${o.target.trigger}/${o.stopLoss.trigger}`,
      o.tag ?? '',
    ];
  }
  return [
    o.al_id,
    o.type,
    o.exch,
    o.tsym,
    o.trantype,
    String(o.qty),
    price(o.prctyp, o.prc),
    o.trigger ?? o.d,
    o.tag ?? '',
  ];
};

const ordersTable = (list: OrderList): string =>
  list.orders.length === 0 ? 'no pending GTT orders' : table(ORDER_COLUMNS, list.orders.map(orderRow));

const triggeredTable = (list: TriggeredList): string =>
  list.orders.length === 0
    ? 'no triggered GTT orders'
    : table(
        [...ORDER_COLUMNS, 'status', 'fired', 'at', 'order', 'order status'],
        list.orders.map((o) => [
          ...orderRow(o),
          o.status,
          o.firedLeg ?? '',
          o.triggeredAt ?? '',
          o.order?.norenordno ?? (list.orderBookUnavailable ? '?' : '-'),
          o.order ? orderStatusText(o.order) : '',
        ]),
      );

const orderStatusText = (o: BookOrder): string =>
  `${o.status}${o.filledQty > 0 ? ` ${o.filledQty}/${o.qty}${o.averagePrice ? ` @${o.averagePrice}` : ''}` : ''}${o.rejection ? ` ${o.rejection.code}: ${o.rejection.text}` : ''}`;

const bookTable = (book: OrderBookList): string =>
  book.orders.length === 0
    ? 'no orders today'
    : table(
        ['order', 'exch', 'tsym', 'side', 'qty', 'price', 'status', 'tag', 'at'],
        book.orders.map((o) => [
          o.norenordno,
          o.exch,
          o.tsym,
          o.side,
          String(o.qty),
          o.price,
          orderStatusText(o),
          o.tag ?? '',
          o.placedAt ?? '',
        ]),
      );

const sessionText = (r: SessionStatus): string =>
  [
    `account   ${r.uid ?? '?'}${r.actid && r.actid !== r.uid ? ` (${r.actid})` : ''}`,
    `since     ${r.since ?? 'unknown (not written by a login of the gateway)'}${r.method ? ` via ${r.method}` : ''}`,
    `status    ${r.alive ? 'alive' : `NOT usable: ${r.code ?? '?'}${r.reason ? ` (${r.reason})` : ''}`}`,
  ].join('\n');

/** A plan on one line: id, kind, state, symbol and its GTTs. */
const planLine = (p: PlanRecord): string =>
  [
    p.planId,
    p.kind,
    p.state,
    `${p.exch}:${p.tsym}`,
    ...Object.entries(p.alIds).map(([name, id]) => `${name}=${String(id)}`),
    p.trigger ? `trigger ${p.trigger}` : '',
    p.position ? `position ${p.position.side === 'B' ? 'long' : 'short'} ${p.position.qty}` : '',
    p.reason ?? '',
  ]
    .filter(Boolean)
    .join('  ');

/** One line per event: when, what, which order, and the fields a trader reads first. */
const eventsTable = (r: EventsPage): string => {
  if (!r.events.length) return `no events since ${r.since}`;
  return r.events
    .map((e) => {
      const d = e.detail as Record<string, unknown>;
      const parts = [
        e.publishedAt,
        e.detailType.padEnd(15),
        d.al_id === undefined ? '' : `al_id=${String(d.al_id)}`,
        d.exch && d.tsym ? `${String(d.exch)}:${String(d.tsym)}` : '',
        d.side === undefined ? '' : String(d.side),
        d.quantity === undefined ? '' : `qty ${String(d.quantity)}`,
        d.trigger === undefined ? '' : `trigger ${String(d.trigger)}`,
        d.tag === undefined ? '' : `tag ${String(d.tag)}`,
        d.origin === undefined ? '' : `(${String(d.origin)})`,
      ];
      return parts.filter(Boolean).join('  ');
    })
    .join('\n');
};

const killSwitchText = (r: KillSwitchState): string =>
  [
    `kill switch ${r.halted ? 'ON: places and modifies are refused' : 'off: trading'}${r.changedAt ? ` (since ${r.changedAt}${r.changedBy ? `, by ${r.changedBy}` : ''})` : ''}`,
    ...(r.sweep
      ? [
          `cancelled   ${r.sweep.cancelled.length ? r.sweep.cancelled.join(', ') : 'none pending'}`,
          ...(r.sweep.failed.length
            ? [`NOT cancelled (cancel by hand): ${r.sweep.failed.map((f) => `${f.al_id} ${f.code}`).join(', ')}`]
            : []),
        ]
      : []),
  ].join('\n');

/** Waits, or stops early when the command is interrupted. */
const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

const dryRunText = (r: DryRunResult): string =>
  `dry run: nothing was sent. ${r.operation} would send\n  ${r.request.method} ${r.request.url}\n  jData ${JSON.stringify(r.request.jData)}`;

const actionText = (verb: string, r: { al_id: string; idempotency?: { key?: string; replayed?: boolean } }): string => {
  const key = r.idempotency?.key;
  const replayed = r.idempotency?.replayed
    ? ' — replayed: an earlier request with this key did it, nothing new was sent'
    : '';
  return `${verb} al_id ${r.al_id}${key ? ` (idempotency key ${key})` : ''}${replayed}`;
};

const errorText = (e: GttGatewayError): string => {
  const lines = [`error ${e.code}${e.status ? ` (HTTP ${e.status})` : ''}: ${e.message}`];
  if (e.brokerMessage) lines.push(`  broker said: ${e.brokerMessage}`);
  if (Array.isArray(e.details)) {
    for (const d of e.details as { field?: string; message?: string }[]) {
      if (d && typeof d === 'object')
        lines.push(
          `  ${d.field && FLAG_OF_FIELD[d.field] ? `${FLAG_OF_FIELD[d.field]} (${d.field})` : (d.field ?? '')}: ${d.message ?? ''}`,
        );
    }
  } else if (e.details !== undefined) {
    lines.push(`  details: ${JSON.stringify(e.details)}`);
  }
  if (e.outcome === 'unknown')
    lines.push('  outcome: UNKNOWN — the broker may have acted: check `list` before acting again');
  else if (e.outcome === 'not_executed') lines.push('  outcome: not executed — the broker did not act');
  if (e.idempotencyKey)
    lines.push(`  idempotency key: ${e.idempotencyKey}${e.attempts > 1 ? ` (${e.attempts} attempts)` : ''}`);
  else if (e.attempts > 1) lines.push(`  attempts: ${e.attempts}`);
  return lines.join('\n');
};

/** --limit and --cursor as the list operations take them (the gateway checks them); --all with --cursor is refused. */
const pageFlags = (values: Values): { limit?: string; cursor?: string } => {
  if (values.all && str(values, 'cursor')) throw new UsageError('--all starts from the first page: leave out --cursor');
  return {
    ...(str(values, 'limit') ? { limit: str(values, 'limit') } : {}),
    ...(str(values, 'cursor') ? { cursor: str(values, 'cursor') } : {}),
  };
};

const withNextPage = (text: string, list: { nextCursor?: string | undefined }) =>
  list.nextCursor ? `${text}\nmore: --cursor ${list.nextCursor} (or --all)` : text;

// ---- main --------------------------------------------------------------------------------------------------------

/** Values that start with a dash but are numbers (`--qty -1`, `ltp X -5`): parseArgs would take them for flags. */
const NEGATIVE_NUMBER = /^-(\d|\.\d)/;

const parse = (argv: string[]) => {
  const allFlags = new Set([
    ...GLOBAL_FLAGS,
    ...Object.values(COMMANDS).flatMap((c) => c.flags.split(' ').filter(Boolean)),
  ]);
  const booleans = new Set(['sign', 'no-sign', 'json', 'dry-run', 'verbose', 'help', 'all', 'version']);
  const multiple = new Set(['path', 'query']);
  const options = Object.fromEntries(
    [...allFlags].map((name) => [
      name,
      { type: booleans.has(name) ? ('boolean' as const) : ('string' as const), multiple: multiple.has(name) },
    ]),
  );
  // `--qty -1` becomes `--qty=-1` and a negative positional is held aside, so the value reaches the checks below
  // (which name it) instead of parseArgs' "ambiguous" or "unknown option" message.
  const held: string[] = [];
  const args: string[] = [];
  for (const token of argv) {
    const previous = args.at(-1);
    const flag = previous?.startsWith('--') && !previous.includes('=') ? previous.slice(2) : undefined;
    if (NEGATIVE_NUMBER.test(token) && flag !== undefined && allFlags.has(flag) && !booleans.has(flag))
      args[args.length - 1] = `${previous}=${token}`;
    else if (NEGATIVE_NUMBER.test(token)) args.push(`\u0000${held.push(token) - 1}`);
    else args.push(token);
  }
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  // parseArgs keeps the last of a repeated flag: `--qty 1 --qty 2` would place 2. Only --path and --query repeat.
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || multiple.has(token.name)) continue;
    if (seen.has(token.name)) throw new UsageError(`--${token.name} was given more than once; give it once`);
    seen.add(token.name);
  }
  const positionals = parsed.positionals.map((p) => (p.startsWith('\u0000') ? held[Number(p.slice(1))]! : p));
  return { values: parsed.values, positionals };
};

/** The one line printed under a usage error: the command's shape, and where the full help is. */
export const usageHint = (command?: string): string => {
  const spec = command === undefined ? undefined : COMMANDS[command];
  if (!spec)
    return `usage: npm run gtt -- <command> [flags]   commands: ${Object.keys(COMMANDS).join(', ')}   (--help: every command and flag)`;
  const args = (spec.args ?? []).map((a) => `<${a}>`);
  const flags = spec.flags
    .split(' ')
    .filter(Boolean)
    .map((f) => `--${f}`);
  return `usage: npm run gtt -- ${[command, ...args, ...flags].join(' ')}   (--help: every command and flag)`;
};

/** The package's version, for `--version`. */
export const version = (): string =>
  (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Loopback hosts: where the local sandbox (npm start) can be. */
const isLoopback = (url: URL): boolean => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

/**
 * `gtt ltp <tsym> <price>`: asks `npm start` where its emulator is (`GET /_local/emulator`), then sets the price
 * there (`POST /_emulator/ltp`). Refused against anything but a loopback URL: a deployment has no sandbox price.
 */
const moveSandboxPrice = async (
  baseUrl: string,
  move: { exch: string; tsym: string; price: string },
  io: Io,
  json: boolean,
  signal?: AbortSignal,
): Promise<number> => {
  const fetchJson = async (url: string, init?: RequestInit): Promise<{ status: number; body: unknown }> => {
    let res: Response;
    try {
      res = await fetch(url, { ...init, signal: signal ?? AbortSignal.timeout(10_000) });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      throw new GttGatewayError({
        code: 'NETWORK_ERROR',
        operation: 'ltp',
        message: `ltp: no answer from ${url}${cause ? ` (${cause})` : ''}: is npm start running?`,
      });
    }
    return { status: res.status, body: await res.json().catch(() => undefined) };
  };
  const where = await fetchJson(`${baseUrl}/_local/emulator`);
  const emulatorUrl = (where.body as { url?: unknown } | undefined)?.url;
  if (where.status !== 200 || typeof emulatorUrl !== 'string') {
    throw new GttGatewayError({
      code: 'HTTP_ERROR',
      status: where.status,
      operation: 'ltp',
      message: `ltp: ${baseUrl} has no local sandbox (GET /_local/emulator answered HTTP ${where.status}): ltp works against npm start only`,
    });
  }
  const moved = await fetchJson(`${emulatorUrl}/_emulator/ltp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ exch: move.exch, tsym: move.tsym, ltp: Number(move.price) }),
  });
  if (moved.status !== 200) {
    throw new GttGatewayError({
      code: 'HTTP_ERROR',
      status: moved.status,
      operation: 'ltp',
      message: `ltp: the emulator refused the price (HTTP ${moved.status}): ${JSON.stringify(moved.body)}`,
    });
  }
  const result = moved.body as { triggered: number; fired: { al_id: string; kind: string; leg: string; d: string }[] };
  if (json) io.out(JSON.stringify(result, null, 2));
  else {
    const fired = result.fired.map(
      (o) => `  fired ${o.al_id} (${o.kind}${o.kind === 'oco' ? `, leg ${o.leg}` : ''}, trigger ${o.d})`,
    );
    io.out(
      [
        `${move.exch}:${move.tsym} last traded price ${move.price}: ${result.fired.length ? `${result.fired.length} GTT order(s) fired` : 'no pending GTT order met its trigger'}`,
        ...fired,
      ].join('\n'),
    );
  }
  return EXIT_CODES.OK;
};

/** Runs one command; resolves with the exit code. `signal` interrupts the call (Ctrl-C when run as a program). */
export const main = async (
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Io = defaultIo,
  signal?: AbortSignal,
): Promise<number> => {
  let json = argv.includes('--json');
  try {
    const { values, positionals } = parse(argv);
    json = values.json === true;
    if (values.version) {
      io.out(json ? JSON.stringify({ version: version() }) : `gtt-gateway ${version()}`);
      return EXIT_CODES.OK;
    }
    if (values.help) {
      io.out(USAGE);
      return EXIT_CODES.OK;
    }
    if (positionals.length === 0) throw new UsageError('no command given');
    const [command, ...rest] = positionals as [string, ...string[]];
    const spec = COMMANDS[command];
    if (!spec) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    const f = new Flags(values);
    const expected = spec.args ?? [];
    if (rest.length !== expected.length) {
      f.problem(
        expected.length === 0
          ? `${command} takes no arguments, got ${rest.join(' ')}`
          : `${command} takes ${expected.map((a) => `<${a}>`).join(' ')}${rest.length ? `, got ${rest.length} argument(s)` : ''}`,
      );
    }
    const allowed = new Set([...GLOBAL_FLAGS, ...spec.flags.split(' ').filter(Boolean)]);
    const foreign = Object.keys(values).filter((name) => values[name] !== undefined && !allowed.has(name));
    if (foreign.length) f.problem(`${command} does not take ${foreign.map((name) => `--${name}`).join(', ')}`);
    if (values['dry-run'] && !spec.dryRun)
      f.problem(`--dry-run applies to place, place-oco, modify, modify-oco, cancel and call only`);
    if (values.sign && values['no-sign']) f.problem('--sign and --no-sign contradict each other');
    const arg = rest[0] ?? '';
    const timeoutMs = f.positiveInt('timeout');
    const maxAttempts = f.positiveInt('attempts');
    const order = command === 'place' || command === 'modify' ? orderFromFlags(f) : undefined;
    const oco = command === 'place-oco' || command === 'modify-oco' ? ocoFromFlags(f) : undefined;
    let waitSeconds = 600;
    if (command === 'login' && f.str('wait') !== undefined) {
      waitSeconds = Number(f.str('wait'));
      if (!/^\d+$/.test(f.str('wait')!) || waitSeconds > 3_600)
        f.problem(`--wait must be a whole number of seconds from 0 to 3600, got ${JSON.stringify(f.str('wait'))}`);
    }
    let callInput: unknown;
    if (command === 'call') {
      if (rest.length === 1 && !(arg in OPERATION_INFO))
        f.problem(`unknown operationId ${JSON.stringify(arg)}; \`operations\` lists them`);
      let body: unknown;
      const text = f.str('body');
      if (text !== undefined) {
        try {
          body = JSON.parse(text);
        } catch {
          f.problem('--body must be JSON');
        }
      }
      callInput = { path: pairs(f, 'path'), query: pairs(f, 'query'), ...(body === undefined ? {} : { body }) };
    }
    // --url/--region win, then the profile, then $GTT_API_URL, then npm start's address (client/profiles.ts).
    const profileName = f.str('profile');
    const loaded = profileName === undefined ? undefined : loadProfile(profileName, env);
    if (typeof loaded === 'string') f.problem(loaded);
    const profile = typeof loaded === 'object' ? loaded : undefined;
    const baseUrl = (f.str('url') || profile?.url || env.GTT_API_URL || DEFAULT_URL).replace(/\/+$/, '');
    if (command === 'ltp') {
      if (rest[1] !== undefined && !PLAIN_DECIMAL.test(rest[1]))
        f.problem(`<price> must be a plain non-negative decimal number, got ${JSON.stringify(rest[1])}`);
      let url: URL | undefined;
      try {
        url = new URL(baseUrl);
      } catch {
        f.problem(`--url is not a URL: ${JSON.stringify(baseUrl)}`);
      }
      if (url && !isLoopback(url))
        f.problem(
          `ltp moves the local sandbox's price: ${baseUrl} is not a loopback address (npm start); a deployment trades at the exchange's price`,
        );
    }
    f.check(command);

    if (command === 'operations') {
      const rows = Object.entries(OPERATION_INFO as Record<string, OperationInfo>).map(([id, info]) => [
        id,
        info.method,
        info.path,
        info.idempotencyKey ? `key ${info.idempotencyKey}` : '',
      ]);
      io.out(
        json ? JSON.stringify(OPERATION_INFO, null, 2) : table(['operationId', 'method', 'path', 'idempotency'], rows),
      );
      return EXIT_CODES.OK;
    }

    const region = f.str('region') || profile?.region;
    const client: GttClient = createGttClient({
      baseUrl,
      sign: values.sign ? true : values['no-sign'] ? false : 'auto',
      ...(region ? { region } : {}),
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(maxAttempts ? { maxAttempts } : {}),
      ...(values.verbose
        ? {
            onRetry: (e) =>
              io.err(
                `retry: attempt ${e.attempt} failed with ${e.error.code}${e.error.status ? ` (HTTP ${e.error.status})` : ''}; again in ${e.delayMs} ms`,
              ),
          }
        : {}),
    });
    const callOptions = signal ? { signal } : {};
    const orderOptions = {
      ...callOptions,
      ...(values['dry-run'] ? { dryRun: true } : {}),
      ...(f.str('key') === undefined ? {} : { idempotencyKey: f.str('key')! }),
    };
    const dry = values['dry-run'] === true;
    /** Prints the result: JSON, or the human text. */
    const show = (result: unknown, human: () => string) =>
      io.out(json ? JSON.stringify(result, null, 2) : dry ? dryRunText(result as DryRunResult) : human());

    switch (command) {
      case 'ltp':
        return await moveSandboxPrice(
          baseUrl,
          { exch: f.str('exch') ?? 'NSE', tsym: rest[0]!, price: rest[1]! },
          io,
          json,
          signal,
        );
      case 'place': {
        const r = await client.placeOrder(order!, orderOptions);
        show(r, () => actionText('placed', r));
        break;
      }
      case 'place-oco': {
        const r = await client.placeOco(oco!, orderOptions);
        show(r, () => actionText('placed OCO', r));
        break;
      }
      case 'list': {
        const filters = {
          ...(str(values, 'tsym') ? { tsym: str(values, 'tsym') } : {}),
          ...(str(values, 'exch') ? { exch: str(values, 'exch') } : {}),
          ...pageFlags(values),
        };
        const r = values.all
          ? await client.listAllOrders(filters as Parameters<GttClient['listAllOrders']>[0], callOptions)
          : await client.listOrders(filters as Parameters<GttClient['listOrders']>[0], callOptions);
        show(r, () => withNextPage(ordersTable(r), r));
        break;
      }
      case 'get': {
        const r = await client.getOrder(arg, callOptions);
        show(r, () => table(ORDER_COLUMNS, [orderRow(r)]));
        break;
      }
      case 'modify': {
        const r = await client.modifyOrder(arg, order!, orderOptions);
        show(r, () => actionText('modified', r));
        break;
      }
      case 'modify-oco': {
        const r = await client.modifyOco(arg, oco!, orderOptions);
        show(r, () => actionText('modified OCO', r));
        break;
      }
      case 'cancel': {
        const r = await client.cancelOrder(arg, orderOptions);
        show(r, () => actionText('cancelled', r));
        break;
      }
      case 'triggered': {
        const page = pageFlags(values) as Parameters<GttClient['triggered']>[1];
        const r = values.all ? await client.allTriggered(callOptions, page) : await client.triggered(callOptions, page);
        show(r, () => withNextPage(triggeredTable(r), r));
        break;
      }
      case 'events': {
        const query = {
          ...pageFlags(values),
          ...(str(values, 'since') ? { since: str(values, 'since') } : {}),
          ...(str(values, 'type') ? { type: str(values, 'type') } : {}),
        } as Parameters<GttClient['events']>[0];
        const r = values.all ? await client.allEvents(query, callOptions) : await client.events(query, callOptions);
        show(r, () => withNextPage(eventsTable(r), r));
        break;
      }
      case 'plan-create': {
        let body: unknown;
        try {
          body = JSON.parse(str(values, 'body') ?? '');
        } catch {
          throw new UsageError('plan-create needs --body with the JSON of POST /plans', command);
        }
        const key = str(values, 'key');
        const r = await client.createPlan(body as Parameters<GttClient['createPlan']>[0], {
          ...callOptions,
          ...(key ? { idempotencyKey: key } : {}),
        });
        show(r, () => `${r.idempotency?.replayed ? 'plan already created' : 'created'} ${planLine(r)}`);
        break;
      }
      case 'plans': {
        // Every page (the API pages plans like orders).
        const plans: PlanRecord[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.plans(cursor ? { cursor } : {}, callOptions);
          plans.push(...page.plans);
          cursor = page.nextCursor;
        } while (cursor);
        const r = { plans };
        show(r, () => (r.plans.length ? r.plans.map(planLine).join('\n') : 'no plans'));
        break;
      }
      case 'plan': {
        const r = await client.getPlan(arg, callOptions);
        show(r, () => [planLine(r), ...r.history.map((h) => `  ${h.at}  ${h.action}`)].join('\n'));
        break;
      }
      case 'plan-cancel': {
        const r = await client.cancelPlan(arg, callOptions);
        show(r, () =>
          [
            `cancelled ${planLine(r)}`,
            r.left?.cancelled.length ? `  GTTs cancelled: ${r.left.cancelled.join(', ')}` : '',
            r.left?.position
              ? `  STILL OPEN: ${r.left.position.side === 'B' ? 'long' : 'short'} ${r.left.position.qty} ${r.exch}:${r.tsym}, no exit`
              : '',
            r.left?.note ? `  ${r.left.note}` : '',
          ]
            .filter(Boolean)
            .join('\n'),
        );
        break;
      }
      case 'orders': {
        const r = (await client.call('GetOrderBook', {}, callOptions)) as OrderBookList;
        show(r, () => bookTable(r));
        break;
      }
      case 'enabled': {
        const r = await client.enabled(callOptions);
        show(r, () => `enabled alert types: ${r.ai_ts.map((a) => a.ai_t ?? '?').join(', ')}`);
        break;
      }
      case 'client': {
        const r = await client.clientDetails(callOptions);
        show(r, () =>
          [
            `account   ${r.actid}${r.cliname ? ` (${r.cliname})` : ''}`,
            `status    ${r.act_sts ?? '-'}`,
            `exchanges ${r.exarr.join(', ')}`,
          ].join('\n'),
        );
        break;
      }
      case 'logout': {
        const r = await client.logout(callOptions);
        show(r, () => 'logged out: the session token no longer works (store a fresh one to continue)');
        break;
      }
      case 'kill-switch': {
        if (arg !== 'on' && arg !== 'off' && arg !== 'status')
          throw new UsageError(`kill-switch takes on, off or status, got ${JSON.stringify(arg)}`);
        const r = await client.killSwitch(arg, callOptions);
        show(r, () => killSwitchText(r));
        return r.sweep && !r.sweep.complete ? EXIT_CODES.REJECTED : EXIT_CODES.OK;
      }
      case 'session': {
        const r = await client.session(callOptions);
        show(r, () => sessionText(r));
        return r.alive ? EXIT_CODES.OK : EXIT_CODES.SESSION_EXPIRED;
      }
      case 'login': {
        // What the session was before: the new one is the one written after it.
        const before = await client.session(callOptions).catch(() => undefined);
        const start = await client.startLogin(callOptions);
        if (!json) {
          io.out(
            `Open this page in a browser and sign in as ${start.uid} (the link works until ${start.expiresAt}):\n\n  ${start.authorizeUrl}\n`,
          );
        }
        if (waitSeconds === 0) {
          if (json) io.out(JSON.stringify(start, null, 2));
          return EXIT_CODES.OK;
        }
        if (!json) io.out(`waiting up to ${waitSeconds} s for the broker's redirect ...`);
        const deadline = Date.now() + waitSeconds * 1_000;
        while (Date.now() < deadline) {
          await sleep(Math.min(LOGIN_POLL_MS, Math.max(0, deadline - Date.now())), signal);
          if (signal?.aborted) return EXIT_CODES.INTERRUPTED;
          const now = await client.session(callOptions).catch(() => undefined);
          if (now?.alive && now.since !== undefined && now.since !== before?.since) {
            io.out(json ? JSON.stringify({ login: start, session: now }, null, 2) : `logged in: ${sessionText(now)}`);
            return EXIT_CODES.OK;
          }
        }
        io.err(
          json
            ? JSON.stringify({ error: { code: 'LOGIN_TIMEOUT', message: `no new session within ${waitSeconds} s` } })
            : `no new session within ${waitSeconds} s: run login again`,
        );
        return EXIT_CODES.SESSION_EXPIRED;
      }
      case 'call': {
        const r: unknown = await client.call(arg as OperationId, callInput as never, orderOptions);
        io.out(JSON.stringify(r, null, 2));
        break;
      }
    }
    return EXIT_CODES.OK;
  } catch (error) {
    if (error instanceof UsageError) {
      // The problem and a one-line hint; the full help is for --help.
      io.err(
        json
          ? JSON.stringify({ error: { code: 'USAGE', message: error.message } })
          : `${error.message}\n${usageHint(error.command)}`,
      );
      return EXIT_CODES.USAGE;
    }
    if (error instanceof GttGatewayError) {
      const exitCode = exitCodeFor(error);
      io.err(json ? JSON.stringify({ error: { ...error.toJSON(), exitCode } }) : errorText(error));
      return exitCode;
    }
    io.err(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT_CODES.CONFIGURATION;
  }
};

const defaultIo: Io = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // Ctrl-C ends the call through the client, so an interrupted order still reports its outcome and idempotency key.
  const interrupt = new AbortController();
  process.once('SIGINT', () => interrupt.abort());
  const code = await main(process.argv.slice(2), process.env, defaultIo, interrupt.signal);
  // Exit once the output is flushed, without waiting for idle keep-alive sockets.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}
