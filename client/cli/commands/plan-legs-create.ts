/**
 * `plan-legs`: a legs-as-one plan from flags (docs/reference/plans.md, "Legs as one"): two to four option legs
 * entered together, with one stop and one target on their net premium. Each `--leg` is `SIDE:TSYM:LOTS` (an NFO
 * option) or `SIDE:EXCH:TSYM:LOTS` (BFO for BSE's). Every flag is checked here as the gateway checks the body
 * (functions/base/schemas/option-legs.ts; the client imports nothing outside client/, so the rules are a copy, held
 * to the gateway's by test/unit/cli-plan-legs-create.test.ts), so a mistake is named, exit 2, before anything is
 * sent. `--dry-run` asks the gateway for each leg's order and the net premium now.
 */
import { command, may, needs, needsEach } from '../command.js';
import { type Flags, isLots, type ProductLetter } from '../flags.js';
import { canonicalValue, SIDE_VALUES } from '../trader-values.js';
import { legsLine, legsSummary } from './plan-legs.js';

/** The exchanges whose options a legs plan trades, and how many legs it takes (option-legs.ts). */
type LegExchange = 'NFO' | 'BFO';
export const LEG_EXCHANGES: readonly string[] = ['NFO', 'BFO'] satisfies LegExchange[];
export const LEG_COUNT = { min: 2, max: 4 } as const;
/** An option's symbol in the family's spelling ends in C or P and the strike (functions/plans/legs-rules.ts). */
const OPTION_TSYM = /\d[CP]\d+(?:\.\d+)?$/;

interface LegBody {
  exch: LegExchange;
  tsym: string;
  trantype: 'B' | 'S';
  lots: number;
}

/** The body of `POST /plans {kind: "option-legs"}` as the flags say it. */
interface LegsPlanBody {
  kind: 'option-legs';
  legs: LegBody[];
  exit: { stop: string; target: string };
  prd: ProductLetter;
  tag?: string;
}

const LEG_FORM = 'SIDE:TSYM:LOTS or SIDE:EXCH:TSYM:LOTS (S:NIFTY08DEC26C25000:1)';

/** One `--leg`, or undefined with its problems said to `f`. */
const legOf = (f: Flags, text: string): LegBody | undefined => {
  const parts = text.split(':').map((p) => p.trim());
  if (parts.length !== 3 && parts.length !== 4) {
    f.problem(`--leg must be ${LEG_FORM}, got ${JSON.stringify(text)}`);
    return undefined;
  }
  const [sideText, ...rest] = parts as [string, ...string[]];
  const [exchText, tsymText, lotsText] = rest.length === 3 ? (rest as [string, string, string]) : ['NFO', ...rest];
  const problems: string[] = [];
  const side = canonicalValue(SIDE_VALUES, sideText);
  if (side !== 'B' && side !== 'S')
    problems.push(`its side must be B or S (also buy, sell), got ${JSON.stringify(sideText)}`);
  const exch = exchText!.toUpperCase();
  if (!LEG_EXCHANGES.includes(exch))
    problems.push(`its exchange must be NFO or BFO (the index options), got ${JSON.stringify(exchText)}`);
  const tsym = tsymText!.toUpperCase();
  if (!OPTION_TSYM.test(tsym))
    problems.push(
      `${JSON.stringify(tsymText)} is not an option's symbol (it ends in C or P and the strike, e.g. NIFTY08DEC26C25000; gtt chain NIFTY lists them)`,
    );
  const lots = Number(lotsText);
  if (!isLots(lotsText!))
    problems.push(
      `its lots must be a whole number of lots from 1 to 1000 (not units), got ${JSON.stringify(lotsText)}`,
    );
  if (problems.length) {
    f.problem(`--leg ${text}: ${problems.join(', ')}`);
    return undefined;
  }
  return { exch: exch as LegExchange, tsym, trantype: side as 'B' | 'S', lots };
};

