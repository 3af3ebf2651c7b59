/**
 * `plan-option`: an option plan from flags (docs/reference/plans.md, "Option entry"): watch an index, and when it
 * crosses a level buy (or sell) the option the pick names, then an OCO exit on the premium. Every flag is checked here
 * as the gateway checks the body (functions/base/schemas/option-plan.ts; the client imports nothing outside client/,
 * so the index names are a copy, held to the gateway's by test/unit/cli-plan-option.test.ts), so a mistake is named,
 * exit 2, before anything is sent. `--dry-run` asks the gateway which contract it would pick now.
 */
import type { PlanRecord } from '../../types.js';
import { command, may, needs } from '../command.js';
import { type Flags, isLots, PLAIN_DECIMAL, type ProductLetter } from '../flags.js';

/** The indices with options, as traders name them (functions/base/schemas/option-plan.ts, INDEX_NAMES). */
export const OPTION_INDICES: readonly string[] = ['NIFTY', 'BANKNIFTY', 'FINNIFTY', 'MIDCPNIFTY', 'SENSEX'];

const STRIKE = /^ATM(?:[+-]\d{1,2})?$/;
const EXPIRY = /^(nearest|next-month|\d{4}-\d{2}-\d{2})$/;

/** The body of `POST /plans {kind: "option-entry"}` as the flags say it. */
interface OptionPlanBody {
  kind: 'option-entry';
  underlying: string;
  when: { above: string } | { below: string };
  pick: { expiry: string; strike: string | number; type: 'CE' | 'PE' };
  lots: number;
  trantype: 'B' | 'S';
  prd: ProductLetter;
  exit: { stop: string; target: string };
  /** The most the entry may be worth when the index crosses (rupees: quantity × the limit sent). */
  maxValue?: number;
  tag?: string;
}

/** One of two flags, exactly: its name and value, or a problem said to `f`. */
const oneOf = (f: Flags, a: string, b: string): [string, string] | undefined => {
  const [va, vb] = [f.str(a), f.str(b)];
  if (va !== undefined && vb !== undefined) f.problem(`give --${a} or --${b}, not both`);
  else if (va !== undefined) return [a, va];
  else if (vb !== undefined) return [b, vb];
  return undefined;
};

/** The plan the flags describe; every problem said to `f` (named together, exit 2). */
const optionPlanFromFlags = (f: Flags, args: readonly string[]): OptionPlanBody => {
  const underlying = (args[0] ?? '').trim().toUpperCase();
  if (!OPTION_INDICES.includes(underlying))
    f.problem(
      `the index must be one of ${OPTION_INDICES.join(', ')} (as traders name it), got ${JSON.stringify(args[0] ?? '')}`,
    );
  const when = oneOf(f, 'above', 'below');
  if (when && !PLAIN_DECIMAL.test(when[1].trim()))
    f.problem(`--${when[0]} must be the index's level, a plain number (24500), got ${JSON.stringify(when[1])}`);
  const option = oneOf(f, 'ce', 'pe');
  const strikeText = option?.[1].trim().toUpperCase() ?? '';
  const strike = /^\d+(\.\d+)?$/.test(strikeText) ? Number(strikeText) : strikeText;
  if (option && typeof strike === 'string' && !STRIKE.test(strike))
    f.problem(
      `--${option[0]} must be ATM, ATM+n or ATM-n (listed strikes above or below the one nearest the index) or a strike (24500), got ${JSON.stringify(option[1])}`,
    );
  // Both told at once when both are missing; only once nothing else is wrong, since either flag of a pair will do.
  const missing = [when ? '' : '--above LEVEL or --below LEVEL', option ? '' : '--ce STRIKE or --pe STRIKE'];
  if (!when || !option) f.standalone(`missing ${missing.filter(Boolean).join(', and ')}`, 'plan-option');
  const expiry = f.str('expiry')?.trim() ?? 'nearest';
  if (!EXPIRY.test(expiry))
    f.problem(`--expiry must be nearest, next-month or a date YYYY-MM-DD, got ${JSON.stringify(expiry)}`);
  const lotsText = f.need('lots').trim();
  const lots = Number(lotsText);
  if (lotsText !== '' && !isLots(lotsText))
    f.problem(`--lots must be a whole number of lots from 1 to 1000 (not units), got ${JSON.stringify(lotsText)}`);
  const form = "premium points (20, 12.5) or a percentage of the entry's fill (25%)";
  const stop = f.exitDistance('stop', form);
  const target = f.exitDistance('target', form);
  const prd = f.productLetter('prd', 'M');
  const capText = f.str('max-value')?.trim();
  if (capText !== undefined && (!/^\d+(\.\d{1,2})?$/.test(capText) || Number(capText) <= 0))
    f.problem(
      `--max-value must be rupees greater than 0 (the most the entry may be worth when the index crosses: quantity × its limit), e.g. 50000, got ${JSON.stringify(capText)}`,
    );
  const tag = f.str('tag');
  return {
    kind: 'option-entry',
    underlying,
    when: when?.[0] === 'below' ? { below: when[1].trim() } : { above: when?.[1].trim() ?? '' },
    pick: { expiry, strike, type: option?.[0] === 'pe' ? 'PE' : 'CE' },
    lots,
    trantype: f.values.sell === true ? 'S' : 'B',
    prd,
    exit: { stop, target },
    ...(capText !== undefined ? { maxValue: Number(capText) } : {}),
    ...(tag ? { tag } : {}),
  };
};

