/**
 * The order vitest starts the test files in (vitest.config.ts): the few files that take half a minute or more first,
 * whatever their project (a fresh clone has no times of an earlier run to order them by); then the `slow` project's
 * files, then `infra`'s, then the many short `fast` ones, which fill the two workers while the last long file ends.
 * Within each, vitest's own order: the files that failed last time, then the longest by the last run's times (by
 * size on a fresh clone).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Each took 30 s or more in `npm test` on a fresh clone on two cores (November 2026), longest first. Not the real
 * synth (test/infra/synth.test.ts): its 28 esbuild runs took 78 to 127 s started beside these and the checks, and
 * 45 s among the infra files, late in the run.
 */
export const LONGEST = [
  'test/e2e/cli.test.ts',
  'test/integration/big-lists.test.ts',
  'test/integration/system-model.test.ts',
  'test/integration/plans-model.test.ts',
  'test/integration/order-rate.test.ts',
  'test/e2e/workflow.test.ts',
];
const FIRST_TO_LAST = ['slow', 'infra', 'fast'];
const rank = (spec: TestSpecification) => {
  const file = spec.moduleId.replaceAll('\\', '/');
  const long = LONGEST.findIndex((name) => file.endsWith(`/${name}`));
  if (long !== -1) return long - LONGEST.length;
  const at = FIRST_TO_LAST.indexOf(spec.project.name);
  return at === -1 ? FIRST_TO_LAST.length : at;
};

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array sort is stable: vitest's order stays within each project.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