/** The plan the flags describe; every problem said to `f` (named together, exit 2). */
const legsPlanFromFlags = (f: Flags): LegsPlanBody => {
  const given = f.values.leg;
  const texts = (Array.isArray(given) ? given : []).map(String);
  if (texts.length < LEG_COUNT.min || texts.length > LEG_COUNT.max)
    f.problem(`give ${LEG_COUNT.min} to ${LEG_COUNT.max} --leg ${LEG_FORM} (a straddle is two), got ${texts.length}`);
  const legs = texts.map((t) => legOf(f, t)).filter((l): l is LegBody => l !== undefined);
  const seen = new Set<string>();
  for (const l of legs) {
    const id = `${l.exch}:${l.tsym}`;
    if (seen.has(id)) f.problem(`${id} is named twice: each leg is a different contract (write its lots once)`);
    seen.add(id);
  }
  const form = "points of the net premium (40, 12.5) or a percentage of the entry's net (25%)";
  const stop = f.exitDistance('stop', form);
  const target = f.exitDistance('target', form);
  const prd = f.productLetter('prd', 'M');
  const tag = f.str('tag');
  return {
    kind: 'option-legs',
    legs,
    exit: { stop, target },
    prd,
    ...(tag ? { tag } : {}),
  };
};

/** What a dry run answers (functions/plans/legs-create.ts, legsDryRun): each leg's order, bought legs first. */
interface DryRunAnswer {
  legs?: {
    exch: string;
    tsym: string;
    trantype: string;
    qty: number;
    lots: number;
    prc?: string;
    lastPrice?: number;
  }[];
  net?: number;
}

/** `dry run: nothing was sent. would place, bought legs first: S 1 lot NFO:X = 65 at limit 76.2 (last 80); ...`. */
const legsDryRunText = (body: LegsPlanBody, answer: DryRunAnswer): string => {
  if (!answer.legs) return `dry run: nothing was sent. the gateway named no legs: ${JSON.stringify(answer)}`;
  const legs = answer.legs.map(
    (l) =>
      `${l.trantype} ${l.lots} lot${l.lots === 1 ? '' : 's'} ${l.exch}:${l.tsym} = ${l.qty} at limit ${l.prc ?? '?'}${l.lastPrice === undefined ? '' : ` (last ${l.lastPrice})`}`,
  );
  return (
    `dry run: nothing was sent. would place, bought legs first: ${legs.join('; ')}. ` +
    `net premium now ${answer.net ?? '?'}; stop ${body.exit.stop} target ${body.exit.target} count from the net at the fills`
  );
};

export const planLegs = command({
  name: 'plan-legs',
  flags: [
    needsEach('leg', 'S:NIFTY08DEC26C25000:1'),
    needs('stop', '40'),
    needs('target', '25%'),
    may('prd', 'M'),
    may('tag', 'T'),
    may('key', 'K'),
  ],
  dryRun: true,
  summary:
    'a legs-as-one plan: 2 to 4 --leg SIDE:TSYM:LOTS (B or S, an NFO option, lots; SIDE:BFO:TSYM:LOTS for BSE) ' +
    'entered together, bought legs first, then closed together when the net premium moves --stop against them or ' +
    '--target for them (points or %); --prd M unless given; --dry-run shows the orders of the legs and the net now',
  input: (f) => legsPlanFromFlags(f),
  run: async ({ client, io, json, orderOptions }, body) => {
    if (orderOptions.dryRun) {
      // A dry run answers what the plan would do now (DryRunAnswer), not a plan.
      const answer: unknown = await client.createPlan(body, orderOptions);
      io.out(json ? JSON.stringify(answer, null, 2) : legsDryRunText(body, answer as DryRunAnswer));
      return 0;
    }
    const plan = await client.createPlan(body, orderOptions);
    if (json) io.out(JSON.stringify(plan, null, 2));
    else
      io.out(
        [
          `${plan.idempotency?.replayed ? 'plan already created' : 'created'} ${plan.planId}  ${plan.state}  ${legsSummary(plan)}`,
          legsLine(plan),
        ]
          .filter(Boolean)
          .join('\n'),
      );
    return 0;
  },
  render: 'self',
});