/** What a dry run answers (functions/plans/option-create.ts): the contract it would pick now and its entry. */
interface DryRunAnswer {
  underlying?: { price?: number };
  contract?: { tsym: string; strike: number; expiry: string; lot: number; lastPrice?: number };
  qty?: number;
  entry?: { prc?: string };
  value?: number;
  maxValue?: number;
}

/** `dry run: nothing was sent. NIFTY above 24500: would buy NIFTY08DEC26C24500 now (...)`. */
const optionDryRunText = (body: OptionPlanBody, answer: DryRunAnswer): string => {
  const c = answer.contract;
  const level = 'above' in body.when ? `above ${body.when.above}` : `below ${body.when.below}`;
  const side = body.trantype === 'S' ? 'sell' : 'buy';
  const prices = [
    c?.lastPrice === undefined ? '' : `last ${c.lastPrice}`,
    answer.entry?.prc ? `entry limit ${answer.entry.prc}` : '',
  ].filter(Boolean);
  const now = c
    ? `would ${side} ${c.tsym} now (strike ${c.strike}, expiry ${c.expiry}, ${body.lots} × lot ${c.lot} = ${answer.qty}${prices.length ? `; ${prices.join(', ')}` : ''}) at ${body.underlying} ${answer.underlying?.price}`
    : `the gateway named no contract: ${JSON.stringify(answer)}`;
  const cap =
    answer.maxValue === undefined || answer.value === undefined
      ? ''
      : answer.value > answer.maxValue
        ? `; its value now, ${answer.value}, is above --max-value ${answer.maxValue}: at this price it would send nothing and fail`
        : `; its value now ${answer.value}, within --max-value ${answer.maxValue}`;
  return `dry run: nothing was sent. ${body.underlying} ${level}: ${now}${cap}; the contract is chosen again when it crosses`;
};

/** An option plan's part of a `plans` line: the index, its level and pick, and the contract once chosen. */
export const optionPlanText = (p: PlanRecord): string => {
  const o = p.option;
  if (!o) return '';
  const level = o.when.above !== undefined ? `above ${o.when.above}` : `below ${o.when.below}`;
  const pick = `${o.pick.strike} ${o.pick.type} ${o.pick.expiry} ${o.lots} lot${o.lots === 1 ? '' : 's'}`;
  const contract = o.resolved
    ? `contract ${o.resolved.tsym} (at ${o.underlying.name} ${o.resolved.price})`
    : 'contract when it crosses';
  return `${o.underlying.name} ${level}  ${pick}  ${contract}`;
};

export const planOption = command({
  name: 'plan-option',
  args: ['index'],
  flags: [
    may('above', '24500'),
    may('below', '24500'),
    may('ce', 'ATM'),
    may('pe', 'ATM'),
    may('expiry', 'nearest'),
    needs('lots', '2'),
    needs('stop', '20'),
    needs('target', '25%'),
    may('prd', 'M'),
    may('max-value', '50000'),
    may('sell'),
    may('tag', 'T'),
    may('key', 'K'),
  ],
  dryRun: true,
  summary:
    'an option plan: watch the index (NIFTY, BANKNIFTY, FINNIFTY, MIDCPNIFTY, SENSEX); when it goes --above (or --below) ' +
    'the level, buy (--sell: sell) --lots of the --ce (or --pe) ATM, ATM+n, ATM-n or a strike of the --expiry ' +
    '(nearest, next-month, YYYY-MM-DD), then an OCO exit on the premium, --stop and --target in points or %; ' +
    "--prd M unless given; --max-value caps the entry's value (rupees) when it crosses, else nothing is sent; " +
    '--dry-run names the contract it would pick now',
  input: (f, args) => optionPlanFromFlags(f, args),
  run: async ({ client, io, json, orderOptions }, body) => {
    if (orderOptions.dryRun) {
      // A dry run answers what the plan would do now (DryRunAnswer), not a plan.
      const answer: unknown = await client.createPlan(body, orderOptions);
      io.out(json ? JSON.stringify(answer, null, 2) : optionDryRunText(body, answer as DryRunAnswer));
      return 0;
    }
    const plan = await client.createPlan(body, orderOptions);
    io.out(
      json
        ? JSON.stringify(plan, null, 2)
        : `${plan.idempotency?.replayed ? 'plan already created' : 'created'} ${plan.planId}  ${plan.state}  ${optionPlanText(plan)}`,
    );
    return 0;
  },
  render: 'self',
});
