/**
 * `POST /plans {kind: "option-legs"}` (docs/reference/plans.md, "Legs as one"): what is refused before anything is
 * stored or sent, the plan as stored (`entry-placed`, each leg's protected limit fixed from its price now), and
 * `?dryRun=true`'s answer: each leg's order and the net premium now, nothing stored or sent.
 *
 * Refused (400, nothing stored or sent): a leg that is not a listed option (SearchScrip does not list it: the answer
 * names the closest symbols; or a listed symbol that is no option), lots × lot above the contract's freeze quantity
 * (refused, never sliced, as option-entry decides: the most lots allowed is said). A rule, freeze quantity or price
 * that cannot be read is the read's own retryable error: nothing is stored.
 */
import { ValidationFailedError } from '../base/contract/errors.js';
import type { LegRecord, OptionLegsInput } from '../base/schemas/option-legs.js';
import type { Plan } from '../base/schemas/plans.js';
import type { PlanDeps } from './engine-needs.js';
import { legLimit, netOf, OPTION_TSYM, weightsOf } from './legs-rules.js';

type Deps = Pick<PlanDeps, 'instrument' | 'lastPrice' | 'band' | 'freeze' | 'protectionPercent'>;

const refused = (field: string, message: string) =>
  new ValidationFailedError(`The legs plan cannot be carried out as given: ${message}. Nothing was stored or sent.`, {
    details: [{ field, message }],
    outcome: 'not_executed',
  });

/** The legs in the order their entries are placed: bought legs first (a short leg is never entered without cover). */
export const entryOrderOf = (legs: readonly { trantype: 'B' | 'S' }[]): number[] =>
  legs.map((_, i) => i).sort((a, b) => Number(legs[a]!.trantype === 'S') - Number(legs[b]!.trantype === 'S'));

/** Every leg checked (a listed option, within its freeze quantity), with its rules, weight and price now. */
export const legsCheck = async (
  input: OptionLegsInput,
  deps: Deps,
  deadline: number,
): Promise<{ legs: LegRecord[]; prices: number[] }> => {
  const weights = weightsOf(input.legs.map((l) => l.lots));
  const legs: LegRecord[] = [];
  const prices: number[] = [];
  for (const [i, leg] of input.legs.entries()) {
    const where = `${leg.exch}:${leg.tsym}`;
    if (!OPTION_TSYM.test(leg.tsym))
      throw refused(
        `legs.${i}.tsym`,
        `${where} is not an option (the family's option symbols end in C or P and the strike, e.g. NIFTY30DEC25C24500): a legs plan trades listed options; GET /options lists them`,
      );
    const rules = await deps.instrument(leg.exch, leg.tsym, deadline); // an unlisted symbol: its own 400
    const lot = rules.lot ?? 1;
    const qty = leg.lots * lot;
    const freeze = rules.token === undefined ? undefined : await deps.freeze(leg.exch, rules.token, deadline);
    if (freeze !== undefined && qty > freeze)
      throw refused(
        `legs.${i}.lots`,
        `${leg.lots} lots of ${leg.tsym} are ${qty} units, above its freeze quantity of ${freeze} (the most one order may carry; a leg's entry is one order, never sliced): at most ${Math.floor(freeze / lot)} lots`,
      );
    const price = await deps.lastPrice(leg.exch, leg.tsym, deadline);
    const circuit = rules.token === undefined ? undefined : await deps.band(leg.exch, rules.token, deadline);
    prices.push(price);
    legs.push({
      exch: leg.exch,
      tsym: leg.tsym,
      token: rules.token ?? '',
      trantype: leg.trantype,
      lots: leg.lots,
      lot,
      qty,
      tick: rules.tick,
      weight: weights[i]!,
      prc: legLimit(
        { exch: leg.exch, tsym: leg.tsym, tick: rules.tick },
        leg.trantype,
        price,
        deps.protectionPercent,
        circuit,
      ),
    });
  }
  return { legs, prices };
};

/** The order a leg's entry sends (every try the same: its limit was fixed when the plan was created). */
export const entryBody = (leg: LegRecord, prd: string) => ({
  exch: leg.exch,
  tsym: leg.tsym,
  trantype: leg.trantype,
  prd,
  qty: leg.qty,
  prctyp: 'LMT',
  ret: 'IOC',
  prc: leg.prc,
});

/** The plan as stored: its legs' entries about to be placed (legs.ts). */
export const legsPlanOf = (
  input: OptionLegsInput,
  legs: LegRecord[],
  fields: Pick<Plan, 'planId' | 'inputHash'>,
  at: string,
): Plan => ({
  ...fields,
  kind: 'option-legs',
  state: 'entry-placed',
  exch: legs[0]!.exch,
  tsym: legs.map((l) => l.tsym).join(' + '),
  ...(input.tag ? { tag: input.tag } : {}),
  createdAt: at,
  updatedAt: at,
  alIds: {},
  seq: 0,
  legs: { legs, exit: input.exit, prd: input.prd },
  history: [{ at, action: 'created', detail: { legs: legs.map((l) => `${l.trantype} ${l.lots}x ${l.tsym}`) } }],
});

/** `?dryRun=true`: each leg's order and the net premium now; nothing stored or sent. */
export const legsDryRun = async (
  input: OptionLegsInput,
  deps: Deps,
  deadline: number,
): Promise<Record<string, unknown>> => {
  const { legs, prices } = await legsCheck(input, deps, deadline);
  const net = netOf(legs, prices);
  return {
    dryRun: true,
    kind: 'option-legs',
    legs: entryOrderOf(legs).map((i) => ({
      ...entryBody(legs[i]!, input.prd),
      lots: legs[i]!.lots,
      lot: legs[i]!.lot,
      weight: legs[i]!.weight,
      lastPrice: prices[i],
    })),
    net,
    exit: input.exit,
    note: `the net premium now is ${net} (Σ +price of a bought leg, −price of a sold leg, × lots over the smallest leg's lots); the plan's stop and target count from the net at the entry's fills. Bought legs are placed first. Nothing was stored or sent.`,
  };
};
