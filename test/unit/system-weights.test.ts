/**
 * The system model's weighting of command families (test/support/system-weights.ts, `npm run model -- --weights`):
 * without weights the list is npm test's own; a weighted family's commands appear as often as their weight says, the
 * others as before; an unknown family or a bad weight is refused with the way forward.
 */
import { expect, it } from 'vitest';

import { COMMANDS } from '../support/system-model.js';
import { riskCommands } from '../support/system-risk.js';
import { FAMILIES, FOCUS_WEIGHT, parseWeights, weighted } from '../support/system-weights.js';

const count = (list: readonly unknown[], item: unknown) => list.filter((x) => x === item).length;

it('leaves the default list as it is', () => {
  expect(weighted(parseWeights('', ''))).toBe(COMMANDS);
});

it('repeats each command of a weighted family by its weight and keeps the others', () => {
  const list = weighted(parseWeights('risk=5', 'exit'));
  expect(count(list, riskCommands.riskLimit)).toBe(5);
  for (const cmd of FAMILIES.exit!) expect(count(list, cmd)).toBe(FOCUS_WEIGHT);
  const others = COMMANDS.filter((c) => !FAMILIES.risk!.includes(c) && !FAMILIES.exit!.includes(c));
  expect(list.filter((c) => !FAMILIES.risk!.includes(c) && !FAMILIES.exit!.includes(c))).toEqual(others);
});

it('refuses an unknown family or a weight that is not a whole number from 1 to 100', () => {
  expect(() => parseWeights('risky=2', '')).toThrow(/unknown family "risky"; the families are orders, .*risk/);
  expect(() => parseWeights('risk=0', '')).toThrow(/whole number from 1 to 100/);
  expect(() => parseWeights('risk=2.5', '')).toThrow(/whole number from 1 to 100/);
  expect(() => parseWeights('risk', '')).toThrow(/whole number from 1 to 100/);
});

it('puts every command of the model in a family, so a new one can be weighted up the day it is added', () => {
  const families = Object.values(FAMILIES).flat();
  const orphans = COMMANDS.filter((c) => !families.includes(c));
  expect(orphans.length, 'add the new command file to FAMILIES in test/support/system-weights.ts').toBe(0);
});
