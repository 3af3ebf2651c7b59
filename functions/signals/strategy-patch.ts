/**
 * `PATCH /strategies/{strategyId}`: the caller's changes laid over the stored strategy, and the result checked as
 * `POST /strategies` checks a new one (a ChartInk strategy still fixes its side, every field within its rules).
 * The id, source, creation time and token stay: the webhook URL keeps working. Bad input changes nothing.
 */
import { describeIssues, validateInput, validationFailed } from '../base/contract/validate-input.js';
import { type SignalAction, type Strategy, strategyInput, strategyPatch } from '../base/schemas/signals.js';

const INPUT_FIELDS = Object.keys(strategyInput.shape) as (keyof typeof strategyInput.shape)[];

/** `value` set, `null` removed, `undefined` left as it was. */
const apply = <T extends object, K extends keyof T>(target: T, name: K, value: T[K] | null | undefined) => {
  if (value === null) delete target[name];
  else if (value !== undefined) target[name] = value;
};

/** The strategy with `body`'s changes, checked whole; a VALIDATION_FAILED naming each field when it cannot be. */
export const patchedStrategy = (current: Strategy, body: unknown, now: string): Strategy => {
  const patch = validateInput(strategyPatch, body);
  const action = structuredClone(patch.action ?? current.action) as SignalAction;
  if (patch.qty !== undefined || patch.trantype !== undefined) {
    if (!('order' in action))
      throw validationFailed([
        {
          field: patch.qty !== undefined ? 'qty' : 'trantype',
          message: `the strategy's action (${action.kind}) places no order to change`,
        },
      ]);
    apply(action.order, 'qty', patch.qty);
    apply(action.order, 'trantype', patch.trantype);
  }
  const input: Record<string, unknown> = Object.fromEntries(
    INPUT_FIELDS.filter((name) => current[name] !== undefined).map((name) => [name, current[name]]),
  );
  input.action = action;
  for (const name of ['name', 'mode', 'ratePerMinute', 'maxQty', 'allowIps', 'tag', 'scope'] as const)
    apply(input, name, patch[name]);
  const checked = strategyInput.safeParse(input);
  if (!checked.success)
    throw validationFailed(
      describeIssues(checked.error.issues),
      'The strategy would not be valid with these changes; nothing was changed',
    );
  return {
    ...checked.data,
    strategyId: current.strategyId,
    createdAt: current.createdAt,
    tokenSetAt: current.tokenSetAt,
    updatedAt: now,
  };
};
