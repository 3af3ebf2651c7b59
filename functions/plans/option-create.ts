/**
 * `POST /plans {kind: "option-entry"}` (docs/reference/plans.md, "Option entry"): what is refused before anything is
 * stored or sent, the plan as stored (`watching`, nothing at the broker), and `?dryRun=true`'s answer: the contract
 * it would pick at the index's price now, the entry it would send for it and its value (quantity × limit) beside the
 * plan's `maxValue`.
 *
 * Refused (400, nothing stored): a pick the chain cannot answer (a strike or expiry not listed: the answer names what
 * exists), a level the index has already crossed (the plan would enter at once: a plain order is the way to buy now),
 * more lots than the contract's freeze quantity allows in one order (refused, not sliced: the most lots allowed is
 * said). A quote, chain or freeze quantity that cannot be read is the read's own retryable error: nothing is stored.
 */
import { ValidationFailedError } from '../base/contract/errors.js';
import type { OptionEntryInput, OptionPlan } from '../base/schemas/option-plan.js';
import type { Plan } from '../base/schemas/plans.js';
import type { PickedOption } from '../orders/instruments/option-pick.js';
import type { PlanDeps } from './engine-needs.js';
import {
  contractOf,
  crossed,
  entryOrderOf,
  entryValue,
  freezeWords,
  levelWords,
  optionPartOf,
  OptionPickError,
  overCap,
  pickAt,
} from './option-contract.js';

type Deps = Pick<PlanDeps, 'lastPrice' | 'band' | 'chains' | 'expiryCutoffMinutes' | 'freeze' | 'protectionPercent'>;

const refused = (field: string, message: string) =>
  new ValidationFailedError(`The option plan cannot be carried out as given: ${message}. Nothing was stored or sent.`, {
    details: [{ field, message }],
    outcome: 'not_executed',
  });

/** The checks of an option plan at the index's price now: its option part, that price and the contract it picks. */
export const optionCheck = async (
  input: OptionEntryInput,
  deps: Deps,
  now: number,
  deadline: number,
): Promise<{ option: OptionPlan; price: number; picked: PickedOption }> => {
  const option = optionPartOf(input);
  const { name, exch, tsym } = option.underlying;
  const price = await deps.lastPrice(exch, tsym, deadline);
  if (crossed(option.when, price))
    throw refused(
      option.when.above !== undefined ? 'when.above' : 'when.below',
      `${name} (${exch}:${tsym}) is at ${price}, already ${levelWords(option.when)}, so the plan would enter at once; to enter now, order the contract in the broker's app (the gateway sends plain orders only to close), or choose a level ${name} has not reached`,
    );
  let picked: PickedOption;
  try {
    picked = await pickAt(deps, option, price, now, deadline);
  } catch (error) {
    if (error instanceof OptionPickError) throw refused(`pick.${error.field}`, error.message);
    throw error;
  }
  const tooMany = freezeWords(picked, option.lots, await deps.freeze(picked.exch, picked.token, deadline));
  if (tooMany) throw refused('lots', tooMany);
  return { option, price, picked };
};

/** The plan as stored: `watching` the index, nothing at the broker. */
export const optionPlanOf = (
  input: OptionEntryInput,
  option: OptionPlan,
  fields: Pick<Plan, 'planId' | 'inputHash'>,
  at: string,
): Plan => ({
  ...fields,
  kind: 'option-entry',
  state: 'watching',
  exch: option.underlying.exch,
  tsym: option.underlying.tsym,
  ...(input.tag ? { tag: input.tag } : {}),
  createdAt: at,
  updatedAt: at,
  alIds: {},
  seq: 0,
  option,
  history: [{ at, action: 'created', detail: { watching: `${option.underlying.name} ${levelWords(option.when)}` } }],
});

/** `?dryRun=true`: the contract the plan would pick at the index's price now and the entry it would send. */
export const optionDryRun = async (
  input: OptionEntryInput,
  deps: Deps,
  now: number,
  deadline: number,
): Promise<Record<string, unknown>> => {
  const { option, price, picked } = await optionCheck(input, deps, now, deadline);
  const optionPrice = await deps.lastPrice(picked.exch, picked.tsym, deadline);
  const circuit = await deps.band(picked.exch, picked.token, deadline);
  const qty = option.lots * picked.lot;
  const entry = entryOrderOf(picked, option, qty, optionPrice, deps.protectionPercent, circuit);
  const capped = overCap(entry, option.maxValue);
  return {
    dryRun: true,
    kind: 'option-entry',
    underlying: { ...option.underlying, price },
    when: option.when,
    contract: {
      ...contractOf(picked),
      tick: picked.tick,
      lastPrice: optionPrice,
    },
    lots: option.lots,
    qty,
    entry,
    value: entryValue(entry),
    ...(option.maxValue !== undefined ? { maxValue: option.maxValue } : {}),
    note: `the contract picked at ${option.underlying.name}'s price now (${price}); the plan picks again at the price it sees when ${option.underlying.name} is ${levelWords(option.when)}.${capped ? ` Now ${capped}: at this price the plan would send nothing and fail.` : ''} Nothing was stored or sent.`,
  };
};
